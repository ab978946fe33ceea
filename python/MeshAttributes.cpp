//===- MeshAttributes.cpp - Python classes for mesh attributes ------------===//
//
// MeshAxesArrayAttr, ReductionKindAttr, ShardingType, and thin wrappers of
// the C++ group / sharding arithmetic (for tests and tools). C API only.
//
//===----------------------------------------------------------------------===//

#include "MeshsdyModule.h"

#include "meshsdy-c/MeshAttributes.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <limits>
#include <optional>
#include <vector>

using namespace mlir::python::nanobind_adaptors;

namespace meshsdy::python {
namespace {

/// Python list of lists of the mesh axes in `attr`.
std::vector<std::vector<int16_t>> axesOf(MlirAttribute attr) {
  std::vector<std::vector<int16_t>> axes;
  for (intptr_t d = 0, e = mlirMeshAxesArrayAttrGetNumDims(attr); d < e; ++d) {
    std::vector<int16_t> dim;
    for (intptr_t i = 0, n = mlirMeshAxesArrayAttrGetDimSize(attr, d); i < n;
         ++i)
      dim.push_back(mlirMeshAxesArrayAttrGetAxis(attr, d, i));
    axes.push_back(std::move(dim));
  }
  return axes;
}

void checkRank(size_t got, size_t want, const char *what) {
  if (got != want)
    throw nb::value_error((std::string(what) + " has " + std::to_string(got) +
                           " entries, expected " + std::to_string(want))
                              .c_str());
}

/// Raises ValueError unless every axis of `meshAxes` is an axis of a mesh
/// of shape `meshShape` whose size is positive or dynamic (then the group
/// size is dynamic, as in C++).
void checkAxes(const std::vector<int16_t> &meshAxes,
               const std::vector<int64_t> &meshShape) {
  for (int16_t axis : meshAxes) {
    if (axis < 0 || static_cast<size_t>(axis) >= meshShape.size())
      throw nb::value_error(("mesh axis " + std::to_string(axis) +
                             " is out of range for a mesh of rank " +
                             std::to_string(meshShape.size()))
                                .c_str());
    if (meshShape[axis] <= 0 &&
        meshShape[axis] != std::numeric_limits<int64_t>::min())
      throw nb::value_error(("mesh axis " + std::to_string(axis) +
                             " has a size that is neither positive nor "
                             "dynamic: " +
                             std::to_string(meshShape[axis]))
                                .c_str());
  }
}

/// Raises ValueError unless each coordinate of `device` lies on its mesh
/// axis (of `meshShape`, a dynamic size bounding nothing).
void checkCoordinates(const std::vector<int64_t> &device,
                      const std::vector<int64_t> &meshShape) {
  for (size_t axis = 0; axis < device.size(); ++axis)
    if (int64_t coord = device[axis];
        coord < 0 || (meshShape[axis] >= 0 && coord >= meshShape[axis]))
      throw nb::value_error(("device coordinate " +
                             std::to_string(coord) + " on mesh axis " +
                             std::to_string(axis) +
                             " is out of range [0, " +
                             std::to_string(meshShape[axis]) + ")")
                                .c_str());
}

/// `#mesh.axisarray<[[0], [1, 2], []]>`: the mesh axes of each dimension.
void bindMeshAxesArrayAttr(nb::module_ &m) {
  mlir_attribute_subclass(m, "MeshAxesArrayAttr",
                          mlirAttributeIsAMeshAxesArrayAttr,
                          mlirMeshAxesArrayAttrGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, std::vector<std::vector<int16_t>> axes,
             MlirContext ctx) {
            DiagnosticCapture capture(ctx);
            std::vector<intptr_t> sizes;
            std::vector<int16_t> flat;
            for (const std::vector<int16_t> &dim : axes) {
              sizes.push_back(dim.size());
              flat.insert(flat.end(), dim.begin(), dim.end());
            }
            return cls(capture.check(
                mlirMeshAxesArrayAttrGet(ctx, sizes.size(), sizes.data(),
                                         flat.data()),
                "mesh axes array"));
          },
          nb::arg("cls"), nb::arg("axes"),
          nb::arg("context").none() = nb::none(),
          "Builds `#mesh.axisarray<[[0], [1, 2], []]>` from a list of lists "
          "of mesh axes (at least one, possibly empty, sub-list).")
      .def_property_readonly("axes", &axesOf,
                             "The mesh axes of each tensor dimension.")
      .def("__len__",
           [](MlirAttribute self) {
             return mlirMeshAxesArrayAttrGetNumDims(self);
           })
      .def("__getitem__", [](MlirAttribute self, intptr_t dim) {
        intptr_t n = mlirMeshAxesArrayAttrGetNumDims(self);
        if (dim < 0)
          dim += n;
        if (dim < 0 || dim >= n)
          throw nb::index_error("tensor dimension out of range");
        return axesOf(self)[dim];
      });
}

/// `#mesh.partial<...>`: how partial values combine.
void bindReductionKindAttr(nb::module_ &m) {
  mlir_attribute_subclass(m, "ReductionKindAttr",
                          mlirAttributeIsAMeshReductionKindAttr,
                          mlirMeshReductionKindAttrGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, int32_t kind, MlirContext ctx) {
            DiagnosticCapture capture(ctx);
            return cls(capture.check(mlirMeshReductionKindAttrGet(ctx, kind),
                                     "reduction kind"));
          },
          nb::arg("cls"), nb::arg("kind"),
          nb::arg("context").none() = nb::none(),
          "Builds `#mesh.partial<...>` from a ReductionKind (or its integer "
          "value).")
      .def_property_readonly("value", [](MlirAttribute self) {
        return mlirMeshReductionKindAttrGetValue(self);
      });
}

