//===- AggressiveFactorPropagation.cpp - resolve conflicts per tensor -----===//

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/FactorPropagation.h"
#include "llvm/ADT/STLExtras.h"

#include <tuple>

using namespace mlir;
using namespace mlir::sdy;

namespace {
/// The tensor a factor's candidate axes come from: the largest tensor whose
/// axes for the factor are a prefix of them.
struct Source {
  int64_t index = -1;
  int64_t size = -1;
};
} // namespace

static SmallVector<Source>
findSources(const ShardingProjection &projection,
            ArrayRef<AxisList> candidates,
            const FactorPropagationParams &params) {
  SmallVector<Source> sources(candidates.size());
  for (auto [index, tensor] : llvm::enumerate(projection.getTensors())) {
    int64_t size = 1;
    for (auto [factor, sharding] : llvm::enumerate(tensor.factors))
      if (sharding.isMapped)
        size *= params.factorSizes[factor];
    for (auto [factor, sharding] : llvm::enumerate(tensor.factors)) {
      if (!sharding.isMapped || candidates[factor].empty() ||
          comparePrefix(candidates[factor], sharding.axes) ==
              PrefixKind::NotPrefix)
        continue;
      if (size > sources[factor].size)
        sources[factor] = {static_cast<int64_t>(index), size};
    }
  }
  return sources;
}

/// The axes `tensor` gets for `factor` out of `candidate` (empty if none).
static AxisList axesForTensor(int64_t factor, const TensorFactorShardings &tensor,
                              const AxisList &candidate,
                              const FactorPropagationParams &params) {
  const FactorSharding *sharding = tensor.find(factor);
  if (!sharding)
    return {};
  AxisList axes = candidate;
  BasicFactorPropagation::truncate(
      axes,
      [&](AxisRefAttr axis, int64_t shardedBefore) {
        return BasicFactorPropagation::prefixWithoutConflictWithinFactor(
            axis, tensor, factor, shardedBefore, params);
      },
      params);
  if (comparePrefix(sharding->axes, axes) != PrefixKind::StrictPrefix)
    return {};
  // Checked against the tensor as updated for the factors preferred before
  // this one.
  BasicFactorPropagation::truncate(
      axes,
      [&](AxisRefAttr axis, int64_t) {
        return BasicFactorPropagation::prefixWithoutConflictAcrossFactors(
            axis, tensor, factor);
      },
      params);
  return axes;
}

UpdatedTensors AggressiveFactorPropagation::propagate(
    ShardingProjection &projection, DirectionOfFactor direction,
    const FactorPropagationParams &params) const {
  UpdatedTensors updated(projection.getNumOperands(),
                         projection.getNumResults());
  int64_t numFactors = params.factorSizes.size();
  SmallVector<AxisList> candidates;
  candidates.reserve(numFactors);
  for (int64_t factor = 0; factor < numFactors; ++factor)
    candidates.push_back(BasicFactorPropagation::compatibleMajorAxes(
        projection, factor, direction(factor)));
  if (llvm::all_of(candidates, [](const AxisList &c) { return c.empty(); }))
    return updated;

  SmallVector<Source> sources = findSources(projection, candidates, params);
  SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(0, numFactors));
  auto key = [&](int64_t factor) {
    int64_t sharded = params.elementwise
                          ? getTotalSize(candidates[factor], params.mesh)
                          : 0;
    return std::make_tuple(-sources[factor].size, -sharded,
                           sources[factor].index, factor);
  };
  llvm::sort(order, [&](int64_t a, int64_t b) { return key(a) < key(b); });

  int64_t numOperands = projection.getNumOperands();
  // Results first, then operands.
  auto visit = [&](int64_t tensorIndex, bool isOperand) {
    TensorFactorShardings &tensor = projection.getTensor(tensorIndex);
    bool changed = false;
    for (int64_t factor : order) {
      AxisList axes = axesForTensor(factor, tensor, candidates[factor], params);
      if (axes.empty())
        continue;
      // An elementwise op's operands only get what a result of the op has
      // (sideways propagation between operands would shard an operand the
      // result does not want sharded).
      if (isOperand && params.elementwise) {
        for (const TensorFactorShardings &result : projection.getResults()) {
          const FactorSharding *resultSharding = result.find(factor);
          if (resultSharding &&
              comparePrefix(resultSharding->axes, axes) ==
                  PrefixKind::StrictPrefix)
            axes = resultSharding->axes;
        }
      }
      changed |= tensor.expand(factor, axes);
    }
    return changed;
  };
  for (int64_t i = 0, e = projection.getNumResults(); i < e; ++i)
    if (visit(numOperands + i, /*isOperand=*/false))
      updated.results.set(i);
  for (int64_t i = 0; i < numOperands; ++i)
    if (visit(i, /*isOperand=*/true))
      updated.operands.set(i);
  return updated;
}
