//===- ManualAxesCleanup.cpp - every sharding says how it uses manual axes ===//

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/Transforms/Common/ModuleShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_MANUALAXESCLEANUPPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// Whether `sharding` uses axis `name` (whole or a sub-axis of it).
bool usesAxis(TensorShardingAttr sharding, StringRef name) {
  auto named = [&](AxisRefAttr axis) { return axis.getName() == name; };
  for (DimensionShardingAttr dim : sharding.getDimShardings())
    if (llvm::any_of(dim.getAxes(), named))
      return true;
  return llvm::any_of(sharding.getReplicatedAxes(), named) ||
         llvm::any_of(sharding.getUnreducedAxes(), named);
}

/// `sharding` with the manual axes it doesn't use made replicated.
TensorShardingAttr replicateUnusedManualAxes(TensorShardingAttr sharding,
                                             ArrayRef<StringAttr> manualAxes,
                                             MeshAttr mesh) {
  MLIRContext *ctx = sharding.getContext();
  SmallVector<AxisRefAttr> replicated(sharding.getReplicatedAxes());
  for (StringAttr axis : manualAxes)
    if (!usesAxis(sharding, axis.getValue()))
      replicated.push_back(
          AxisRefAttr::get(ctx, axis.getValue(), SubAxisInfoAttr()));
  if (replicated.size() == sharding.getReplicatedAxes().size())
    return sharding;
  llvm::sort(replicated, getMeshComparator(mesh));
  return TensorShardingAttr::get(ctx, sharding.getMeshOrRef(),
                                 sharding.getDimShardings(), replicated,
                                 sharding.getUnreducedAxes());
}

struct ManualAxesCleanupPass
    : sdy::impl::ManualAxesCleanupPassBase<ManualAxesCleanupPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshTable meshes(module);
    MLIRContext *ctx = module.getContext();
    bool changed = false;
    WalkResult result = module.walk([&](ManualComputationOp op) {
      if (op.getNumOperands() == 0 && op.getNumResults() == 0 &&
          !llvm::hasSingleElement(op.getBody().front())) {
        op.emitOpError("has no inputs or outputs but a non-empty body: "
                       "nothing tells its devices apart");
        return WalkResult::interrupt();
      }
      auto in = op.getInShardings().getShardings();
      auto out = op.getOutShardings().getShardings();
      MeshAttr mesh = meshes.lookup(!in.empty() ? in.front()
                                    : !out.empty() ? out.front()
                                                   : TensorShardingAttr());
      if (!mesh)
        return WalkResult::advance();
      SmallVector<StringAttr> manual(op.getManualAxes().getValue());
      auto position = [&](StringAttr name) {
        return llvm::find_if(mesh.getAxes(),
                             [&](MeshAxisAttr axis) {
                               return axis.getName() == name.getValue();
                             }) -
               mesh.getAxes().begin();
      };
      llvm::stable_sort(manual, [&](StringAttr a, StringAttr b) {
        return position(a) < position(b);
      });
      changed = true;
      op.setManualAxesAttr(ManualAxesAttr::get(ctx, manual));
      auto update = [&](ArrayRef<TensorShardingAttr> shardings) {
        SmallVector<TensorShardingAttr> updated;
        for (TensorShardingAttr sharding : shardings)
          updated.push_back(replicateUnusedManualAxes(sharding, manual, mesh));
        return TensorShardingPerValueAttr::get(ctx, updated);
      };
      op.setInShardingsAttr(update(in));
      op.setOutShardingsAttr(update(out));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
