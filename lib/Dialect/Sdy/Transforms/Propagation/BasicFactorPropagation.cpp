//===- BasicFactorPropagation.cpp - axes all tensors agree on -------------===//

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/FactorPropagation.h"

#include <numeric>

using namespace mlir;
using namespace mlir::sdy;

/// Merges the axes of one more tensor into the compatible list `current`.
/// `canGrow` says whether the list may still get longer; it becomes false at
/// the first conflict. A sub-axis that is a prefix of the matching axis of
/// the other list is replaced by the longer one only if it is the last of its
/// list (otherwise what follows it conflicts).
static AxisList mergeCompatible(ArrayRef<AxisRefAttr> current,
                                ArrayRef<AxisRefAttr> other, bool &canGrow) {
  AxisList result;
  size_t common = std::min(current.size(), other.size());
  for (size_t i = 0; i < common; ++i) {
    AxisRefAttr mine = current[i], theirs = other[i];
    if (mine == theirs) {
      result.push_back(mine);
      continue;
    }
    if (mine.getName() != theirs.getName()) {
      canGrow = false;
      return result;
    }
    bool otherHasMore = i + 1 < other.size();
    bool currentHasMore = i + 1 < current.size();
    if (isPrefixOf(theirs, mine)) {
      if (otherHasMore) {
        result.push_back(theirs);
        canGrow = false;
        return result;
      }
      result.push_back(mine);
      continue;
    }
    if (isPrefixOf(mine, theirs)) {
      if (!canGrow || currentHasMore) {
        result.push_back(mine);
        canGrow = false;
        return result;
      }
      result.push_back(theirs);
      continue;
    }
    canGrow = false;
    return result;
  }
  result.append(current.begin() + common, current.end());
  if (canGrow)
    result.append(other.begin() + common, other.end());
  return result;
}

AxisList BasicFactorPropagation::compatibleMajorAxes(
    const ShardingProjection &projection, int64_t factor,
    PropagationDirection direction) {
  if (direction == PropagationDirection::NONE)
    return {};
  ArrayRef<TensorFactorShardings> leading = projection.getOperands();
  ArrayRef<TensorFactorShardings> trailing = projection.getResults();
  if (direction == PropagationDirection::BACKWARD)
    std::swap(leading, trailing);
  AxisList result;
  bool canGrow = true;
  auto mergeAll = [&](ArrayRef<TensorFactorShardings> tensors) {
    for (const TensorFactorShardings &tensor : tensors)
      if (const FactorSharding *sharding = tensor.find(factor))
        result = mergeCompatible(result, sharding->axes, canGrow);
  };
  mergeAll(leading);
  // In one direction the other side may only cut the list short.
  if (direction != PropagationDirection::BOTH)
    canGrow = false;
  mergeAll(trailing);
  return result;
}

AxisRefAttr BasicFactorPropagation::prefixWithoutConflictAcrossFactors(
    AxisRefAttr axis, const TensorFactorShardings &tensor, int64_t factor) {
  for (auto [other, sharding] : llvm::enumerate(tensor.factors)) {
    if (!axis)
      return {};
    if (static_cast<int64_t>(other) == factor || !sharding.isMapped)
      continue;
    axis = prefixAvoiding(axis, sharding.overflowAxes);
    if (axis)
      axis = prefixAvoiding(axis, sharding.axes);
  }
  return axis;
}

AxisRefAttr BasicFactorPropagation::prefixWithoutConflictWithinFactor(
    AxisRefAttr axis, const TensorFactorShardings &tensor, int64_t factor,
    int64_t shardedBefore, const FactorPropagationParams &params) {
  axis = prefixAvoiding(axis, tensor.replicatedAxes);
  if (axis)
    axis = prefixAvoiding(axis, tensor.unreducedAxes);
  if (!axis)
    return {};
  const FactorSharding &sharding = tensor.factors[factor];
  // Already there: nothing to add.
  if (llvm::any_of(sharding.axes,
                   [&](AxisRefAttr have) { return contains(have, axis); }))
    return axis;
  if (!sharding.isClosed && sharding.overflowAxes.empty()) {
    // The minor-most factor of a dimension may be unevenly sharded (its last
    // shard is padded), unless propagation is conservative.
    if (sharding.isMinorMost && !params.conservative)
      return axis;
    int64_t factorSize = params.factorSizes[factor];
    if (shardedBefore > 0 && factorSize % shardedBefore == 0) {
      int64_t size = axisSize(axis, params.mesh);
      int64_t common = std::gcd(factorSize / shardedBefore, size);
      if (common == size)
        return axis;
      if (common != 1)
        return makeAxisRef(axis.getContext(), axis.getName(),
                           axis.getPreSize(), common, params.mesh);
    }
  }
  // The tensor cannot take `axis`; it keeps its last axis if that is a
  // prefix of `axis` (its earlier axes match the candidate list).
  if (!sharding.axes.empty() && isPrefixOf(sharding.axes.back(), axis))
    return sharding.axes.back();
  return {};
}

void BasicFactorPropagation::truncate(
    AxisList &axes, function_ref<AxisRefAttr(AxisRefAttr, int64_t)> fix,
    const FactorPropagationParams &params) {
  int64_t shardedBefore = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    AxisRefAttr kept = fix(axes[i], shardedBefore);
    if (!kept || (params.conservative && kept.isSubAxis())) {
      axes.truncate(i);
      return;
    }
    if (kept != axes[i]) {
      axes[i] = kept;
      axes.truncate(i + 1);
      return;
    }
    shardedBefore *= axisSize(kept, params.mesh);
  }
}

UpdatedTensors
BasicFactorPropagation::propagate(ShardingProjection &projection,
                                  DirectionOfFactor direction,
                                  const FactorPropagationParams &params) const {
  UpdatedTensors updated(projection.getNumOperands(),
                         projection.getNumResults());
  for (int64_t factor = 0, e = params.factorSizes.size(); factor < e;
       ++factor) {
    AxisList axes =
        compatibleMajorAxes(projection, factor, direction(factor));
    truncate(
        axes,
        [&](AxisRefAttr axis, int64_t shardedBefore) -> AxisRefAttr {
          for (const TensorFactorShardings &tensor : projection.getTensors()) {
            axis = prefixWithoutConflictAcrossFactors(axis, tensor, factor);
            if (axis && tensor.find(factor))
              axis = prefixWithoutConflictWithinFactor(
                  axis, tensor, factor, shardedBefore, params);
            if (!axis)
              return {};
          }
          return axis;
        },
        params);
    UpdatedTensors step = projection.expandAll(factor, axes);
    updated.operands |= step.operands;
    updated.results |= step.results;
  }
  return updated;
}
