//===- CloseShardings.cpp - nothing extends a sharding after propagation --===//

#include "meshsdy/Dialect/Sdy/Transforms/Common/ModuleShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_CLOSESHARDINGSPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct CloseShardingsPass
    : sdy::impl::CloseShardingsPassBase<CloseShardingsPass> {
  void runOnOperation() override {
    bool changed = rewriteShardings(getOperation(), [](TensorShardingAttr sharding) {
      MLIRContext *ctx = sharding.getContext();
      SmallVector<DimensionShardingAttr> dims;
      for (DimensionShardingAttr dim : sharding.getDimShardings())
        dims.push_back(DimensionShardingAttr::get(
            ctx, dim.getAxes(), /*is_closed=*/true,
            dim.emptyAxes() ? std::nullopt : dim.getPriority()));
      return TensorShardingAttr::get(ctx, sharding.getMeshOrRef(), dims,
                                     /*replicated_axes=*/{},
                                     sharding.getUnreducedAxes());
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
