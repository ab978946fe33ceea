//===- GroupsBindings.cpp - Python access to the mesh group arithmetic ----===//
//
// `_meshsdy.groups`: the device-group arithmetic of MeshGroups.h, over plain
// Python shapes and devices, for meshsdy.dialects.mesh and the simulator.
// C API (meshsdy-c/Groups.h) only. Arguments that do not fit raise
// ValueError with one line; nothing reaches C++ unchecked.
//
//===----------------------------------------------------------------------===//

#include "MeshsdyModule.h"

#include "meshsdy-c/Groups.h"

#include <nanobind/stl/vector.h>

#include <cstdint>
#include <string>
#include <vector>

namespace meshsdy::python {
namespace {

/// The most devices a mesh may have for its groups to be listed: a list of
/// more would not fit in memory as Python objects anyway.
constexpr int64_t kMaxListedDevices = int64_t(1) << 24;

std::string listText(const std::vector<int64_t> &values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

nb::tuple toTuple(const int64_t *values, size_t n) {
  nb::list list;
  for (size_t i = 0; i < n; ++i)
    list.append(values[i]);
  return nb::tuple(list);
}

/// Raises ValueError unless every size of `shape` is positive.
void checkStaticShape(const std::vector<int64_t> &shape) {
  for (int64_t size : shape)
    if (size <= 0)
      throw nb::value_error(("mesh shape " + listText(shape) +
                             " must be static and positive")
                                .c_str());
}

/// Number of devices of a mesh of static `shape`, at most kMaxListedDevices.
int64_t countDevices(const std::vector<int64_t> &shape) {
  checkStaticShape(shape);
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size > kMaxListedDevices / count)
      throw nb::value_error(("mesh shape " + listText(shape) +
                             " has more than 2^24 devices to list")
                                .c_str());
    count *= size;
  }
  return count;
}

int64_t linearIndex(const std::vector<int64_t> &multiIndex,
                    const std::vector<int64_t> &shape) {
  if (multiIndex.size() != shape.size())
    throw nb::value_error(("device " + listText(multiIndex) + " has " +
                           std::to_string(multiIndex.size()) +
                           " coordinates, the mesh " +
                           std::to_string(shape.size()))
                              .c_str());
  int64_t linear =
      mlirMeshLinearIndex(shape.size(), multiIndex.data(), shape.data());
  if (linear == INT64_MIN)
    throw nb::value_error(("device " + listText(multiIndex) +
                           " has no 64-bit linear index on mesh shape " +
                           listText(shape))
                              .c_str());
  return linear;
}

nb::tuple multiIndex(int64_t linear, const std::vector<int64_t> &shape) {
  checkStaticShape(shape);
  // The number of devices, or past INT64_MAX (then every index fits).
  int64_t count = 1;
  bool huge = false;
  for (int64_t size : shape) {
    if (huge || count > INT64_MAX / size)
      huge = true;
    else
      count *= size;
  }
  if (linear < 0 || (!huge && linear >= count))
    throw nb::value_error(("linear index " + std::to_string(linear) +
                           " is out of range for mesh shape " +
                           listText(shape))
                              .c_str());
  std::vector<int64_t> coords(shape.size());
  if (!mlirMeshMultiIndex(linear, shape.size(), shape.data(), coords.data()))
    throw nb::value_error("mesh shape must be static and positive");
  return toTuple(coords.data(), coords.size());
}

/// All groups as linear indices, one tuple per group.
nb::tuple deviceGroups(const std::vector<int64_t> &shape,
                       const std::vector<int16_t> &meshAxes) {
  int64_t count = countDevices(shape);
  if (!mlirMeshAreValidGroupAxes(shape.size(), shape.data(), meshAxes.size(),
                                 meshAxes.data()))
    throw nb::value_error("mesh axes must be distinct axes of the mesh");
  std::vector<int64_t> devices(count);
  if (mlirMeshDeviceGroups(shape.size(), shape.data(), meshAxes.size(),
                           meshAxes.data(), count, devices.data()) != count)
    throw nb::value_error("the device groups could not be listed");
  int64_t groupSize = 1;
  for (int16_t axis : meshAxes)
    groupSize *= shape[axis];
  nb::list groups;
  for (int64_t start = 0; start < count; start += groupSize)
    groups.append(toTuple(devices.data() + start, groupSize));
  return nb::tuple(groups);
}

/// Every device's multi-index, in linear-index order.
nb::tuple allDevices(const std::vector<int64_t> &shape) {
  int64_t count = countDevices(shape);
  std::vector<int64_t> coords(shape.size());
  nb::list devices;
  for (int64_t linear = 0; linear < count; ++linear) {
    mlirMeshMultiIndex(linear, shape.size(), shape.data(), coords.data());
    devices.append(toTuple(coords.data(), coords.size()));
  }
  return nb::tuple(devices);
}

} // namespace

void populateGroups(nb::module_ &m) {
  m.def("linear_index", &linearIndex, nb::arg("multi_index"), nb::arg("shape"),
        "Row-major linear index of a device (C++ linearIndex).");
  m.def("multi_index", &multiIndex, nb::arg("linear"), nb::arg("shape"),
        "The multi-index of the device with a linear index (C++ multiIndex).");
  m.def("device_groups", &deviceGroups, nb::arg("shape"), nb::arg("mesh_axes"),
        "Every device group for mesh_axes, as tuples of linear indices in "
        "in-group order, groups in row-major order of their group index "
        "(C++ deviceGroups).");
  m.def("all_devices", &allDevices, nb::arg("shape"),
        "Every device's multi-index, in linear-index order.");
}

} // namespace meshsdy::python
