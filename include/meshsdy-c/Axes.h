/*===- Axes.h - C API for the sdy axis algebra on axis lists ------*- C -*-===*/
/*
 * What the axis algebra of meshsdy/Dialect/Sdy/IR/AxisRefs.h offers on lists
 * of axis refs rather than on a sharding attribute. The predicates on single
 * refs (overlaps, merge, ...) are in SdyAttributes.h.
 */

#ifndef MESHSDY_C_AXES_H
#define MESHSDY_C_AXES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Writes into `localShape` (`rank` entries) the per-device shape of a tensor
/// of `globalShape` whose dimension `i < nDims` is split over the
/// `dimSizes[i]` axis refs (AxisRefAttr) that follow one another in `axes`,
/// on `mesh` (a MeshAttr): each dimension divided by the product of its
/// axes' sizes, rounded up; dynamic sizes (negative) stay. False, and nothing
/// written, if an element of `axes` is not an AxisRefAttr or `mesh` is not a
/// MeshAttr.
MLIR_CAPI_EXPORTED bool mlirSdyGetLocalShapeOfAxes(
    intptr_t rank, const int64_t *globalShape, intptr_t nDims,
    const intptr_t *dimSizes, const MlirAttribute *axes, MlirAttribute mesh,
    int64_t *localShape);

#ifdef __cplusplus
}
#endif

#endif /* MESHSDY_C_AXES_H */
