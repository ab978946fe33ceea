/*===- Dialects.h - C API for registering meshsdy -----------------*- C -*-===*/

#ifndef MESHSDY_C_DIALECTS_H
#define MESHSDY_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Mesh, mesh);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Sdy, sdy);

/// Inserts every meshsdy dialect into `registry`.
MLIR_CAPI_EXPORTED void mlirMeshsdyRegisterAllDialects(MlirDialectRegistry registry);

/// Registers every meshsdy pass with the global pass registry. Idempotent.
MLIR_CAPI_EXPORTED void mlirMeshsdyRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* MESHSDY_C_DIALECTS_H */
