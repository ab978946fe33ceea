//===- Passes.h - sdy export passes ----------------------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_PASSES_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_PASSES_H

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mlir::sdy {

#define GEN_PASS_DECL
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_PASSES_H
