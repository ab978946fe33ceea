//===- Resources.cpp - dense_resource blobs for Python --------------------===//
//
// `is_dense_resource(attr)`, `resource_key(attr)` and `resource_blob(attr)`:
// whether an attribute is a `dense_resource<key>` elements attribute, its
// key, and the bytes of its blob (None when the key has no blob, as in a
// module printed with elided blobs). The host bindings build such
// attributes but can neither recognise nor read them.
//
//===----------------------------------------------------------------------===//

#include "MeshsdyModule.h"

#include "meshsdy-c/Resources.h"

using namespace meshsdy::python;

namespace {
void requireResource(MlirAttribute attr) {
  if (!mlirMeshsdyAttributeIsADenseResourceElements(attr))
    throw nb::type_error("expected a dense_resource elements attribute");
}
} // namespace

void meshsdy::python::populateResources(nb::module_ &m) {
  m.def("is_dense_resource", &mlirMeshsdyAttributeIsADenseResourceElements,
        nb::arg("attr"),
        "Whether an attribute is a dense_resource elements attribute (the "
        "host bindings do not give it its class).");
  m.def(
      "resource_key",
      [](MlirAttribute attr) {
        requireResource(attr);
        return toString(mlirMeshsdyDenseResourceElementsAttrGetKey(attr));
      },
      nb::arg("attr"),
      "The key of a dense_resource<key> elements attribute.");
  m.def(
      "resource_blob",
      [](MlirAttribute attr) -> nb::object {
        requireResource(attr);
        MlirStringRef data;
        if (!mlirMeshsdyDenseResourceElementsAttrGetBlob(attr, &data))
          return nb::none();
        return nb::bytes(data.data, data.length);
      },
      nb::arg("attr"),
      "The bytes of a dense_resource elements attribute's blob, or None when "
      "its key has no blob (elided when printed, or never given).");
}
