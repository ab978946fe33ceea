//===- Axes.cpp - C API for the sdy axis algebra on axis lists -----------===//

#include "meshsdy-c/Axes.h"

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "mlir/CAPI/IR.h"

using namespace mlir;
using namespace mlir::sdy;

bool mlirSdyGetLocalShapeOfAxes(intptr_t rank, const int64_t *globalShape,
                                intptr_t nDims, const intptr_t *dimSizes,
                                const MlirAttribute *axes, MlirAttribute mesh,
                                int64_t *localShape) {
  auto meshAttr = dyn_cast_or_null<MeshAttr>(unwrap(mesh));
  if (!meshAttr)
    return false;
  // All refs first, then the per-dimension views into them.
  SmallVector<AxisRefAttr> refs;
  intptr_t total = 0;
  for (intptr_t dim = 0; dim < nDims; ++dim) {
    if (dimSizes[dim] < 0)
      return false;
    total += dimSizes[dim];
  }
  for (intptr_t i = 0; i < total; ++i) {
    auto ref = dyn_cast_or_null<AxisRefAttr>(unwrap(axes[i]));
    if (!ref)
      return false;
    refs.push_back(ref);
  }
  SmallVector<ArrayRef<AxisRefAttr>> dimAxes;
  ArrayRef<AxisRefAttr> rest = refs;
  for (intptr_t dim = 0; dim < nDims; ++dim) {
    dimAxes.push_back(rest.take_front(dimSizes[dim]));
    rest = rest.drop_front(dimSizes[dim]);
  }
  llvm::copy(getLocalShape(ArrayRef<int64_t>(globalShape, rank), dimAxes,
                           meshAttr),
             localShape);
  return true;
}
