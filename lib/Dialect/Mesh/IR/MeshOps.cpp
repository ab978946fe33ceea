//===- MeshOps.cpp - mesh dialect operations ------------------------------===//
//
// Op definitions, custom assembly directives and result names. Verifiers live
// in Verifiers/, folders and canonicalization in MeshCanonicalization.cpp.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mesh;

//===----------------------------------------------------------------------===//
// custom<DimensionList>: `2x?x4`, as in a tensor shape.
//===----------------------------------------------------------------------===//

namespace mlir::mesh::detail {

/// Parses `2x?x4` by hand: AsmParser::parseDimensionList asserts on some
/// malformed input (`2xaxes`). The lexer reads `2x?x4` as `2`, `x`, `?`,
/// `x4`: a size is an integer or `?`, and the words between sizes start with
/// `x` and may carry more sizes (`x4x8`).
ParseResult parseDimensionList(OpAsmParser &parser, DenseI64ArrayAttr &dims) {
  SmallVector<int64_t> sizes;
  auto parseSize = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalQuestion())) {
      sizes.push_back(ShapedType::kDynamic);
      return success();
    }
    SMLoc start = parser.getCurrentLocation();
    int64_t size;
    OptionalParseResult integer = parser.parseOptionalInteger(size);
    if (!integer.has_value())
      return parser.emitError(start, "expected a mesh axis size or '?'");
    if (failed(*integer))
      return failure();
    // `0x4` lexes as a hexadecimal integer; in a shape it is 0, then 4.
    StringRef spelling(start.getPointer(),
                       parser.getCurrentLocation().getPointer() -
                           start.getPointer());
    spelling = spelling.trim();
    if (spelling.size() > 2 && spelling[0] == '0' &&
        (spelling[1] == 'x' || spelling[1] == 'X')) {
      sizes.push_back(0);
      int64_t next;
      if (spelling.drop_front(2).getAsInteger(10, next))
        return parser.emitError(start, "invalid mesh axis size '")
               << spelling.drop_front(2) << "'";
      sizes.push_back(next);
      return success();
    }
    sizes.push_back(size);
    return success();
  };
  if (failed(parseSize()))
    return failure();
  while (true) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef word;
    if (failed(parser.parseOptionalKeyword(&word)))
      break;
    if (!word.consume_front("x"))
      return parser.emitError(loc, "expected 'x' between mesh axis sizes");
    SmallVector<StringRef> parts;
    word.split(parts, 'x');
    for (auto [i, part] : llvm::enumerate(parts)) {
      if (part.empty() && i + 1 == parts.size()) {
        if (failed(parseSize())) // `x` then `?`
          return failure();
        continue;
      }
      int64_t size;
      if (part.empty() || part.getAsInteger(10, size))
        return parser.emitError(loc, "invalid mesh axis size '") << part << "'";
      sizes.push_back(size);
    }
  }
  dims = parser.getBuilder().getDenseI64ArrayAttr(sizes);
  return success();
}

void printDimensionList(OpAsmPrinter &printer, Operation *,
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

} // namespace mlir::mesh::detail

//===----------------------------------------------------------------------===//
// mesh.mesh
//===----------------------------------------------------------------------===//

int64_t MeshOp::getNumDevices() {
  int64_t count = 1;
  for (int64_t size : getShape()) {
    if (ShapedType::isDynamic(size) || llvm::MulOverflow(count, size, count))
      return ShapedType::kDynamic;
  }
  return count;
}

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
  // Device ids are int64: the static axes must multiply without overflow.
  int64_t devices = 1;
  for (int64_t size : shape) {
    if (ShapedType::isDynamic(size))
      continue;
    if (llvm::MulOverflow(devices, size, devices))
      return emitOpError("has more devices than an int64 can count: the "
                         "product of its static axis sizes overflows");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Result names
//===----------------------------------------------------------------------===//

void MeshShapeOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (!getResult().empty())
    setNameFn(getResult().front(), "mesh_shape");
}

void ProcessMultiIndexOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (!getResult().empty())
    setNameFn(getResult().front(), "proc_multi_idx");
}

void ProcessLinearIndexOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "proc_linear_idx");
}

void NeighborsLinearIndicesOp::getAsmResultNames(
    OpAsmSetValueNameFn setNameFn) {
  setNameFn(getNeighborDown(), "down_ids");
  setNameFn(getNeighborUp(), "up_ids");
}

void ShardingOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "sharding");
}

void ShardOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "sharded");
}

#define MESH_COLLECTIVE_RESULT_NAME(OpT, name)                                 \
  void OpT::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {                 \
    setNameFn(getResult(), name);                                              \
  }
MESH_COLLECTIVE_RESULT_NAME(AllGatherOp, "all_gather")
MESH_COLLECTIVE_RESULT_NAME(AllReduceOp, "all_reduce")
MESH_COLLECTIVE_RESULT_NAME(AllSliceOp, "all_slice")
MESH_COLLECTIVE_RESULT_NAME(AllToAllOp, "all_to_all")
MESH_COLLECTIVE_RESULT_NAME(BroadcastOp, "broadcast")
MESH_COLLECTIVE_RESULT_NAME(GatherOp, "gather")
MESH_COLLECTIVE_RESULT_NAME(RecvOp, "recv")
MESH_COLLECTIVE_RESULT_NAME(ReduceOp, "reduce")
MESH_COLLECTIVE_RESULT_NAME(ReduceScatterOp, "reduce_scatter")
MESH_COLLECTIVE_RESULT_NAME(ScatterOp, "scatter")
MESH_COLLECTIVE_RESULT_NAME(SendOp, "send")
MESH_COLLECTIVE_RESULT_NAME(ShiftOp, "shift")
#undef MESH_COLLECTIVE_RESULT_NAME

#define GET_OP_CLASSES
#include "meshsdy/Dialect/Mesh/IR/MeshOps.cpp.inc"
