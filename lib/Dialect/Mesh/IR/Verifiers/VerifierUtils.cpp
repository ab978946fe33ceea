//===- VerifierUtils.cpp - checks shared by the mesh verifiers ------------===//

#include "VerifierUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mesh;

LogicalResult mesh::verifier::verifyMeshAxesUnique(Operation *op, StringRef name,
                                           ArrayRef<MeshAxis> axes) {
  llvm::SmallSet<MeshAxis, 8> seen;
  for (MeshAxis axis : axes) {
    if (axis < 0)
      return op->emitOpError() << name << ": mesh axis " << axis
                               << " is negative";
    if (!seen.insert(axis).second)
      return op->emitOpError() << name << ": mesh axis " << axis
                               << " appears more than once";
  }
  return success();
}

LogicalResult mesh::verifier::verifyMeshAxesInMesh(Operation *op, StringRef name,
                                           ArrayRef<MeshAxis> axes,
                                           MeshOp mesh) {
  if (failed(verifyMeshAxesUnique(op, name, axes)))
    return failure();
  int64_t rank = mesh.getRank();
  for (MeshAxis axis : axes)
    if (axis >= rank)
      return op->emitOpError()
             << name << ": mesh axis " << axis << " is out of range [0, "
             << rank << ") of mesh @" << mesh.getSymName();
  return success();
}

LogicalResult mesh::verifier::verifyTensorAxis(Operation *op, StringRef name,
                                       int64_t axis, ShapedType type) {
  int64_t rank = type.getRank();
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << name << " " << axis
                             << " is out of range [0, " << rank
                             << ") of the input tensor";
  return success();
}

LogicalResult mesh::verifier::verifyDynamicCount(Operation *op, StringRef name,
                                         ArrayRef<int64_t> staticValues,
                                         size_t numDynamic) {
  size_t numMarked = llvm::count_if(staticValues, ShapedType::isDynamic);
  if (numMarked != numDynamic)
    return op->emitOpError()
           << name << ": " << numMarked << " dynamic ('?') entries != "
           << numDynamic << " dynamic operands";
  return success();
}

LogicalResult mesh::verifier::verifyInGroupDevice(Operation *op, StringRef name,
                                          ArrayRef<int64_t> coords,
                                          ArrayRef<MeshAxis> meshAxes,
                                          MeshOp mesh) {
  if (coords.size() != meshAxes.size())
    return op->emitOpError()
           << name << ": " << coords.size() << " indices != "
           << meshAxes.size() << " (one per mesh axis in mesh_axes)";
  for (auto [coord, axis] : llvm::zip_equal(coords, meshAxes)) {
    if (ShapedType::isDynamic(coord))
      continue;
    int64_t size = ShapedType::kDynamic;
    if (mesh && axis >= 0 && axis < mesh.getRank())
      size = mesh.getShape()[axis];
    if (coord < 0 || (!ShapedType::isDynamic(size) && coord >= size)) {
      InFlightDiagnostic diag = op->emitOpError()
                                << name << ": index " << coord
                                << " for mesh axis " << axis
                                << " is out of range";
      if (!ShapedType::isDynamic(size))
        diag << " [0, " << size << ")";
      return diag;
    }
  }
  return success();
}

LogicalResult mesh::verifier::verifyResultShape(Operation *op,
                                        ArrayRef<int64_t> expected,
                                        ShapedType actual, int64_t groupSize) {
  if (static_cast<int64_t>(expected.size()) != actual.getRank())
    return op->emitOpError() << "result rank " << actual.getRank()
                             << " != input rank " << expected.size();
  for (auto [dim, want, got] :
       llvm::enumerate(expected, actual.getShape())) {
    if (ShapedType::isDynamic(want) || ShapedType::isDynamic(got) ||
        want == got)
      continue;
    InFlightDiagnostic diag = op->emitOpError()
                              << "result dimension " << dim << " size " << got
                              << " != expected " << want;
    if (!ShapedType::isDynamic(groupSize))
      diag << " (group size " << groupSize << ")";
    return diag;
  }
  return success();
}

FailureOr<SmallVector<int64_t>> mesh::verifier::scaleDim(Operation *op,
                                                 ArrayRef<int64_t> shape,
                                                 int64_t axis,
                                                 int64_t groupSize,
                                                 bool multiply) {
  SmallVector<int64_t> result(shape);
  if (axis < 0 || axis >= static_cast<int64_t>(shape.size()))
    return result; // Reported by the op's own verifier.
  int64_t &size = result[axis];
  if (ShapedType::isDynamic(size) || ShapedType::isDynamic(groupSize) ||
      groupSize <= 0) {
    size = ShapedType::kDynamic;
    return result;
  }
  if (multiply) {
    if (llvm::MulOverflow(size, groupSize, size))
      size = ShapedType::kDynamic;
    return result;
  }
  if (size % groupSize != 0)
    return op->emitOpError() << "input dimension " << axis << " size " << size
                             << " is not divisible by group size "
                             << groupSize;
  size /= groupSize;
  return result;
}

LogicalResult mesh::verifier::verifySameElementTypeAndRank(Operation *op,
                                                   ShapedType input,
                                                   ShapedType result) {
  if (input.getElementType() != result.getElementType())
    return op->emitOpError()
           << "result element type " << result.getElementType()
           << " != input element type " << input.getElementType();
  if (input.getRank() != result.getRank())
    return op->emitOpError() << "result rank " << result.getRank()
                             << " != input rank " << input.getRank();
  return success();
}
