//===- RemoveSubAxesInInputOutputShardings.cpp - whole axes at the boundary ===//

#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVESUBAXESININPUTOUTPUTSHARDINGSPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// `sharding` with each open dimension cut before its first sub-axis.
TensorShardingAttr removeSubAxes(TensorShardingAttr sharding) {
  if (!sharding)
    return sharding;
  MLIRContext *ctx = sharding.getContext();
  SmallVector<DimensionShardingAttr> dims;
  for (DimensionShardingAttr dim : sharding.getDimShardings()) {
    if (dim.getIsClosed()) {
      dims.push_back(dim);
      continue;
    }
    auto firstSub = llvm::find_if(
        dim.getAxes(), [](AxisRefAttr axis) { return axis.isSubAxis(); });
    dims.push_back(DimensionShardingAttr::get(
        ctx, ArrayRef<AxisRefAttr>(dim.getAxes().begin(), firstSub),
        /*is_closed=*/false, dim.getPriority()));
  }
  return TensorShardingAttr::get(ctx, sharding.getMeshOrRef(), dims,
                                 sharding.getReplicatedAxes(),
                                 sharding.getUnreducedAxes());
}

struct RemoveSubAxesInInputOutputShardingsPass
    : sdy::impl::RemoveSubAxesInInputOutputShardingsPassBase<
          RemoveSubAxesInInputOutputShardingsPass> {
  void runOnOperation() override {
    bool changed = false;
    auto update = [&](TensorShardingAttr sharding) {
      TensorShardingAttr updated = removeSubAxes(sharding);
      changed |= updated != sharding;
      return updated;
    };
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic())
        continue;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (auto s = func.getArgAttrOfType<TensorShardingAttr>(i, kShardingAttr))
          func.setArgAttr(i, kShardingAttr, update(s));
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
        if (auto s =
                func.getResultAttrOfType<TensorShardingAttr>(i, kShardingAttr))
          func.setResultAttr(i, kShardingAttr, update(s));
    }
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
