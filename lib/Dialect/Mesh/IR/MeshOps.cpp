//===- MeshOps.cpp - mesh dialect operations ------------------------------===//

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::mesh;

//===----------------------------------------------------------------------===//
// custom<DimensionList>: `2x?x4`, as in a tensor shape.
//===----------------------------------------------------------------------===//

static ParseResult parseDimensionList(OpAsmParser &parser,
                                      DenseI64ArrayAttr &dims) {
  SmallVector<int64_t> sizes;
  // An empty list is accepted here and rejected by the verifiers, which can
  // say precisely what is wrong with it.
  if (failed(parser.parseDimensionList(sizes, /*allowDynamic=*/true,
                                       /*withTrailingX=*/false)))
    return failure();
  dims = parser.getBuilder().getDenseI64ArrayAttr(sizes);
  return success();
}

static void printDimensionList(OpAsmPrinter &printer, Operation *,
                               DenseI64ArrayAttr dims) {
  llvm::interleave(
      dims.asArrayRef(), printer.getStream(),
      [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          printer << '?';
        else
          printer << size;
      },
      "x");
}

//===----------------------------------------------------------------------===//
// mesh.mesh
//===----------------------------------------------------------------------===//

LogicalResult MeshOp::verify() {
  ArrayRef<int64_t> shape = getShape();
  if (shape.empty())
    return emitOpError("expected a mesh of rank >= 1, got rank 0");
  for (auto [axis, size] : llvm::enumerate(shape)) {
    if (ShapedType::isDynamic(size) || size > 0)
      continue;
    return emitOpError("axis ")
           << axis << " must have a positive or dynamic size, got " << size;
  }
  return success();
}

#define GET_OP_CLASSES
#include "meshsdy/Dialect/Mesh/IR/MeshOps.cpp.inc"
