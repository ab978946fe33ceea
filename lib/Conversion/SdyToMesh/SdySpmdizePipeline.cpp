//===- SdySpmdizePipeline.cpp - from sdy annotations to per-device code ---===//
//
// Shardy's propagation decides every sharding, explicit reshards make each
// op locally computable, the bridge turns both into mesh annotations, and the
// mesh pipeline partitions. The mesh propagation in it only fills in the
// operand annotations each op's model needs: every value is annotated.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/SdyToMesh/SdySpmdizePipeline.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

std::string mlir::meshsdy::getSdySpmdizePipelineText(
    const mesh::SpmdizePipelineOptions &options) {
  return "sdy-propagation-pipeline,func.func(sdy-insert-explicit-reshards),"
         "func.func(sdy-reshard-to-collectives),"
         "convert-sdy-to-mesh," +
         mesh::getSpmdizePipelineText(options);
}

void mlir::meshsdy::registerSdySpmdizePipeline() {
  PassPipelineRegistration<mesh::SpmdizePipelineOptions>(
      "sdy-spmdize-pipeline",
      "Partition an sdy-annotated program into its per-device form "
      "(sdy-propagation-pipeline, sdy-insert-explicit-reshards, "
      "sdy-reshard-to-collectives, "
      "convert-sdy-to-mesh, then mesh-spmdize-pipeline with the same options)",
      [](OpPassManager &pm, const mesh::SpmdizePipelineOptions &options) {
        // The text only names registered passes with valid options.
        (void)parsePassPipeline(getSdySpmdizePipelineText(options), pm);
      });
}
