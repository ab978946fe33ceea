//===- MeshGroups.h - mesh lookup and device-group arithmetic ---*- C++ -*-===//
//
// Seed 000's "Device groups" and "In-group Device" sections: the one home
// of the group arithmetic (meshsdy.dialects.mesh reads it through the C API,
// include/meshsdy-c/Groups.h; test/python/reference/groups.py is an
// independent reference that a test compares with it).
//
// Terminology, for a mesh of shape `S` (one size per mesh axis) and a list of
// `meshAxes`:
//   - a device is a multi-index `d` with `0 <= d[i] < S[i]`; its linear index
//     is row-major over `S` (`(1, 2, 3)` on `10x20x30` is 663);
//   - devices that agree on every axis *not* in `meshAxes` form a group; the
//     group index of `d` is `d` restricted to those axes, in axis order;
//   - inside a group, devices are ordered row-major over `meshAxes` taken in
//     the listed order (outer axis first): on `2x3x4x5` with `meshAxes =
//     [3, 1]`, `(i, 1, k, 0)` precedes `(i, 0, k, 1)` and `(i, 2, k, 0)`;
//   - an in-group device is a multi-index over `meshAxes` only (`root`,
//     `source`, `destination` of the collectives).
//
// Functions taking shapes return ShapedType::kDynamic when a needed mesh size
// is dynamic; none of them asserts on user input (axes are expected to have
// been verified, but out-of-range axes give kDynamic / empty results).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_IR_MESHGROUPS_H
#define MESHSDY_DIALECT_MESH_IR_MESHGROUPS_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mesh {

//===----------------------------------------------------------------------===//
// Mesh lookup
//===----------------------------------------------------------------------===//

/// A SymbolTableCollection for passes that run on one function at a time:
/// each symbol is resolved once, by scanning its symbol table from the top
/// (where modules declare their meshes), instead of building a table of the
/// whole module for every function, which costs the size of the module per
/// function (quadratic in the number of functions).
class ScanningSymbolTableCollection : public SymbolTableCollection {
public:
  using SymbolTableCollection::lookupNearestSymbolFrom;
  Operation *lookupNearestSymbolFrom(Operation *from,
                                     StringAttr symbol) override;
  Operation *lookupNearestSymbolFrom(Operation *from,
                                     SymbolRefAttr symbol) override;

private:
  DenseMap<std::pair<Operation *, Attribute>, Operation *> resolved;
};

/// Returns the `mesh.mesh` named `meshSymbol` as seen from `from`, or null if
/// the symbol is missing or names another kind of op. Never asserts.
MeshOp getMesh(Operation *from, FlatSymbolRefAttr meshSymbol,
               SymbolTableCollection &symbolTable);

/// Returns the mesh of any op with a `mesh` attribute (every mesh user op),
/// or null. `getMesh(allGather, symbolTable)`.
template <typename OpT>
MeshOp getMesh(OpT op, SymbolTableCollection &symbolTable) {
  return getMesh(op.getOperation(), op.getMeshAttr(), symbolTable);
}

/// Like getMesh, but emits an error on `from` when the lookup fails:
/// "undefined mesh symbol '@m'" or "'@m' does not name a 'mesh.mesh'".
FailureOr<MeshOp> getMeshOrError(Operation *from, FlatSymbolRefAttr meshSymbol,
                                 SymbolTableCollection &symbolTable);

//===----------------------------------------------------------------------===//
// Group sizes and indices
//===----------------------------------------------------------------------===//

/// Number of devices in each group: the product of the sizes of `meshAxes`
/// (1 for no axes), or ShapedType::kDynamic if one of them is dynamic or out
/// of range. `collectiveProcessGroupSize([0, 1], 2x3x4x5) == 6`.
int64_t collectiveProcessGroupSize(ArrayRef<MeshAxis> meshAxes,
                                   ArrayRef<int64_t> meshShape);

/// Same for the axes of `mesh`.
int64_t collectiveProcessGroupSize(ArrayRef<MeshAxis> meshAxes, MeshOp mesh);

/// Row-major linear index of `multiIndex` in `shape`; kDynamic if a size is
/// dynamic or the ranks differ. `linearIndex({1, 2, 3}, {10, 20, 30}) == 663`.
int64_t linearIndex(ArrayRef<int64_t> multiIndex, ArrayRef<int64_t> shape);

/// Inverse of linearIndex; empty if `shape` has a dynamic size.
SmallVector<int64_t> multiIndex(int64_t linear, ArrayRef<int64_t> shape);

/// Position of `device` (a multi-index on the whole mesh) inside its group:
/// row-major over `meshAxes` in the listed order.
int64_t inGroupIndex(ArrayRef<int64_t> device, ArrayRef<int64_t> meshShape,
                     ArrayRef<MeshAxis> meshAxes);

/// The group of `device`: its coordinates on the axes not in `meshAxes`.
/// `groupIndex({1, 0, 2, 3}, [0, 1]) == {2, 3}`.
SmallVector<int64_t> groupIndex(ArrayRef<int64_t> device,
                                ArrayRef<MeshAxis> meshAxes);

/// The device of `device`'s group whose coordinates on `meshAxes` are
/// `inGroup` (how `root`, `source` and `destination` name a device); empty if
/// the sizes of `inGroup` and `meshAxes` differ.
/// `inGroupDevice({0, 7, 0}, {1, 2}, [0, 2]) == {1, 7, 2}`.
SmallVector<int64_t> inGroupDevice(ArrayRef<int64_t> device,
                                   ArrayRef<int64_t> inGroup,
                                   ArrayRef<MeshAxis> meshAxes);

/// The multi-index over `meshAxes` of the `index`-th device of a group
/// (inverse of inGroupIndex restricted to the group's axes).
SmallVector<int64_t> inGroupMultiIndex(int64_t index,
                                       ArrayRef<int64_t> meshShape,
                                       ArrayRef<MeshAxis> meshAxes);

/// Sizes of `meshAxes` in `meshShape`, in that order (kDynamic if out of
/// range).
SmallVector<int64_t> meshAxesSizes(ArrayRef<MeshAxis> meshAxes,
                                   ArrayRef<int64_t> meshShape);

/// Whether `meshAxes` are axes of a mesh of shape `meshShape` (in range, none
/// repeated) and every size of `meshShape` is static and positive: what
/// deviceGroups needs.
bool areValidGroupAxes(ArrayRef<int64_t> meshShape,
                       ArrayRef<MeshAxis> meshAxes);

/// Every device group of a mesh of static shape `meshShape` for `meshAxes`,
/// as linear device indices: the groups one after the other, each
/// `collectiveProcessGroupSize(meshAxes, meshShape)` devices long and in
/// in-group order; the groups in row-major order of their group index.
/// Empty unless areValidGroupAxes holds.
///   deviceGroups({2, 2}, [1]) == {0, 1, 2, 3}   (groups {0, 1}, {2, 3})
///   deviceGroups({2, 2}, [0]) == {0, 2, 1, 3}   (groups {0, 2}, {1, 3})
///   deviceGroups({2, 3}, [1, 0]) == {0, 3, 1, 4, 2, 5}   (one group)
SmallVector<int64_t> deviceGroups(ArrayRef<int64_t> meshShape,
                                  ArrayRef<MeshAxis> meshAxes);

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_IR_MESHGROUPS_H
