//===- SdyToMesh.cpp - sdy meshes to mesh.mesh ----------------------------===//

#include "meshsdy/Conversion/SdyToMesh/SdyToMesh.h"

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::meshsdy {
#define GEN_PASS_DEF_CONVERTSDYTOMESHPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;

namespace {

/// Returns true if `attr` is, or contains, an attribute of the sdy dialect.
bool usesSdyAttr(Attribute attr, Dialect *sdy) {
  bool found = false;
  attr.walk([&](Attribute nested) {
    if (&nested.getDialect() == sdy)
      found = true;
  });
  return found;
}

struct ConvertSdyToMeshPass
    : meshsdy::impl::ConvertSdyToMeshPassBase<ConvertSdyToMeshPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Dialect *sdy = getContext().getLoadedDialect<sdy::SdyDialect>();
    if (!sdy)
      return; // Nothing in the module can come from an unloaded dialect.

    // Check everything first so that a failure leaves the module untouched.
    SmallVector<sdy::MeshOp> meshes;
    WalkResult result = module.walk([&](Operation *op) {
      if (auto meshOp = dyn_cast<sdy::MeshOp>(op)) {
        sdy::MeshAttr mesh = meshOp.getMesh();
        if (mesh.getAxes().empty()) {
          meshOp.emitOpError("unsupported by convert-sdy-to-mesh: a mesh "
                             "without axes");
          return WalkResult::interrupt();
        }
        if (!mesh.getDeviceIds().empty()) {
          meshOp.emitOpError("unsupported by convert-sdy-to-mesh: explicit "
                             "device_ids");
          return WalkResult::interrupt();
        }
        meshes.push_back(meshOp);
        return WalkResult::advance();
      }
      if (op->getDialect() == sdy) {
        op->emitOpError("unsupported by convert-sdy-to-mesh: only sdy.mesh "
                        "is converted so far");
        return WalkResult::interrupt();
      }
      for (NamedAttribute named : op->getAttrs()) {
        if (usesSdyAttr(named.getValue(), sdy)) {
          op->emitOpError("unsupported by convert-sdy-to-mesh: sdy attribute '")
              << named.getName().getValue() << "'";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    OpBuilder builder(&getContext());
    for (sdy::MeshOp meshOp : meshes) {
      SmallVector<int64_t> shape;
      for (sdy::MeshAxisAttr axis : meshOp.getMesh().getAxes())
        shape.push_back(axis.getSize());
      builder.setInsertionPoint(meshOp);
      mesh::MeshOp::create(builder, meshOp.getLoc(), meshOp.getSymName(),
                           shape);
      meshOp.erase();
    }
  }
};

} // namespace
