//===- StablehloCollectivesToMesh.cpp - collectives of shard_map bodies ---===//
//
// Inside an sdy.manual_computation every value is a device's own piece, and
// StableHLO's collectives combine the pieces of groups of devices named by
// their ids. The mesh dialect's collectives are the same operations on the
// same per-device values with the groups named by mesh axes, so each
// StableHLO collective becomes one mesh collective once its groups are
// found to be those of some manual axes (DeviceGroups.h).
//
// The StableHLO ops are unregistered here: nothing about them is verified.
// Every collective is first read into a Plan, checking everything the
// rewrite relies on; the module is only changed when all of them are fine.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/StablehloToMesh/StablehloToMesh.h"

#include "CollectivesToMesh.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::meshsdy {
#define GEN_PASS_DEF_CONVERTSTABLEHLOCOLLECTIVESTOMESHPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;

namespace {

struct ConvertStablehloCollectivesToMeshPass
    : meshsdy::impl::ConvertStablehloCollectivesToMeshPassBase<
          ConvertStablehloCollectivesToMeshPass> {
  void runOnOperation() override {
    meshsdy::CollectivesToMesh conversion(getOperation());
    if (failed(conversion.plan()))
      return signalPassFailure();
    conversion.rewrite();
  }
};

} // namespace
