//===- SdyOps.h - sdy dialect operations ------------------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_SDY_IR_SDYOPS_H
#define MESHSDY_DIALECT_SDY_IR_SDYOPS_H

#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "meshsdy/Dialect/Sdy/IR/SdyDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::sdy {
/// The verifier shared by all collectives (CollectiveOpInterface::verify).
LogicalResult verifyCollectiveOp(Operation *op);
} // namespace mlir::sdy

#include "meshsdy/Dialect/Sdy/IR/SdyInterfaces.h.inc"

#define GET_OP_CLASSES
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h.inc"

#endif // MESHSDY_DIALECT_SDY_IR_SDYOPS_H
