//===- Pipelines.cpp - the SPMD partitioning pipeline ---------------------===//

#include "meshsdy/Dialect/Mesh/Transforms/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::mesh;

static StringRef traversalName(TraversalOrder order) {
  switch (order) {
  case TraversalOrder::Forward:
    return "forward";
  case TraversalOrder::Backward:
    return "backward";
  case TraversalOrder::ForwardBackward:
    return "forward-backward";
  case TraversalOrder::BackwardForward:
    return "backward-forward";
  }
  return "forward-backward";
}

std::string
mlir::mesh::getSpmdizePipelineText(const SpmdizePipelineOptions &options) {
  std::string text = "mesh-module-sharding-propagation{traversal=" +
                     traversalName(options.traversal).str() +
                     (options.debugShardingOrigins
                          ? " debug-sharding-origins=true"
                          : "") +
                     "},func.func(mesh-spmdization),canonicalize,cse";
  if (options.lowerTo == SpmdizeLowering::Mesh)
    text += ",func.func(mesh-simplify),func.func(mesh-lower-all-slice),"
            "func.func(mesh-lower-process-index),canonicalize,cse";
  if (options.lowerTo == SpmdizeLowering::MPI)
    text += ",func.func(mesh-simplify),convert-mesh-to-mpi,canonicalize,cse";
  return text;
}

void mlir::mesh::registerSpmdizePipeline() {
  PassPipelineRegistration<SpmdizePipelineOptions>(
      "mesh-spmdize-pipeline",
      "Propagate shardings and partition every function into its "
      "per-device form (mesh-module-sharding-propagation, mesh-spmdization, "
      "cleanups, optional lowerings)",
      [](OpPassManager &pm, const SpmdizePipelineOptions &options) {
        // The text only names registered passes with valid options.
        (void)parsePassPipeline(getSpmdizePipelineText(options), pm);
      });
}
