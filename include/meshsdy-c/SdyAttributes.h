/*===- SdyAttributes.h - C API for sdy attributes -----------------*- C -*-===*/
/*
 * Builders return a null attribute (check with mlirAttributeIsNull) when the
 * arguments violate the attribute's constraints; the reason is reported as an
 * error diagnostic on the context.
 */

#ifndef MESHSDY_C_SDYATTRIBUTES_H
#define MESHSDY_C_SDYATTRIBUTES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/*---- MeshAxisAttr ---------------------------------------------------------*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsASdyMeshAxisAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirTypeID mlirSdyMeshAxisAttrGetTypeID(void);
/// Not checked on its own: a MeshAttr checks its axes (non-empty name,
/// positive size).
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyMeshAxisAttrGet(MlirContext ctx,
                                                        MlirStringRef name,
                                                        int64_t size);
MLIR_CAPI_EXPORTED MlirStringRef mlirSdyMeshAxisAttrGetName(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirSdyMeshAxisAttrGetSize(MlirAttribute attr);

/*---- MeshAttr -------------------------------------------------------------*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsASdyMeshAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirTypeID mlirSdyMeshAttrGetTypeID(void);
/// `axes` must hold MeshAxisAttr values; any other attribute yields null.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyMeshAttrGet(MlirContext ctx,
                                                    intptr_t nAxes,
                                                    const MlirAttribute *axes,
                                                    intptr_t nDeviceIds,
                                                    const int64_t *deviceIds);
MLIR_CAPI_EXPORTED intptr_t mlirSdyMeshAttrGetNumAxes(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyMeshAttrGetAxis(MlirAttribute attr,
                                                        intptr_t pos);
MLIR_CAPI_EXPORTED intptr_t mlirSdyMeshAttrGetNumDeviceIds(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirSdyMeshAttrGetDeviceId(MlirAttribute attr,
                                                      intptr_t pos);

#ifdef __cplusplus
}
#endif

#endif /* MESHSDY_C_SDYATTRIBUTES_H */
