//===- Queries.cpp - verifiers of the mesh query ops ----------------------===//
//
// mesh_shape, process_multi_index, process_linear_index and
// neighbors_linear_indices.
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"
#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"

using namespace mlir;
using namespace mlir::mesh;
using namespace mlir::mesh::verifier;

/// `axes` are distinct axes; with a mesh, inside it. The op has one result
/// per listed axis, or per mesh axis when `axes` is empty.
static LogicalResult verifyAxesQuery(Operation *op, ArrayRef<MeshAxis> axes,
                                     size_t numResults, MeshOp mesh) {
  if (mesh ? failed(verifyMeshAxesInMesh(op, "axes", axes, mesh))
           : failed(verifyMeshAxesUnique(op, "axes", axes)))
    return failure();
  if (!axes.empty() && numResults != axes.size())
    return op->emitOpError() << numResults << " results != " << axes.size()
                             << " (one per axis in axes)";
  if (axes.empty() && mesh && numResults != static_cast<size_t>(mesh.getRank()))
    return op->emitOpError()
           << numResults << " results != " << mesh.getRank()
           << " (one per axis of mesh @" << mesh.getSymName() << ")";
  return success();
}

LogicalResult MeshShapeOp::verify() {
  return verifyAxesQuery(*this, getAxes(), getNumResults(), nullptr);
}

LogicalResult MeshShapeOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<MeshOp> mesh = getMeshOrError(*this, getMeshAttr(), st);
  if (failed(mesh))
    return failure();
  return verifyAxesQuery(*this, getAxes(), getNumResults(), *mesh);
}

LogicalResult ProcessMultiIndexOp::verify() {
  return verifyAxesQuery(*this, getAxes(), getNumResults(), nullptr);
}

LogicalResult
ProcessMultiIndexOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<MeshOp> mesh = getMeshOrError(*this, getMeshAttr(), st);
  if (failed(mesh))
    return failure();
  return verifyAxesQuery(*this, getAxes(), getNumResults(), *mesh);
}

LogicalResult
ProcessLinearIndexOp::verifySymbolUses(SymbolTableCollection &st) {
  return getMeshOrError(*this, getMeshAttr(), st);
}

LogicalResult
NeighborsLinearIndicesOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<MeshOp> mesh = getMeshOrError(*this, getMeshAttr(), st);
  if (failed(mesh) ||
      failed(verifyMeshAxesInMesh(*this, "split_axes", getSplitAxes(), *mesh)))
    return failure();
  if (static_cast<int64_t>(getDevice().size()) != mesh->getRank())
    return emitOpError("device: ")
           << getDevice().size() << " indices != " << mesh->getRank()
           << " (one per axis of mesh @" << mesh->getSymName() << ")";
  return success();
}
