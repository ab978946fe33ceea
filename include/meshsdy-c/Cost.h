/*===- Cost.h - C API for meshsdy's cost model --------------------*- C -*-===*/
/*
 * The cost model of meshsdy/Dialect/Mesh/Transforms/CostModel.h: bytes each
 * device sends in a mesh collective, and the per-device peak of live tensor
 * bytes of a function. None of these functions asserts: an operation or a
 * type of another kind gives false or -1.
 */

#ifndef MESHSDY_C_COST_H
#define MESHSDY_C_COST_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether the model prices `op`: a mesh collective with a ring factor or
/// `mesh.update_halo`.
MLIR_CAPI_EXPORTED bool mlirMeshCostIsPricedCollective(MlirOperation op);

/// Writes into `factor` what one device sends per operand byte in the
/// collective `name` on `groupSize` devices (ring algorithms). False if
/// `name` is no such collective.
MLIR_CAPI_EXPORTED bool mlirMeshCostRingFactor(MlirStringRef name,
                                               int64_t groupSize,
                                               double *factor);

/// Writes into `bytes` what one device sends in the priced collective `op`,
/// its first operand having the shape `operandShape` (`rank` sizes), or its
/// type's shape if `operandShape` is null. False where a size is unknown
/// (see collectiveBytesSent) or `op` is not priced.
MLIR_CAPI_EXPORTED bool mlirMeshCostCollectiveBytesSent(
    MlirOperation op, intptr_t rank, const int64_t *operandShape,
    double *bytes);

/// Bytes of a statically shaped ranked tensor type; -1 for any other type.
MLIR_CAPI_EXPORTED int64_t mlirMeshCostTensorBytes(MlirType type);

/// The per-device peak of live tensor bytes of the `func.func` `op` (0 if it
/// has no body); -1 if `op` is not a `func.func`.
MLIR_CAPI_EXPORTED int64_t mlirMeshCostPeakLiveTensorBytes(MlirOperation op);

#ifdef __cplusplus
}
#endif

#endif /* MESHSDY_C_COST_H */
