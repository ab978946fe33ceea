//===- SdyAttributes.cpp - C API for sdy attributes -----------------------===//

#include "meshsdy-c/SdyAttributes.h"

#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::sdy;

bool mlirAttributeIsASdyMeshAxisAttr(MlirAttribute attr) {
  return isa<MeshAxisAttr>(unwrap(attr));
}

MlirTypeID mlirSdyMeshAxisAttrGetTypeID(void) {
  return wrap(MeshAxisAttr::getTypeID());
}

MlirAttribute mlirSdyMeshAxisAttrGet(MlirContext ctx, MlirStringRef name,
                                     int64_t size) {
  // An axis is checked when it is put in a mesh (MeshAttr::verify).
  return wrap(MeshAxisAttr::get(unwrap(ctx), unwrap(name), size));
}

MlirStringRef mlirSdyMeshAxisAttrGetName(MlirAttribute attr) {
  return wrap(cast<MeshAxisAttr>(unwrap(attr)).getName());
}

int64_t mlirSdyMeshAxisAttrGetSize(MlirAttribute attr) {
  return cast<MeshAxisAttr>(unwrap(attr)).getSize();
}

bool mlirAttributeIsASdyMeshAttr(MlirAttribute attr) {
  return isa<MeshAttr>(unwrap(attr));
}

MlirTypeID mlirSdyMeshAttrGetTypeID(void) { return wrap(MeshAttr::getTypeID()); }

MlirAttribute mlirSdyMeshAttrGet(MlirContext ctx, intptr_t nAxes,
                                 const MlirAttribute *axes,
                                 intptr_t nDeviceIds,
                                 const int64_t *deviceIds) {
  MLIRContext *context = unwrap(ctx);
  SmallVector<MeshAxisAttr> meshAxes;
  for (intptr_t i = 0; i < nAxes; ++i) {
    auto axis = dyn_cast_or_null<MeshAxisAttr>(unwrap(axes[i]));
    if (!axis) {
      emitError(UnknownLoc::get(context))
          << "mesh axis " << i << " is not a #sdy.mesh_axis attribute";
      return MlirAttribute{nullptr};
    }
    meshAxes.push_back(axis);
  }
  // Constraint violations are reported on the context at an unknown location.
  auto emitError = mlir::detail::getDefaultDiagnosticEmitFn(context);
  return wrap(MeshAttr::getChecked(emitError, context,
                                   ArrayRef<MeshAxisAttr>(meshAxes),
                                   ArrayRef<int64_t>(deviceIds, nDeviceIds)));
}

intptr_t mlirSdyMeshAttrGetNumAxes(MlirAttribute attr) {
  return cast<MeshAttr>(unwrap(attr)).getAxes().size();
}

MlirAttribute mlirSdyMeshAttrGetAxis(MlirAttribute attr, intptr_t pos) {
  return wrap(cast<MeshAttr>(unwrap(attr)).getAxes()[pos]);
}

intptr_t mlirSdyMeshAttrGetNumDeviceIds(MlirAttribute attr) {
  return cast<MeshAttr>(unwrap(attr)).getDeviceIds().size();
}

int64_t mlirSdyMeshAttrGetDeviceId(MlirAttribute attr, intptr_t pos) {
  return cast<MeshAttr>(unwrap(attr)).getDeviceIds()[pos];
}
