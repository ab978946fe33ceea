//===- Dialects.cpp - C API for registering meshsdy -----------------------===//

#include "meshsdy-c/Dialects.h"

#include "meshsdy/Dialect/Mesh/IR/MeshDialect.h"
#include "meshsdy/Dialect/Sdy/IR/SdyDialect.h"
#include "meshsdy/InitMeshsdy.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Mesh, mesh, mlir::mesh::MeshDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Sdy, sdy, mlir::sdy::SdyDialect)

void mlirMeshsdyRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::meshsdy::registerAllDialects(*unwrap(registry));
}

void mlirMeshsdyRegisterAllPasses(void) { mlir::meshsdy::registerAllPasses(); }
