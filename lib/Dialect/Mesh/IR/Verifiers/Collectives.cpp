//===- Collectives.cpp - verifiers of the mesh collectives ----------------===//
//
// verify(): what the op alone determines (tensor axes, ranks, element types,
// in-group device arity, `?` counts). verifySymbolUses(): what needs the mesh
// (axes in range, group sizes, result shapes, in-group devices in range).
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"
#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::mesh;
using namespace mlir::mesh::verifier;

namespace {
/// The mesh of a collective and the size of its device groups (kDynamic when
/// unknown).
struct CollectiveMesh {
  MeshOp mesh;
  int64_t groupSize;
};
} // namespace

/// The checks every collective shares: the mesh resolves and `mesh_axes` are
/// distinct axes of it.
template <typename OpT>
static FailureOr<CollectiveMesh>
verifyCollectiveSymbolUses(OpT op, SymbolTableCollection &symbolTable) {
  FailureOr<MeshOp> mesh =
      getMeshOrError(op.getOperation(), op.getMeshAttr(), symbolTable);
  if (failed(mesh))
    return failure();
  if (failed(verifyMeshAxesInMesh(op, "mesh_axes", op.getMeshAxes(), *mesh)))
    return failure();
  return CollectiveMesh{*mesh,
                        collectiveProcessGroupSize(op.getMeshAxes(), *mesh)};
}

static ShapedType shapedType(Value value) {
  return cast<ShapedType>(value.getType());
}

/// Result shape = input shape with `axis` multiplied or divided by the group
/// size.
template <typename OpT>
static LogicalResult verifyScaledResult(OpT op, const CollectiveMesh &cm,
                                        int64_t axis, bool multiply) {
  ShapedType input = shapedType(op.getInput());
  FailureOr<SmallVector<int64_t>> expected =
      scaleDim(op, input.getShape(), axis, cm.groupSize, multiply);
  if (failed(expected))
    return failure();
  return verifyResultShape(op, *expected, shapedType(op.getResult()),
                           cm.groupSize);
}

//===----------------------------------------------------------------------===//
// all_gather, all_slice, all_to_all, reduce_scatter, gather, scatter
//===----------------------------------------------------------------------===//

LogicalResult AllGatherOp::verify() {
  return verifyTensorAxis(*this, "gather_axis", getGatherAxis().getSExtValue(),
                          getInput().getType());
}

LogicalResult AllGatherOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<CollectiveMesh> cm = verifyCollectiveSymbolUses(*this, st);
  if (failed(cm))
    return failure();
  return verifyScaledResult(*this, *cm, getGatherAxis().getSExtValue(),
                            /*multiply=*/true);
}

LogicalResult AllSliceOp::verify() {
  return verifyTensorAxis(*this, "slice_axis", getSliceAxis().getSExtValue(),
                          getInput().getType());
}

LogicalResult AllSliceOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<CollectiveMesh> cm = verifyCollectiveSymbolUses(*this, st);
  if (failed(cm))
    return failure();
  return verifyScaledResult(*this, *cm, getSliceAxis().getSExtValue(),
                            /*multiply=*/false);
}

LogicalResult AllToAllOp::verify() {
  if (failed(verifyTensorAxis(*this, "split_axis",
                              getSplitAxis().getSExtValue(),
                              getInput().getType())))
    return failure();
  return verifyTensorAxis(*this, "concat_axis", getConcatAxis().getSExtValue(),
                          getInput().getType());
}

LogicalResult AllToAllOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<CollectiveMesh> cm = verifyCollectiveSymbolUses(*this, st);
  if (failed(cm))
    return failure();
  FailureOr<SmallVector<int64_t>> split =
      scaleDim(*this, getInput().getType().getShape(),
               getSplitAxis().getSExtValue(), cm->groupSize, false);
  if (failed(split))
    return failure();
  FailureOr<SmallVector<int64_t>> expected = scaleDim(
      *this, *split, getConcatAxis().getSExtValue(), cm->groupSize, true);
  if (failed(expected))
    return failure();
  return verifyResultShape(*this, *expected, getResult().getType(),
                           cm->groupSize);
}

LogicalResult ReduceScatterOp::verify() {
  return verifyTensorAxis(*this, "scatter_axis",
                          getScatterAxis().getSExtValue(),
                          getInput().getType());
}

LogicalResult ReduceScatterOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<CollectiveMesh> cm = verifyCollectiveSymbolUses(*this, st);
  if (failed(cm))
    return failure();
  return verifyScaledResult(*this, *cm, getScatterAxis().getSExtValue(),
                            /*multiply=*/false);
}

namespace {
/// gather and scatter: a tensor axis and a root device in each group; the
/// result scales the axis by the group size (gather multiplies, scatter
/// divides).
template <typename OpTy>
LogicalResult verifyRootedAxisOp(OpTy op, StringRef axisName, int64_t axis) {
  if (failed(verifyTensorAxis(op, axisName, axis, op.getInput().getType())) ||
      failed(verifySameElementTypeAndRank(op, op.getInput().getType(),
                                          op.getResult().getType())) ||
      failed(verifyDynamicCount(op, "root", op.getRoot(),
                                op.getRootDynamic().size())))
    return failure();
  return verifyInGroupDevice(op, "root", op.getRoot(), op.getMeshAxes());
}

template <typename OpTy>
LogicalResult verifyRootedAxisSymbolUses(OpTy op, SymbolTableCollection &st,
                                         int64_t axis, bool multiply) {
  FailureOr<CollectiveMesh> cm = verifyCollectiveSymbolUses(op, st);
  if (failed(cm) || failed(verifyInGroupDevice(op, "root", op.getRoot(),
                                               op.getMeshAxes(), cm->mesh)))
    return failure();
  return verifyScaledResult(op, *cm, axis, multiply);
}
} // namespace

