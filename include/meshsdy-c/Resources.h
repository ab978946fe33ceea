/*===- Resources.h - C API for reading dense_resource blobs -------*- C -*-===*/
/*
 * `dense_resource<key>` elements attributes keep their data in a blob owned
 * by the context (printed in the module's `{-# dialect_resources #-}`
 * section). Upstream's C API builds such attributes and reads them one
 * element at a time; these read the whole blob, and tell whether it is
 * there at all: a module printed with its large blobs elided parses into
 * attributes whose key has no data.
 */

#ifndef MESHSDY_C_RESOURCES_H
#define MESHSDY_C_RESOURCES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Whether `attr` is a `dense_resource<...>` elements attribute.
MLIR_CAPI_EXPORTED bool
mlirMeshsdyAttributeIsADenseResourceElements(MlirAttribute attr);

/// The resource key of a `dense_resource<key>` attribute (`attr` must be
/// one). The string lives as long as the context.
MLIR_CAPI_EXPORTED MlirStringRef
mlirMeshsdyDenseResourceElementsAttrGetKey(MlirAttribute attr);

/// Sets `*data` to the bytes of the blob of a `dense_resource` attribute
/// (`attr` must be one) and returns true; returns false, leaving `*data`
/// alone, when the key has no blob (elided or never given). The bytes live
/// as long as the blob.
MLIR_CAPI_EXPORTED bool
mlirMeshsdyDenseResourceElementsAttrGetBlob(MlirAttribute attr,
                                            MlirStringRef *data);

#ifdef __cplusplus
}
#endif

#endif /* MESHSDY_C_RESOURCES_H */
