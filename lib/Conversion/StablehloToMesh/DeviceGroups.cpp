//===- DeviceGroups.cpp - StableHLO device groups as mesh axes ------------===//

#include "DeviceGroups.h"

#include "llvm/ADT/STLExtras.h"


using namespace mlir;
using namespace mlir::meshsdy;

namespace {

/// The coordinates of device `id` on a mesh of `shape` (row-major).
SmallVector<int64_t> coordinates(ArrayRef<int64_t> shape, int64_t id) {
  SmallVector<int64_t> coords(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    coords[i] = id % shape[i];
    id /= shape[i];
  }
  return coords;
}

/// True if the groups of `axes` on a mesh of `shape` are `groups`, whose
/// ids are known to be in range and distinct.
bool groupsAre(ArrayRef<int64_t> shape, ArrayRef<int16_t> axes,
               const DeviceGroups &groups, bool ordered) {
  int64_t devices = 1, size = 1;
  for (int64_t s : shape)
    devices *= s;
  for (int16_t a : axes)
    size *= shape[a];
  if (static_cast<int64_t>(groups.size()) * size != devices)
    return false;
  SmallVector<bool> isGroupAxis(shape.size(), false);
  for (int16_t a : axes)
    isGroupAxis[a] = true;
  for (ArrayRef<int64_t> group : groups) {
    if (static_cast<int64_t>(group.size()) != size)
      return false;
    SmallVector<int64_t> first = coordinates(shape, group.front());
    SmallVector<bool> seen(size, false);
    for (auto [k, id] : llvm::enumerate(group)) {
      SmallVector<int64_t> coords = coordinates(shape, id);
      // The same group: equal coordinates off the group's axes.
      for (size_t i = 0; i < shape.size(); ++i)
        if (!isGroupAxis[i] && coords[i] != first[i])
          return false;
      // Its place in the group: the coordinates on `axes`, outer first.
      int64_t position = 0;
      for (int16_t a : axes)
        position = position * shape[a] + coords[a];
      if (ordered ? position != static_cast<int64_t>(k) : seen[position])
        return false;
      seen[position] = true;
    }
  }
  return true;
}

} // namespace

std::optional<SmallVector<int16_t>>
mlir::meshsdy::matchMeshAxes(ArrayRef<int64_t> shape,
                             const DeviceGroups &groups, bool ordered) {
  int64_t devices = 1;
  for (int64_t s : shape)
    devices *= s;
  if (groups.empty())
    return std::nullopt;
  SmallVector<bool> used(devices, false);
  for (ArrayRef<int64_t> group : groups) {
    if (group.empty())
      return std::nullopt;
    for (int64_t id : group) {
      if (id < 0 || id >= devices || used[id])
        return std::nullopt;
      used[id] = true;
    }
  }
  // The axes are those on which the devices of a group differ (all of
  // them, for the groups of some axes); only their order is to be found.
  SmallVector<int16_t> axes;
  SmallVector<int64_t> first = coordinates(shape, groups.front().front());
  for (size_t i = 0; i < shape.size(); ++i)
    if (llvm::any_of(groups.front(), [&](int64_t id) {
          return coordinates(shape, id)[i] != first[i];
        }))
      axes.push_back(static_cast<int16_t>(i));
  if (ordered) {
    // In the groups of [a0, a1, ...], a device's place in its group counts
    // in mixed radix, a0 outermost: an axis's coordinate first changes
    // after as many devices as the axes inside it hold together. Outer axes
    // change later.
    ArrayRef<int64_t> group = groups.front();
    auto firstChange = [&](int16_t axis) {
      for (size_t k = 1; k < group.size(); ++k)
        if (coordinates(shape, group[k])[axis] != first[axis])
          return k;
      return group.size();
    };
    llvm::stable_sort(axes, [&](int16_t a, int16_t b) {
      return firstChange(a) > firstChange(b);
    });
  }
  if (!groupsAre(shape, axes, groups, ordered))
    return std::nullopt;
  return axes;
}

std::optional<MeshShift>
mlir::meshsdy::matchShift(ArrayRef<int64_t> shape,
                          ArrayRef<std::pair<int64_t, int64_t>> pairs) {
  int64_t devices = 1;
  for (int64_t s : shape)
    devices *= s;
  SmallVector<bool> isSource(devices, false), isTarget(devices, false);
  std::optional<int64_t> axis;
  SmallVector<int64_t> deltas;
  for (auto [source, target] : pairs) {
    if (source < 0 || source >= devices || target < 0 || target >= devices ||
        isSource[source] || isTarget[target])
      return std::nullopt;
    isSource[source] = isTarget[target] = true;
    SmallVector<int64_t> from = coordinates(shape, source);
    SmallVector<int64_t> to = coordinates(shape, target);
    for (size_t i = 0; i < shape.size(); ++i) {
      if (from[i] == to[i])
        continue;
      if (axis && *axis != static_cast<int64_t>(i))
        return std::nullopt;
      axis = i;
    }
    // Along the one axis that moves (the first pair that moves decides it).
    deltas.push_back(axis ? to[*axis] - from[*axis] : 0);
  }
  if (!axis)
    return std::nullopt;
  // A delta recorded before the axis was known is 0: a device that stays,
  // which no shift has.
  int64_t size = shape[*axis];
  auto normalised = [&](int64_t delta) {
    return ((delta % size) + size) % size;
  };
  int64_t offset = 0;
  for (int64_t d : deltas)
    if (d != 0) {
      offset = d;
      break;
    }
  if (offset == 0)
    return std::nullopt;
  int64_t count = static_cast<int64_t>(pairs.size());
  bool sameDelta = llvm::all_of(deltas, [&](int64_t d) { return d == offset; });
  bool sameModulo = llvm::all_of(deltas, [&](int64_t d) {
    return normalised(d) == normalised(offset);
  });
  if (count == devices && sameModulo)
    return MeshShift{static_cast<int16_t>(*axis), normalised(offset), true};
  int64_t span = offset > 0 ? offset : -offset;
  if (sameDelta && span < size && count == (size - span) * (devices / size))
    return MeshShift{static_cast<int16_t>(*axis), offset, false};
  return std::nullopt;
}
