/*===- MeshAttributes.h - C API for mesh attributes and types ----*- C -*-===*/
/*
 * The `mesh` dialect's attributes (#mesh.axisarray, #mesh.partial), the
 * !mesh.sharding type, and entry points into the C++ group / sharding API
 * (meshsdy/Dialect/Mesh/IR/MeshGroups.h, MeshSharding.h).
 *
 * Builders return a null attribute (check with mlirAttributeIsNull) when the
 * arguments are invalid; the reason is reported as an error diagnostic on the
 * context. Getters expect an attribute of the right kind (check with the
 * IsA functions first).
 */

#ifndef MESHSDY_C_MESHATTRIBUTES_H
#define MESHSDY_C_MESHATTRIBUTES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*---- MeshAxesArrayAttr: #mesh.axisarray<[[0], [1, 2], []]> ---------------*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsAMeshAxesArrayAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirTypeID mlirMeshAxesArrayAttrGetTypeID(void);
/// `nDims` sub-arrays; sub-array `i` has `dimSizes[i]` axes, stored one after
/// the other in `axes`. Null (with a diagnostic) if `nDims` is 0.
MLIR_CAPI_EXPORTED MlirAttribute mlirMeshAxesArrayAttrGet(
    MlirContext ctx, intptr_t nDims, const intptr_t *dimSizes,
    const int16_t *axes);
MLIR_CAPI_EXPORTED intptr_t mlirMeshAxesArrayAttrGetNumDims(MlirAttribute attr);
/// Number of mesh axes of sub-array `dim`.
MLIR_CAPI_EXPORTED intptr_t mlirMeshAxesArrayAttrGetDimSize(MlirAttribute attr,
                                                            intptr_t dim);
MLIR_CAPI_EXPORTED int16_t mlirMeshAxesArrayAttrGetAxis(MlirAttribute attr,
                                                        intptr_t dim,
                                                        intptr_t pos);

/*---- ReductionKindAttr: #mesh.partial<sum> -------------------------------*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsAMeshReductionKindAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirTypeID mlirMeshReductionKindAttrGetTypeID(void);
/// `kind` is a ReductionKind value (sum = 1, ..., bitwise_xor = 8,
/// generic = 100); null with a diagnostic for any other value.
MLIR_CAPI_EXPORTED MlirAttribute mlirMeshReductionKindAttrGet(MlirContext ctx,
                                                              int32_t kind);
MLIR_CAPI_EXPORTED int32_t mlirMeshReductionKindAttrGetValue(MlirAttribute attr);

/*---- ShardingType: !mesh.sharding -----------------------------------------*/

MLIR_CAPI_EXPORTED bool mlirTypeIsAMeshShardingType(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID mlirMeshShardingTypeGetTypeID(void);
MLIR_CAPI_EXPORTED MlirType mlirMeshShardingTypeGet(MlirContext ctx);

/*---- Group and sharding arithmetic (C++ API) ------------------------------*/

/// Product of the sizes of `meshAxes` in `meshShape`; ShapedType's dynamic
/// size value if one is dynamic or out of range.
MLIR_CAPI_EXPORTED int64_t mlirMeshCollectiveProcessGroupSize(
    intptr_t nAxes, const int16_t *meshAxes, intptr_t rank,
    const int64_t *meshShape);

/// Position of `device` in its group (row-major over `meshAxes`).
MLIR_CAPI_EXPORTED int64_t mlirMeshInGroupIndex(intptr_t rank,
                                                const int64_t *device,
                                                const int64_t *meshShape,
                                                intptr_t nAxes,
                                                const int16_t *meshAxes);

/// Whether two `mesh.sharding` ops define the same sharding (trailing empty
/// split axes ignored). False if either op is not a `mesh.sharding`.
MLIR_CAPI_EXPORTED bool mlirMeshShardingOpsEqual(MlirOperation lhs,
                                                 MlirOperation rhs);

/// Writes into `result` (`rank` entries) the shape of the shard that the
/// device at multi-index `device` (`meshRank` entries, on a mesh of shape
/// `meshShape`) holds of a tensor of shape `globalShape` distributed by the
/// `mesh.sharding` op `sharding`. Returns false if `sharding` is not a
/// `mesh.sharding` op or the arguments do not fit each other.
MLIR_CAPI_EXPORTED bool mlirMeshShardShapeForDevice(
    MlirOperation sharding, intptr_t rank, const int64_t *globalShape,
    intptr_t meshRank, const int64_t *meshShape, const int64_t *device,
    int64_t *result);

/// Writes into `result` (`rank` entries) the shard shape every device holds
/// when all shards are equal (dimensions that differ between devices, or are
/// unknown, get the dynamic-size value). Returns false if `sharding` is not
/// a `mesh.sharding` op.
MLIR_CAPI_EXPORTED bool mlirMeshShardShape(MlirOperation sharding,
                                           intptr_t rank,
                                           const int64_t *globalShape,
                                           intptr_t meshRank,
                                           const int64_t *meshShape,
                                           int64_t *result);

/// Writes into `result` the coordinates of `device` (`rank` entries) on the
/// axes not in `meshAxes` and returns how many were written.
MLIR_CAPI_EXPORTED intptr_t mlirMeshGroupIndex(intptr_t rank,
                                               const int64_t *device,
                                               intptr_t nAxes,
                                               const int16_t *meshAxes,
                                               int64_t *result);

/// Writes into `result` (`rank` entries) the device of `device`'s group whose
/// coordinates on `meshAxes` are `inGroup` (`nAxes` entries). Returns false
/// if an axis is out of range.
MLIR_CAPI_EXPORTED bool mlirMeshInGroupDevice(intptr_t rank,
                                              const int64_t *device,
                                              intptr_t nAxes,
                                              const int64_t *inGroup,
                                              const int16_t *meshAxes,
                                              int64_t *result);

#ifdef __cplusplus
}
#endif

#endif /* MESHSDY_C_MESHATTRIBUTES_H */
