/*===- Groups.h - C API for the mesh device-group arithmetic ------*- C -*-===*/
/*
 * Seed 000's device groups, as meshsdy/Dialect/Mesh/IR/MeshGroups.h computes
 * them, over plain shapes: a mesh is its shape (`rank` sizes), a device its
 * multi-index (`rank` coordinates) or its row-major linear index. These
 * functions never assert: arguments that do not fit return false, -1 or the
 * dynamic-size value, as each says.
 */

#ifndef MESHSDY_C_GROUPS_H
#define MESHSDY_C_GROUPS_H

#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Row-major linear index of the device `multiIndex` on a mesh of shape
/// `shape` (both `rank` entries); ShapedType's dynamic-size value if a size
/// is dynamic or the index does not fit in 64 bits.
MLIR_CAPI_EXPORTED int64_t mlirMeshLinearIndex(intptr_t rank,
                                               const int64_t *multiIndex,
                                               const int64_t *shape);

/// Writes into `multiIndex` (`rank` entries) the device whose linear index
/// is `linear` on a mesh of shape `shape`. False if a size is not positive.
MLIR_CAPI_EXPORTED bool mlirMeshMultiIndex(int64_t linear, intptr_t rank,
                                           const int64_t *shape,
                                           int64_t *multiIndex);

/// Whether `meshAxes` (`nAxes` entries) are distinct axes of a mesh of
/// shape `shape` whose sizes are all static and positive.
MLIR_CAPI_EXPORTED bool mlirMeshAreValidGroupAxes(intptr_t rank,
                                                  const int64_t *shape,
                                                  intptr_t nAxes,
                                                  const int16_t *meshAxes);

/// Writes into `devices` every device group of a mesh of shape `shape` for
/// `meshAxes`: the groups one after the other, each in in-group order, as
/// linear indices. `devices` has room for `capacity` entries; returns the
/// number of devices of the mesh (nothing is written unless it is at most
/// `capacity`), or -1 unless mlirMeshAreValidGroupAxes holds.
MLIR_CAPI_EXPORTED int64_t mlirMeshDeviceGroups(intptr_t rank,
                                                const int64_t *shape,
                                                intptr_t nAxes,
                                                const int16_t *meshAxes,
                                                int64_t capacity,
                                                int64_t *devices);

#ifdef __cplusplus
}
#endif

#endif /* MESHSDY_C_GROUPS_H */
