//===- DeviceGroups.h - StableHLO device groups as mesh axes ----*- C++ -*-===//
//
// StableHLO's collectives name their device groups by device ids; the mesh
// dialect's by mesh axes. On a mesh of shape S whose devices are numbered
// row-major (device d has the coordinates of d in S), the groups of the axes
// A = [a0, a1, ...] are: for every coordinate of the other axes, the devices
// with that coordinate, ordered by their coordinates on A, a0 outermost. On
// a 2x3 mesh:
//
//   A = [1]    -> [[0, 1, 2], [3, 4, 5]]
//   A = [0]    -> [[0, 3], [1, 4], [2, 5]]
//   A = [1, 0] -> [[0, 3, 1, 4, 2, 5]]
//   A = []     -> [[0], [1], [2], [3], [4], [5]]
//
// These helpers invert that: given groups, which axes (if any) they are.
// Pure arithmetic on shapes and ids, with no IR, so that every rule is
// stated once here.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_CONVERSION_STABLEHLOTOMESH_DEVICEGROUPS_H
#define MESHSDY_LIB_CONVERSION_STABLEHLOTOMESH_DEVICEGROUPS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::meshsdy {

/// Device groups as StableHLO lists them: one list of device ids per group.
using DeviceGroups = SmallVector<SmallVector<int64_t>>;

/// The mesh axes whose device groups are exactly `groups` (in any order of
/// the groups) on a mesh of `shape`, or nullopt if there are none. With
/// `ordered`, the order of the devices inside each group counts (a gather
/// concatenates in that order) and the axes come in the order that gives
/// it; without, only which devices are grouped counts and the axes come in
/// mesh order. Axes of size 1 are left out: they group nothing. Ids out of
/// range, repeated ids, groups of different sizes or groups that do not
/// cover the mesh never match. Linear in the number of devices times the
/// number of mesh axes (squared).
///
/// Example, on a 2x2 mesh: [[0, 2], [1, 3]] -> [0]; [[0, 2, 1, 3]] -> [1, 0]
/// when ordered, [0, 1] when not; [[0, 3], [1, 2]] -> nullopt.
std::optional<SmallVector<int16_t>>
matchMeshAxes(ArrayRef<int64_t> shape, const DeviceGroups &groups,
              bool ordered);

/// A shift of every device's value by `offset` positions along mesh axis
/// `axis` (from coordinate c to c + offset), wrapping around if `rotate`.
struct MeshShift {
  int16_t axis;
  int64_t offset;
  bool rotate;
};

/// The shift that sends from each source to its target as `pairs`
/// (source, target) says, on a mesh of `shape`, or nullopt if the pairs are
/// no shift. A rotation has a pair for every device (offset normalised to
/// [1, size)); a shift without rotation has a pair for every device whose
/// target is on the mesh, none wrapping around (the others receive
/// nothing). Pairs that move no device, or along several axes, are no
/// shift.
///
/// Example, on a 2x2 mesh: [[0, 2], [2, 0], [1, 3], [3, 1]] -> axis 0,
/// offset 1, rotate; [[0, 1], [2, 3]] -> axis 1, offset 1, no rotation;
/// [[0, 3]] -> nullopt.
std::optional<MeshShift>
matchShift(ArrayRef<int64_t> shape,
           ArrayRef<std::pair<int64_t, int64_t>> pairs);

} // namespace mlir::meshsdy

#endif // MESHSDY_LIB_CONVERSION_STABLEHLOTOMESH_DEVICEGROUPS_H
