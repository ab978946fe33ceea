//===- UserPriorityPropagate.cpp - sdy-user-priority-propagate ------------===//

#include "PropagationPass.h"

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardableValues.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"

#include <set>

namespace mlir::sdy {
#define GEN_PASS_DEF_USERPRIORITYPROPAGATIONPASS
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {
/// A sharding the user wrote: on a value, or on a function result.
struct ShardingRef {
  Value value;
  mutable FunctionOpInterface func;
  int64_t resultIndex = -1;

  TensorShardingAttr get() const {
    if (func)
      return func.getResultAttrOfType<TensorShardingAttr>(resultIndex,
                                                          kShardingAttr);
    return getValueSharding(value);
  }
  void set(TensorShardingAttr sharding) const {
    if (func)
      func.setResultAttr(resultIndex, kShardingAttr, sharding);
    else
      setValueSharding(value, sharding);
  }
};

/// A reference and the sharding the user wrote on it.
struct OriginalSharding {
  ShardingRef ref;
  TensorShardingAttr sharding;
};
} // namespace

static int64_t priorityOf(DimensionShardingAttr dim) {
  return dim.getPriority().value_or(0);
}

/// Every sharding the user can have written a priority on: function
/// arguments and results, sharding constraints, data-flow edges, and the
/// results of other ops (unless a data-flow edge holds them). The in/out
/// shardings of manual and named computations are left alone, as Shardy
/// does.
static SmallVector<ShardingRef> collectShardings(ModuleOp module) {
  SmallVector<ShardingRef> refs;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal())
      continue;
    for (BlockArgument arg : func.getArguments())
      refs.push_back({arg, {}, -1});
    for (int64_t i = 0, e = func.getNumResults(); i < e; ++i)
      refs.push_back({Value(), func, i});
  }
  module.walk([&](Operation *op) {
    if (isa<ShardingConstraintOp, DataFlowEdgeOp>(op)) {
      refs.push_back({op->getResult(0), {}, -1});
      return;
    }
    if (isa<ManualComputationOp, NamedComputationOp>(op) ||
        !op->hasAttr(kShardingAttr))
      return;
    for (OpResult result : op->getResults())
      if (!lookupEdgeOp(result))
        refs.push_back({result, {}, -1});
  });
  return refs;
}

/// `sharding` for the first iteration: dimensions of priority 0 (or none)
/// lose their priority, the others become closed and empty, their axes
/// explicitly replicated.
static TensorShardingAttr initialSharding(TensorShardingAttr sharding,
                                          MeshAttr mesh) {
  MLIRContext *ctx = sharding.getContext();
  SmallVector<DimensionShardingAttr> dims;
  SmallVector<AxisRefAttr> replicated(sharding.getReplicatedAxes());
  for (DimensionShardingAttr dim : sharding.getDimShardings()) {
    if (priorityOf(dim) == 0) {
      dims.push_back(DimensionShardingAttr::get(ctx, dim.getAxes(),
                                                dim.getIsClosed(),
                                                std::nullopt));
      continue;
    }
    llvm::append_range(replicated, dim.getAxes());
    dims.push_back(DimensionShardingAttr::get(ctx, {}, /*isClosed=*/true,
                                              std::nullopt));
  }
  llvm::sort(replicated, getMeshComparator(mesh));
  return TensorShardingAttr::get(ctx, sharding.getMeshOrRef(), dims,
                                 replicated, sharding.getUnreducedAxes());
}

/// `current` with the dimensions of priority `priority` in `original` given
/// back their axes (no longer replicated).
static TensorShardingAttr releasePriority(TensorShardingAttr current,
                                          TensorShardingAttr original,
                                          int64_t priority) {
  if (!current || current.getRank() != original.getRank())
    return current;
  MLIRContext *ctx = current.getContext();
  SmallVector<DimensionShardingAttr> dims(current.getDimShardings());
  SmallVector<AxisRefAttr> released;
  for (auto [dim, originalDim] :
       llvm::zip(dims, original.getDimShardings())) {
    if (priorityOf(originalDim) != priority)
      continue;
    dim = DimensionShardingAttr::get(ctx, originalDim.getAxes(),
                                     originalDim.getIsClosed(), std::nullopt);
    llvm::append_range(released, originalDim.getAxes());
  }
  SmallVector<AxisRefAttr> replicated;
  for (AxisRefAttr axis : current.getReplicatedAxes())
    if (!llvm::is_contained(released, axis))
      replicated.push_back(axis);
  return TensorShardingAttr::get(ctx, current.getMeshOrRef(), dims,
                                 replicated, current.getUnreducedAxes());
}

static LogicalResult propagateByUserPriority(Propagator &propagator,
                                             PropagationStrategy strategy,
                                             bool runOpPriority) {
  std::map<int64_t, SmallVector<OriginalSharding>> byPriority;
  for (const ShardingRef &ref : collectShardings(propagator.getModule())) {
    TensorShardingAttr sharding = ref.get();
    if (!sharding)
      continue;
    std::set<int64_t> priorities;
    bool anyPriority = false;
    for (DimensionShardingAttr dim : sharding.getDimShardings()) {
      anyPriority |= dim.getPriority().has_value();
      if (priorityOf(dim) > 0)
        priorities.insert(priorityOf(dim));
    }
    if (!anyPriority)
      continue;
    for (int64_t priority : priorities)
      byPriority[priority].push_back({ref, sharding});
    ref.set(initialSharding(sharding,
                            propagator.getMesh(sharding.getMeshOrRef())));
  }
  if (failed(propagateByOpPriority(propagator, strategy, runOpPriority,
                                   propagateAny)))
    return failure();
  int64_t previous = 0;
  for (auto &[priority, originals] : byPriority) {
    propagator.dumpModule("propagation_after_user_priority_" +
                          std::to_string(previous));
    for (const OriginalSharding &original : originals)
      original.ref.set(
          releasePriority(original.ref.get(), original.sharding, priority));
    if (failed(propagateByOpPriority(propagator, strategy, runOpPriority,
                                     propagateAny)))
      return failure();
    previous = priority;
  }
  propagator.dumpModule("propagation_after_user_priority_" +
                        std::to_string(previous));
  return success();
}

namespace {
struct UserPriorityPropagationPass
    : PropagationPass<
          ::mlir::sdy::impl::UserPriorityPropagationPassBase<UserPriorityPropagationPass>> {
  using PropagationPass::PropagationPass;

  void runOnOperation() override {
    runPropagation([&](Propagator &propagator) {
      return propagateByUserPriority(propagator, propagationStrategy,
                                     runOpPriorityPropagation);
    });
  }
};
} // namespace
