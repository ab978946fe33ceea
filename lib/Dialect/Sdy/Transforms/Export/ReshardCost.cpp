//===- ReshardCost.cpp - bytes a reshard sends per device -----------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Export/ReshardCost.h"
#include "meshsdy/Dialect/Mesh/Transforms/CostModel.h"
#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardingProjection.h"

using namespace mlir;
using namespace mlir::sdy;

double mlir::sdy::reshardBytes(RankedTensorType type,
                               ArrayRef<SmallVector<AxisRefAttr>> from,
                               ArrayRef<SmallVector<AxisRefAttr>> to,
                               MeshAttr mesh) {
  std::optional<int64_t> bytes = mesh::tensorBytes(type);
  if (!bytes)
    return 0;
  SmallVector<AxisRefAttr> fromAxes, toAxes;
  for (ArrayRef<AxisRefAttr> axes : from)
    fromAxes.append(axes.begin(), axes.end());
  for (ArrayRef<AxisRefAttr> axes : to)
    toAxes.append(axes.begin(), axes.end());
  double piece = double(*bytes) / std::max<int64_t>(
                                      getTotalSize(fromAxes, mesh), 1);
  // An axis can only move into a dimension its new axes split evenly:
  // partitioning gathers an unevenly split dimension whole.
  auto movable = [&](AxisRefAttr axis) {
    for (auto [dim, axes] : llvm::enumerate(to))
      if (llvm::is_contained(axes, axis))
        return dim < size_t(type.getRank()) &&
               type.getDimSize(dim) % getTotalSize(axes, mesh) == 0;
    return false;
  };
  int64_t moved = 1, gathered = 1;
  for (auto [dim, axes] : llvm::enumerate(from)) {
    ArrayRef<AxisRefAttr> target;
    if (dim < to.size())
      target = to[dim];
    size_t kept = 0;
    while (kept < axes.size() && kept < target.size() &&
           axes[kept] == target[kept])
      ++kept;
    for (AxisRefAttr axis : ArrayRef<AxisRefAttr>(axes).drop_front(kept))
      (movable(axis) ? moved : gathered) *= axisSize(axis, mesh);
  }
  double sent = 0;
  if (moved > 1)
    sent += *mesh::ringFactor("mesh.all_to_all", moved) * piece;
  if (gathered > 1)
    sent += *mesh::ringFactor("mesh.all_gather", gathered) * piece;
  return sent;
}
