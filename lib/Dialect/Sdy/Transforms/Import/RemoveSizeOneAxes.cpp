//===- RemoveSizeOneAxes.cpp - axes of size one shard nothing -------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Common/ModuleShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVESIZEONEAXESPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct RemoveSizeOneAxesPass
    : sdy::impl::RemoveSizeOneAxesPassBase<RemoveSizeOneAxesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshTable meshes(module);

    bool changed = false;
    // Manual axes first: the mesh of a manual computation is the one of its
    // shardings, which keep their mesh reference below.
    module.walk([&](ManualComputationOp op) {
      TensorShardingAttr any;
      for (TensorShardingAttr sharding :
           llvm::concat<const TensorShardingAttr>(
               op.getInShardings().getShardings(),
               op.getOutShardings().getShardings()))
        any = any ? any : sharding;
      MeshAttr mesh = meshes.lookup(any);
      if (!mesh)
        return;
      SmallVector<StringAttr> kept;
      for (StringAttr axis : op.getManualAxes().getValue())
        if (!mesh.getAxis(axis.getValue()) ||
            mesh.getAxis(axis.getValue()).getSize() != 1)
          kept.push_back(axis);
      if (kept.size() != op.getManualAxes().size()) {
        op.setManualAxesAttr(ManualAxesAttr::get(op.getContext(), kept));
        changed = true;
      }
    });

    changed |= rewriteShardings(module, [&](TensorShardingAttr sharding) {
      MeshAttr mesh = meshes.lookup(sharding);
      if (!mesh)
        return sharding;
      return filterAxes(sharding, [&](AxisRefAttr axis) {
        return axis.getSize(mesh) != 1;
      });
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
