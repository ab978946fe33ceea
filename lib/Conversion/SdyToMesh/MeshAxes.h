//===- MeshAxes.h - sdy axes and sub-axes as mesh axes ----------*- C++ -*-===//
//
// An sdy axis that is used whole becomes one mesh axis; an axis used through
// sub-axes is cut at every sub-axis boundary the module uses and becomes one
// mesh axis per piece, major to minor. Cutting an axis into major-to-minor
// pieces keeps the row-major linear device ids, so device d of the sdy mesh
// is device d of the mesh.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_CONVERSION_SDYTOMESH_MESHAXES_H
#define MESHSDY_LIB_CONVERSION_SDYTOMESH_MESHAXES_H

#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"
#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::meshsdy {

/// The mesh axes of one sdy mesh.
class SplitMesh {
public:
  /// Starts with every axis of `mesh` whole.
  explicit SplitMesh(sdy::MeshAttr mesh);

  /// Records that `axis` is used (a sub-axis adds cut points).
  void use(sdy::AxisRefAttr axis);
  /// Fixes the pieces; fails if two sub-axes of one axis overlap without
  /// nesting (their boundaries do not divide each other), naming the axis.
  LogicalResult finalize(std::string &badAxis);

  /// The shape of the mesh.mesh: every piece of every axis, in order.
  SmallVector<int64_t> getShape() const;
  /// The mesh axes `axis` covers, major to minor (after finalize).
  SmallVector<mesh::MeshAxis> translate(sdy::AxisRefAttr axis) const;

private:
  struct Axis {
    std::string name;
    int64_t size;
    /// Sorted pre-sizes where a piece starts, always containing 1 and size.
    SmallVector<int64_t> cuts;
    /// The mesh axis of the first piece.
    mesh::MeshAxis first = 0;
  };
  SmallVector<Axis> axes;
  llvm::StringMap<unsigned> byName;
};

/// `sharding` (bound to the mesh `meshName`) as a mesh sharding: dimension
/// shardings become split axes, unreduced axes partial sum axes; replicated
/// axes, priorities and open/closed dimensions have no mesh counterpart.
mesh::MeshSharding toMeshSharding(sdy::TensorShardingAttr sharding,
                                  FlatSymbolRefAttr meshName,
                                  const SplitMesh &splitMesh);

} // namespace mlir::meshsdy

#endif // MESHSDY_LIB_CONVERSION_SDYTOMESH_MESHAXES_H
