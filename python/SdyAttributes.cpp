//===- SdyAttributes.cpp - Python classes for sdy attributes --------------===//

#include "MeshsdyModule.h"

#include "meshsdy-c/SdyAttributes.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <utility>
#include <vector>

using namespace mlir::python::nanobind_adaptors;

namespace meshsdy::python {
namespace {

/// Accepts `{"a": 2, "b": 4}`, `[("a", 2), ("b", 4)]` or a list of
/// MeshAxisAttr, and returns MeshAxisAttr values.
std::vector<MlirAttribute> meshAxesFrom(nb::handle axes, MlirContext ctx) {
  std::vector<MlirAttribute> result;
  nb::object items = nb::isinstance<nb::dict>(axes)
                         ? nb::borrow<nb::dict>(axes).items()
                         : nb::borrow(axes);
  for (nb::handle item : items) {
    MlirAttribute attr;
    if (nb::try_cast<MlirAttribute>(item, attr)) {
      if (!mlirAttributeIsASdyMeshAxisAttr(attr))
        throw nb::type_error("mesh axes must be MeshAxisAttr or (name, size)");
      result.push_back(attr);
      continue;
    }
    auto [name, size] = nb::cast<std::pair<std::string, int64_t>>(item);
    result.push_back(mlirSdyMeshAxisAttrGet(ctx, toStringRef(name), size));
  }
  return result;
}

} // namespace

void populateSdyAttributes(nb::module_ &m) {
  mlir_attribute_subclass(m, "MeshAxisAttr", mlirAttributeIsASdyMeshAxisAttr,
                          mlirSdyMeshAxisAttrGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::string &name, int64_t size,
             MlirContext ctx) {
            return cls(mlirSdyMeshAxisAttrGet(ctx, toStringRef(name), size));
          },
          nb::arg("cls"), nb::arg("name"), nb::arg("size"),
          nb::arg("context").none() = nb::none(),
          "Builds `#sdy.mesh_axis<\"name\"=size>`. The name and size are "
          "checked when the axis is put in a MeshAttr.")
      .def_property_readonly("name",
                             [](MlirAttribute self) {
                               return toString(
                                   mlirSdyMeshAxisAttrGetName(self));
                             })
      .def_property_readonly("size", [](MlirAttribute self) {
        return mlirSdyMeshAxisAttrGetSize(self);
      });

  mlir_attribute_subclass(m, "MeshAttr", mlirAttributeIsASdyMeshAttr,
                          mlirSdyMeshAttrGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle axes,
             std::optional<std::vector<int64_t>> deviceIds, MlirContext ctx) {
            DiagnosticCapture capture(ctx);
            std::vector<MlirAttribute> meshAxes =
                meshAxesFrom(axes, ctx);
            std::vector<int64_t> ids = deviceIds.value_or(std::vector<int64_t>{});
            return cls(capture.check(
                mlirSdyMeshAttrGet(ctx, meshAxes.size(), meshAxes.data(),
                                   ids.size(), ids.data()),
                "mesh"));
          },
          nb::arg("cls"), nb::arg("axes"),
          nb::arg("device_ids").none() = nb::none(),
          nb::arg("context").none() = nb::none(),
          "Builds `#sdy.mesh<[...], device_ids=[...]>` from a dict or list of "
          "(name, size) pairs or MeshAxisAttr values; raises ValueError when "
          "a constraint of the mesh is violated.")
      .def_property_readonly(
          "axes",
          [](MlirAttribute self) {
            std::vector<MlirAttribute> axes;
            for (intptr_t i = 0, e = mlirSdyMeshAttrGetNumAxes(self); i < e; ++i)
              axes.push_back(mlirSdyMeshAttrGetAxis(self, i));
            return axes;
          })
      .def_property_readonly(
          "device_ids",
          [](MlirAttribute self) {
            std::vector<int64_t> ids;
            for (intptr_t i = 0, e = mlirSdyMeshAttrGetNumDeviceIds(self);
                 i < e; ++i)
              ids.push_back(mlirSdyMeshAttrGetDeviceId(self, i));
            return ids;
          })
      .def_property_readonly("axis_sizes", [](MlirAttribute self) {
        std::vector<std::pair<std::string, int64_t>> sizes;
        for (intptr_t i = 0, e = mlirSdyMeshAttrGetNumAxes(self); i < e; ++i) {
          MlirAttribute axis = mlirSdyMeshAttrGetAxis(self, i);
          sizes.emplace_back(toString(mlirSdyMeshAxisAttrGetName(axis)),
                             mlirSdyMeshAxisAttrGetSize(axis));
        }
        return sizes;
      });
}


} // namespace meshsdy::python
