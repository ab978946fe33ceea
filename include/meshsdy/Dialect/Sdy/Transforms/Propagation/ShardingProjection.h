//===- ShardingProjection.h - shardings seen through a rule -----*- C++ -*-===//
//
// Propagation does not move axes between tensor dimensions directly: it
// projects the dimension shardings of an op's operands and results onto the
// factors of the op's sharding rule, moves axes along factors, and projects
// the factor shardings back onto dimensions.
//
// Projecting a dimension hands its axes to its factors from major to minor:
// a factor takes axes (splitting one into sub-axes where needed) until the
// product of what it took equals its size, and the minor-most factor of the
// dimension takes whatever is left, even if that does not divide its size
// (the last shard is padded). When the remaining size of a non-minor-most
// factor and the next axis are coprime the factor cannot be split evenly:
// the rest of the dimension's axes are kept aside as the factor's overflow
// axes, and the factors after it in the dimension are closed.
//
//   rule ([ij])->([i, j]) {i=2, j=4}, mesh <["x"=4, "y"=2]>
//   operand [{"x", "y"}]  ->  i: {"x":(1)2}, j: {"x":(2)2, "y"}
//   result  [{?}, {?}]    ->  i: {?},        j: {?}
//
// Projecting back concatenates the factors of each dimension, merging
// adjacent sub-axes ({"x":(1)2} + {"x":(2)2} -> {"x"}), and stops at the
// first factor that is not fully sharded (what follows would need a strided
// view).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_SHARDINGPROJECTION_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_SHARDINGPROJECTION_H

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::sdy {

/// The axes sharding one factor of one tensor, major to minor.
using AxisList = SmallVector<AxisRefAttr, 4>;

/// How one factor of one tensor is sharded.
struct FactorSharding {
  /// Whether the tensor has a dimension mapped to this factor.
  bool isMapped = false;
  AxisList axes;
  /// The dimension is closed (or an earlier factor overflowed): no axis may
  /// be added.
  bool isClosed = false;
  /// The factor is the last (minor-most) one of its dimension.
  bool isMinorMost = false;
  /// Axes of the dimension after a non-divisible split, kept so that
  /// projecting back restores the dimension (see the file comment).
  AxisList overflowAxes;

  bool operator==(const FactorSharding &other) const {
    return isMapped == other.isMapped && axes == other.axes &&
           isClosed == other.isClosed && isMinorMost == other.isMinorMost &&
           overflowAxes == other.overflowAxes;
  }
};

/// The factor shardings of one tensor, indexed by factor, plus the axes the
/// tensor is explicitly replicated or unreduced on.
struct TensorFactorShardings {
  SmallVector<FactorSharding> factors;
  AxisList replicatedAxes;
  AxisList unreducedAxes;

  /// The sharding of `factor` if the tensor is mapped to it, else null.
  const FactorSharding *find(int64_t factor) const {
    return factors[factor].isMapped ? &factors[factor] : nullptr;
  }

  /// Replaces the axes of `factor` by `newAxes` if the tensor is mapped to
  /// it and its current axes are a strict prefix of `newAxes`. Returns
  /// whether it changed.
  bool expand(int64_t factor, ArrayRef<AxisRefAttr> newAxes);

  /// The dimension sharding of this tensor under `mapping` (see the file
  /// comment); priorities are dropped, closed dimensions stay closed.
  TensorShardingAttr toSharding(MLIRContext *ctx, TensorMappingAttr mapping,
                                ArrayRef<int64_t> factorSizes,
                                Attribute meshOrRef, MeshAttr mesh) const;

  /// The axes of each dimension `toSharding` gives (into `axes`, one list
  /// per dimension) and, if `closed` is given, whether each is closed,
  /// without building an attribute. With `plan`, factor f has the axes
  /// `plan[f]` and no overflow axes instead of its own (closed).
  void toDimAxes(TensorMappingAttr mapping, ArrayRef<int64_t> factorSizes,
                 MeshAttr mesh, SmallVectorImpl<AxisList> &axes,
                 SmallVectorImpl<bool> *closed,
                 ArrayRef<AxisList> plan = {}) const;
};

/// Which operands and results a propagation step changed.
struct UpdatedTensors {
  llvm::BitVector operands;
  llvm::BitVector results;

  UpdatedTensors(int64_t numOperands, int64_t numResults)
      : operands(numOperands), results(numResults) {}
  bool any() const { return operands.any() || results.any(); }
};

/// The factor shardings of all operands and results of an op under a rule.
class ShardingProjection {
public:
  /// Projects `operandShardings` and `resultShardings` (null = fully open)
  /// onto the factors of `rule`. The caller checked that the ranks match the
  /// rule's mappings.
  static ShardingProjection build(ArrayRef<TensorShardingAttr> operandShardings,
                                  ArrayRef<TensorShardingAttr> resultShardings,
                                  OpShardingRuleAttr rule, MeshAttr mesh);

  int64_t getNumOperands() const { return numOperands; }
  int64_t getNumResults() const { return tensors.size() - numOperands; }
  int64_t getNumTensors() const { return tensors.size(); }

  /// All tensors, operands first.
  ArrayRef<TensorFactorShardings> getTensors() const { return tensors; }
  ArrayRef<TensorFactorShardings> getOperands() const {
    return ArrayRef(tensors).take_front(numOperands);
  }
  ArrayRef<TensorFactorShardings> getResults() const {
    return ArrayRef(tensors).drop_front(numOperands);
  }
  TensorFactorShardings &getTensor(int64_t index) { return tensors[index]; }

  /// Expands `factor` to `newAxes` in every tensor whose axes for it are a
  /// strict prefix of `newAxes`.
  UpdatedTensors expandAll(int64_t factor, ArrayRef<AxisRefAttr> newAxes);

  bool operator==(const ShardingProjection &other) const {
    return numOperands == other.numOperands && tensors.size() ==
           other.tensors.size() && llvm::all_of(
               llvm::zip(tensors, other.tensors), [](auto pair) {
                 auto &[a, b] = pair;
                 return a.factors == b.factors &&
                        a.replicatedAxes == b.replicatedAxes &&
                        a.unreducedAxes == b.unreducedAxes;
               });
  }

private:
  int64_t numOperands = 0;
  SmallVector<TensorFactorShardings> tensors;
};

/// How `first` relates to `second` as axis lists: equal, a strict prefix
/// (the last axis of `first` may be a prefix sub-axis of the matching axis
/// of `second`), or neither.
///   [] vs ["a"] -> strict ; ["a":(1)2] vs ["a", "b"] -> strict
///   ["a", "b"] vs ["a"] -> neither
enum class PrefixKind { Equal, StrictPrefix, NotPrefix };
PrefixKind comparePrefix(ArrayRef<AxisRefAttr> first,
                         ArrayRef<AxisRefAttr> second);


/// The longest prefix of `axis` that overlaps none of `others`, or null.
AxisRefAttr prefixAvoiding(AxisRefAttr axis, ArrayRef<AxisRefAttr> others);

/// The size of `axis` in `mesh` (1 if unknown, never 0).
int64_t axisSize(AxisRefAttr axis, MeshAttr mesh);

/// A sub-axis of `name` with `preSize` and `size`; the full axis when it
/// covers all of it.
AxisRefAttr makeAxisRef(MLIRContext *ctx, StringRef name, int64_t preSize,
                        int64_t size, MeshAttr mesh);

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_SHARDINGPROJECTION_H