/// The `!mesh.sharding` type.
void bindShardingType(nb::module_ &m) {
  mlir_type_subclass(m, "ShardingType", mlirTypeIsAMeshShardingType,
                     mlirMeshShardingTypeGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, MlirContext ctx) {
            return cls(mlirMeshShardingTypeGet(ctx));
          },
          nb::arg("cls"), nb::arg("context").none() = nb::none(),
          "The `!mesh.sharding` type.");
}

/// The C++ arithmetic of process groups: sizes, and a device's position in
/// its group and back.
void bindGroupArithmetic(nb::module_ &m) {
  m.def(
      "collective_process_group_size",
      [](std::vector<int16_t> meshAxes, std::vector<int64_t> meshShape) {
        checkAxes(meshAxes, meshShape);
        return mlirMeshCollectiveProcessGroupSize(
            meshAxes.size(), meshAxes.data(), meshShape.size(),
            meshShape.data());
      },
      nb::arg("mesh_axes"), nb::arg("mesh_shape"),
      "C++ collectiveProcessGroupSize: product of the sizes of mesh_axes "
      "(the dynamic-size value if one is dynamic).");
  m.def(
      "in_group_index",
      [](std::vector<int64_t> device, std::vector<int64_t> meshShape,
         std::vector<int16_t> meshAxes) {
        checkRank(device.size(), meshShape.size(), "device");
        checkAxes(meshAxes, meshShape);
        checkCoordinates(device, meshShape);
        return mlirMeshInGroupIndex(device.size(), device.data(),
                                    meshShape.data(), meshAxes.size(),
                                    meshAxes.data());
      },
      nb::arg("device"), nb::arg("mesh_shape"), nb::arg("mesh_axes"),
      "C++ inGroupIndex.");
  m.def(
      "group_index",
      [](std::vector<int64_t> device, std::vector<int16_t> meshAxes) {
        std::vector<int64_t> result(device.size());
        intptr_t n = mlirMeshGroupIndex(device.size(), device.data(),
                                        meshAxes.size(), meshAxes.data(),
                                        result.data());
        result.resize(n);
        return result;
      },
      nb::arg("device"), nb::arg("mesh_axes"), "C++ groupIndex.");
  m.def(
      "in_group_device",
      [](std::vector<int64_t> device, std::vector<int64_t> inGroup,
         std::vector<int16_t> meshAxes) -> std::optional<std::vector<int64_t>> {
        checkRank(inGroup.size(), meshAxes.size(), "in_group");
        std::vector<int64_t> result(device.size());
        if (!mlirMeshInGroupDevice(device.size(), device.data(),
                                   meshAxes.size(), inGroup.data(),
                                   meshAxes.data(), result.data()))
          return std::nullopt;
        return result;
      },
      nb::arg("device"), nb::arg("in_group"), nb::arg("mesh_axes"),
      "C++ inGroupDevice; None if an axis is out of range.");
}

/// The C++ arithmetic of shardings: equality and shard shapes.
void bindShardingArithmetic(nb::module_ &m) {
  m.def("sharding_ops_equal", &mlirMeshShardingOpsEqual, nb::arg("lhs"),
        nb::arg("rhs"),
        "C++ MeshSharding equality of two mesh.sharding ops.");
  m.def(
      "shard_shape_for_device",
      [](MlirOperation sharding, std::vector<int64_t> globalShape,
         std::vector<int64_t> meshShape,
         std::vector<int64_t> device) -> std::optional<std::vector<int64_t>> {
        checkRank(device.size(), meshShape.size(), "device");
        std::vector<int64_t> result(globalShape.size());
        if (!mlirMeshShardShapeForDevice(sharding, globalShape.size(),
                                         globalShape.data(), meshShape.size(),
                                         meshShape.data(), device.data(),
                                         result.data()))
          return std::nullopt;
        return result;
      },
      nb::arg("sharding"), nb::arg("global_shape"), nb::arg("mesh_shape"),
      nb::arg("device"),
      "C++ getShardShapeForDevice for a mesh.sharding op; None if the "
      "arguments do not fit.");
  m.def(
      "uniform_shard_shape",
      [](MlirOperation sharding, std::vector<int64_t> globalShape,
         std::vector<int64_t> meshShape) -> std::optional<std::vector<int64_t>> {
        std::vector<int64_t> result(globalShape.size());
        if (!mlirMeshShardShape(sharding, globalShape.size(),
                                globalShape.data(), meshShape.size(),
                                meshShape.data(), result.data()))
          return std::nullopt;
        return result;
      },
      nb::arg("sharding"), nb::arg("global_shape"), nb::arg("mesh_shape"),
      "C++ getShardShape: the shard shape common to all devices (dynamic "
      "where shards differ); None if `sharding` is not a mesh.sharding op.");
}

} // namespace

void populateMeshAttributes(nb::module_ &m) {
  bindMeshAxesArrayAttr(m);
  bindReductionKindAttr(m);
  bindShardingType(m);
  bindGroupArithmetic(m);
  bindShardingArithmetic(m);
}

} // namespace meshsdy::python
