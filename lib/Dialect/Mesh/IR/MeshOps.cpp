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
