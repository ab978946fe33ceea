//===- FactorAxesChoice.h - one sharding per factor of an op ----*- C++ -*-===//
//
// The choice sdy-insert-explicit-reshards makes for an op whose operands and
// results disagree about its factors: which axes shard each factor, so that
// every tensor can be resharded to that choice and the op computes locally.
// It follows the semantics of Shardy's full-version explicit reshards:
//
// 1. If every tensor already agrees on every factor (need-replication
//    factors unsharded, no axis on two factors), that is the choice.
// 2. An op with exactly two non-scalar tensors, no need-replication factor
//    and one factor per dimension follows one of the two tensors: the one
//    without sharded permutation factors, then the larger, then the more
//    sharded (the first on a tie); the other tensor's factors keep the part
//    of their axes the first does not use.
// 3. Otherwise a greedy choice over (factor, axes) candidates taken from
//    every tensor and every whole-axis prefix of its factor shardings. A
//    candidate weighs the total number of elements of the tensors it would
//    leave in place (their factor sharding equals it or extends it); ties
//    prefer pass-through over reduction over permutation over
//    need-replication factors, then the larger sharding. Picking one
//    removes its axes from the other candidates. A factor that follows
//    another in a dimension waits until the earlier one is fully sharded
//    (anything else would be a strided view).
// 4. Axes chosen for need-replication factors move to the batching factors
//    (pass-through factors every non-scalar tensor has) whose size they
//    divide, instead of being gathered.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_FACTORAXESCHOICE_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_FACTORAXESCHOICE_H

#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardingProjection.h"

namespace mlir::sdy {

/// The axes chosen for each factor of `rule`, given the projection of the
/// op's current shardings and the number of elements of each operand and
/// result (operands first; 0 for dynamic shapes).
SmallVector<AxisList> chooseFactorAxes(const ShardingProjection &projection,
                                       OpShardingRuleAttr rule,
                                       ArrayRef<int64_t> tensorSizes,
                                       MeshAttr mesh);

/// Unshards `factor` in `chosen`; if every non-scalar tensor has it, its
/// axes move onto the batching factors of `rule` (pass-through factors every
/// non-scalar tensor has), in order, each taking the leading axes whose
/// sizes divide what is left of the factor's size. Axes that find no room
/// are dropped (gathered).
void moveAxesToBatchingFactors(int64_t factor, OpShardingRuleAttr rule,
                               MeshAttr mesh, SmallVectorImpl<AxisList> &chosen);

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_FACTORAXESCHOICE_H
