//===- MeshAxes.cpp - sdy axes and sub-axes as mesh axes ------------------===//

#include "MeshAxes.h"

using namespace mlir;
using namespace mlir::meshsdy;

SplitMesh::SplitMesh(sdy::MeshAttr mesh) {
  for (sdy::MeshAxisAttr axis : mesh.getAxes()) {
    byName[axis.getName()] = axes.size();
    axes.push_back({axis.getName().str(), axis.getSize(), {1, axis.getSize()}});
  }
}

void SplitMesh::use(sdy::AxisRefAttr axis) {
  auto it = byName.find(axis.getName());
  if (it == byName.end() || !axis.isSubAxis())
    return; // unknown axes are the verifier's business
  Axis &whole = axes[it->second];
  sdy::SubAxisInfoAttr info = axis.getSubAxisInfo();
  whole.cuts.push_back(info.getPreSize());
  whole.cuts.push_back(info.getNextPreSize());
}

LogicalResult SplitMesh::finalize(std::string &badAxis) {
  mesh::MeshAxis next = 0;
  for (Axis &axis : axes) {
    llvm::sort(axis.cuts);
    axis.cuts.erase(llvm::unique(axis.cuts), axis.cuts.end());
    for (size_t i = 1; i < axis.cuts.size(); ++i)
      if (axis.cuts[i] % axis.cuts[i - 1] != 0 ||
          axis.cuts.back() % axis.cuts[i] != 0) {
        badAxis = axis.name;
        return failure();
      }
  }
  for (Axis &axis : axes) {
    axis.first = next;
    next += axis.cuts.size() - 1;
  }
  return success();
}

SmallVector<int64_t> SplitMesh::getShape() const {
  SmallVector<int64_t> shape;
  for (const Axis &axis : axes)
    for (size_t i = 1; i < axis.cuts.size(); ++i)
      shape.push_back(axis.cuts[i] / axis.cuts[i - 1]);
  // Only axes of size 1 (or none): one device, which a mesh.mesh of rank 0
  // cannot say.
  if (shape.empty())
    shape.push_back(1);
  return shape;
}

SmallVector<mesh::MeshAxis> SplitMesh::translate(sdy::AxisRefAttr ref) const {
  const Axis &axis = axes[byName.lookup(ref.getName())];
  int64_t from = 1, to = axis.size;
  if (ref.isSubAxis()) {
    from = ref.getSubAxisInfo().getPreSize();
    to = ref.getSubAxisInfo().getNextPreSize();
  }
  SmallVector<mesh::MeshAxis> result;
  for (size_t i = 1; i < axis.cuts.size(); ++i)
    if (axis.cuts[i - 1] >= from && axis.cuts[i] <= to)
      result.push_back(axis.first + i - 1);
  return result;
}

mesh::MeshSharding mlir::meshsdy::toMeshSharding(
    sdy::TensorShardingAttr sharding, FlatSymbolRefAttr meshName,
    const SplitMesh &splitMesh) {
  SmallVector<mesh::DimSplitAxes> splitAxes;
  for (sdy::DimensionShardingAttr dim : sharding.getDimShardings()) {
    mesh::DimSplitAxes axes;
    for (sdy::AxisRefAttr ref : dim.getAxes())
      llvm::append_range(axes, splitMesh.translate(ref));
    splitAxes.push_back(std::move(axes));
  }
  while (!splitAxes.empty() && splitAxes.back().empty())
    splitAxes.pop_back();
  SmallVector<mesh::MeshAxis> partial;
  for (sdy::AxisRefAttr ref : sharding.getUnreducedAxes())
    llvm::append_range(partial, splitMesh.translate(ref));
  llvm::sort(partial);
  return mesh::MeshSharding(meshName, splitAxes, partial,
                            mesh::ReductionKind::Sum);
}
