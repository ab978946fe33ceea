//===- InitMeshsdy.cpp - register everything meshsdy provides -------------===//

#include "meshsdy/InitMeshsdy.h"

#include "meshsdy/Conversion/Passes.h"
#include "meshsdy/Dialect/Mesh/IR/MeshDialect.h"
#include "meshsdy/Dialect/Sdy/IR/SdyDialect.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::meshsdy::registerAllDialects(DialectRegistry &registry) {
  registry.insert<mesh::MeshDialect, sdy::SdyDialect>();
}

void mlir::meshsdy::registerAllPasses() {
  // The Python module and mesh-opt may both ask; the registry must see each
  // pass once.
  static bool registered = [] {
    registerMeshsdyConversionPasses();
    return true;
  }();
  (void)registered;
}
