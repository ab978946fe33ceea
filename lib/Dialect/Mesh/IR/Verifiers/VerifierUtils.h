//===- VerifierUtils.h - checks shared by the mesh verifiers ----*- C++ -*-===//
//
// Private to lib/Dialect/Mesh/IR/Verifiers. Every function emits an op error
// (lowercase, no trailing period, "actual != expected") and fails on the
// first violation; none of them asserts on malformed IR.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_MESH_IR_VERIFIERS_VERIFIERUTILS_H
#define MESHSDY_LIB_DIALECT_MESH_IR_VERIFIERS_VERIFIERUTILS_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"

namespace mlir::mesh::verifier {

/// `name` lists mesh axes that are all inside `mesh` and none repeated.
/// "mesh_axes: mesh axis 2 is out of range [0, 2) of mesh @mesh0"
LogicalResult verifyMeshAxesInMesh(Operation *op, StringRef name,
                                   ArrayRef<MeshAxis> axes, MeshOp mesh);

/// `name` lists no negative and no repeated mesh axis (no mesh needed).
LogicalResult verifyMeshAxesUnique(Operation *op, StringRef name,
                                   ArrayRef<MeshAxis> axes);

/// A tensor axis attribute (`gather_axis` ...) is a dimension of `type`.
LogicalResult verifyTensorAxis(Operation *op, StringRef name, int64_t axis,
                               ShapedType type);

/// The number of `?` in `staticValues` equals the number of dynamic operands.
LogicalResult verifyDynamicCount(Operation *op, StringRef name,
                                 ArrayRef<int64_t> staticValues,
                                 size_t numDynamic);

/// An in-group device (`root`, `source`, `destination`) has one coordinate
/// per mesh axis; with `mesh`, every static coordinate is inside its axis.
LogicalResult verifyInGroupDevice(Operation *op, StringRef name,
                                  ArrayRef<int64_t> coords,
                                  ArrayRef<MeshAxis> meshAxes,
                                  MeshOp mesh = nullptr);

/// `actual` agrees with `expected` wherever both are static.
/// "result dimension 1 size 3 != expected 4 (group size 2)"
LogicalResult verifyResultShape(Operation *op, ArrayRef<int64_t> expected,
                                ShapedType actual, int64_t groupSize);

/// Multiplies (`multiply`) or divides (checking divisibility) dimension
/// `axis` of `shape` by `groupSize`; dynamic stays dynamic.
FailureOr<SmallVector<int64_t>> scaleDim(Operation *op,
                                         ArrayRef<int64_t> shape, int64_t axis,
                                         int64_t groupSize, bool multiply);

/// Input and result have the same element type and rank.
LogicalResult verifySameElementTypeAndRank(Operation *op, ShapedType input,
                                           ShapedType result);

} // namespace mlir::mesh::verifier

#endif // MESHSDY_LIB_DIALECT_MESH_IR_VERIFIERS_VERIFIERUTILS_H
