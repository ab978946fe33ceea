//===- InitMeshsdy.cpp - register everything meshsdy provides -------------===//

#include "meshsdy/InitMeshsdy.h"

#include "meshsdy/Conversion/MeshToMPI/MeshToMPI.h"
#include "meshsdy/Conversion/Passes.h"
#include "meshsdy/Conversion/SpmdizePipelines.h"
#include "meshsdy/Dialect/Mesh/IR/MeshDialect.h"
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"
#include "meshsdy/Dialect/Sdy/IR/SdyDialect.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Pipelines.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h"
#include "meshsdy/Interfaces/ExternalModels.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::meshsdy::registerAllDialects(DialectRegistry &registry) {
  registry.insert<mesh::MeshDialect, sdy::SdyDialect>();
  registerShardingInterfaceExternalModels(registry);
  registerShardingRuleExternalModels(registry);
  registerScfDataFlowModels(registry);
  registerMPIMemoryEffectModels(registry);
}

void mlir::meshsdy::registerAllPasses() {
  // The Python module and mesh-opt may both ask; the registry must see each
  // pass once.
  static bool registered = [] {
    registerMeshsdyConversionPasses();
    mesh::registerMeshPasses();
    sdy::registerSdyImportPasses();
    sdy::registerSdyPropagationPasses();
    sdy::registerSdyExportPasses();
    sdy::registerSdyPipelines();
    meshsdy::registerSpmdizePipelines();
    return true;
  }();
  (void)registered;
}
