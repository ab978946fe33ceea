//===- Passes.h - sdy propagation passes ----------------------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PASSES_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PASSES_H

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/PropagationDriver.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mlir::sdy {

#define GEN_PASS_DECL
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h.inc"

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PASSES_H
