//===- ShardableValues.h - where propagation reads and writes ---*- C++ -*-===//
//
// Propagation reads and writes the sharding of a value where the IR keeps
// it (see ValueShardings.h), with two refinements:
//   - A target of a data-flow op (a result or block argument of an op
//     implementing ShardableDataFlowOpInterface) shares the sharding of its
//     edge: it lives on the edge's `sdy.data_flow_edge` op if the import
//     stage added one (the op using the edge owner), else on the data-flow
//     op itself.
//   - A block argument of any other region op (e.g. a linalg body) has no
//     place to keep a sharding: it is unshardable, reads as null (fully open)
//     and ignores writes.
// Inside a manual_computation a block argument reads without the manual
// axes, and writing it keeps the manual axes of the op's in-sharding.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_SHARDABLEVALUES_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_SHARDABLEVALUES_H

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "mlir/IR/Value.h"

namespace mlir::sdy {

/// The data-flow op `target` (a result or block argument) belongs to, if it
/// implements ShardableDataFlowOpInterface.
ShardableDataFlowOpInterface getOwningDataFlowOp(Value target);

/// The `sdy.data_flow_edge` holding the sharding of edge owner `owner` (its
/// only user), or null.
DataFlowEdgeOp lookupEdgeOp(Value owner);

/// The value whose sharding `value` reads and writes: the edge op's result
/// or the edge owner for data-flow targets, `value` for op results and
/// function arguments, null for unshardable block arguments.
Value getShardableValue(Value value);

/// The sharding of `value` as its users see it (null if none).
TensorShardingAttr getValueSharding(Value value);

/// Sets the sharding of `value`; returns false if it is unshardable.
bool setValueSharding(Value value, TensorShardingAttr sharding);

/// `local` (a sharding without the manual axes of `manual`) with the manual
/// axes of each dimension of `outer` put back in front, and the manual
/// replicated and unreduced axes of `outer` added to those of `local`.
TensorShardingAttr addManualAxes(TensorShardingAttr outer,
                                 TensorShardingAttr local,
                                 ManualComputationOp manual);

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_SHARDABLEVALUES_H
