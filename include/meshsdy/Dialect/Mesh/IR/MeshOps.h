//===- MeshOps.h - mesh dialect operations ----------------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_MESH_IR_MESHOPS_H
#define MESHSDY_DIALECT_MESH_IR_MESHOPS_H

#include "meshsdy/Dialect/Mesh/IR/MeshAttrs.h"
#include "meshsdy/Dialect/Mesh/IR/MeshDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::mesh {
namespace detail {
/// custom<DimensionList>: a shape such as `2x?x4` (`?` is dynamic). Never
/// asserts on malformed input.
ParseResult parseDimensionList(OpAsmParser &parser, DenseI64ArrayAttr &dims);
void printDimensionList(OpAsmPrinter &printer, Operation *op,
                        DenseI64ArrayAttr dims);
} // namespace detail
class MeshSharding; // MeshSharding.h; ShardingOp has a builder taking one.
} // namespace mlir::mesh

#define GET_OP_CLASSES
#include "meshsdy/Dialect/Mesh/IR/MeshOps.h.inc"

#endif // MESHSDY_DIALECT_MESH_IR_MESHOPS_H
