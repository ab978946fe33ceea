//===- Resources.cpp - C API for reading dense_resource blobs -------------===//

#include "meshsdy-c/Resources.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;

bool mlirMeshsdyAttributeIsADenseResourceElements(MlirAttribute attr) {
  return isa<DenseResourceElementsAttr>(unwrap(attr));
}

MlirStringRef mlirMeshsdyDenseResourceElementsAttrGetKey(MlirAttribute attr) {
  return wrap(cast<DenseResourceElementsAttr>(unwrap(attr))
                  .getRawHandle()
                  .getKey());
}

bool mlirMeshsdyDenseResourceElementsAttrGetBlob(MlirAttribute attr,
                                                 MlirStringRef *data) {
  AsmResourceBlob *blob =
      cast<DenseResourceElementsAttr>(unwrap(attr)).getRawHandle().getBlob();
  if (!blob)
    return false;
  ArrayRef<char> bytes = blob->getData();
  *data = mlirStringRefCreate(bytes.data(), bytes.size());
  return true;
}