LogicalResult GatherOp::verify() {
  return verifyRootedAxisOp(*this, "gather_axis",
                            getGatherAxis().getSExtValue());
}

LogicalResult GatherOp::verifySymbolUses(SymbolTableCollection &st) {
  return verifyRootedAxisSymbolUses(*this, st, getGatherAxis().getSExtValue(),
                                    /*multiply=*/true);
}

LogicalResult ScatterOp::verify() {
  return verifyRootedAxisOp(*this, "scatter_axis",
                            getScatterAxis().getSExtValue());
}

LogicalResult ScatterOp::verifySymbolUses(SymbolTableCollection &st) {
  return verifyRootedAxisSymbolUses(*this, st,
                                    getScatterAxis().getSExtValue(),
                                    /*multiply=*/false);
}

//===----------------------------------------------------------------------===//
// all_reduce, reduce, broadcast
//===----------------------------------------------------------------------===//

LogicalResult AllReduceOp::verifySymbolUses(SymbolTableCollection &st) {
  return verifyCollectiveSymbolUses(*this, st);
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyDynamicCount(*this, "root", getRoot(),
                                getRootDynamic().size())) ||
      failed(verifyInGroupDevice(*this, "root", getRoot(), getMeshAxes())))
    return failure();
  // The element type is the accumulation type and may differ; the shape not.
  return verifyResultShape(*this, getInput().getType().getShape(),
                           getResult().getType(), ShapedType::kDynamic);
}

LogicalResult ReduceOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<CollectiveMesh> cm = verifyCollectiveSymbolUses(*this, st);
  if (failed(cm))
    return failure();
  return verifyInGroupDevice(*this, "root", getRoot(), getMeshAxes(),
                             cm->mesh);
}

LogicalResult BroadcastOp::verify() {
  if (failed(verifyDynamicCount(*this, "root", getRoot(),
                                getRootDynamic().size())) ||
      failed(verifyInGroupDevice(*this, "root", getRoot(), getMeshAxes())) ||
      failed(verifySameElementTypeAndRank(*this, getInput().getType(),
                                          getResult().getType())))
    return failure();
  return verifyResultShape(*this, getInput().getType().getShape(),
                           getResult().getType(), ShapedType::kDynamic);
}

LogicalResult BroadcastOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<CollectiveMesh> cm = verifyCollectiveSymbolUses(*this, st);
  if (failed(cm))
    return failure();
  return verifyInGroupDevice(*this, "root", getRoot(), getMeshAxes(),
                             cm->mesh);
}

//===----------------------------------------------------------------------===//
// send, recv, shift
//===----------------------------------------------------------------------===//

LogicalResult SendOp::verify() {
  if (failed(verifyDynamicCount(*this, "destination", getDestination(),
                                getDestinationDynamic().size())))
    return failure();
  return verifyInGroupDevice(*this, "destination", getDestination(),
                             getMeshAxes());
}

LogicalResult SendOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<CollectiveMesh> cm = verifyCollectiveSymbolUses(*this, st);
  if (failed(cm))
    return failure();
  return verifyInGroupDevice(*this, "destination", getDestination(),
                             getMeshAxes(), cm->mesh);
}

LogicalResult RecvOp::verify() {
  std::optional<ArrayRef<int64_t>> source = getSource();
  if (!source) {
    if (!getSourceDynamic().empty())
      return emitOpError("source: 0 dynamic ('?') entries != ")
             << getSourceDynamic().size() << " dynamic operands";
    return success();
  }
  if (failed(verifyDynamicCount(*this, "source", *source,
                                getSourceDynamic().size())))
    return failure();
  return verifyInGroupDevice(*this, "source", *source, getMeshAxes());
}

LogicalResult RecvOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<CollectiveMesh> cm = verifyCollectiveSymbolUses(*this, st);
  if (failed(cm))
    return failure();
  if (std::optional<ArrayRef<int64_t>> source = getSource())
    return verifyInGroupDevice(*this, "source", *source, getMeshAxes(),
                               cm->mesh);
  return success();
}

LogicalResult ShiftOp::verify() {
  int64_t shiftAxis = getShiftAxis().getSExtValue();
  if (!llvm::any_of(getMeshAxes(),
                    [&](MeshAxis axis) { return axis == shiftAxis; })) {
    InFlightDiagnostic diag = emitOpError()
                              << "shift_axis " << shiftAxis
                              << " is not one of mesh_axes [";
    llvm::interleaveComma(getMeshAxes(), diag);
    return diag << "]";
  }
  return success();
}

LogicalResult ShiftOp::verifySymbolUses(SymbolTableCollection &st) {
  return verifyCollectiveSymbolUses(*this, st);
}
