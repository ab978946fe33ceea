//===- WidenI1.h - store i1 buffers as bytes --------------------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_WIDENI1_WIDENI1_H
#define MESHSDY_CONVERSION_WIDENI1_WIDENI1_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::meshsdy {
#define GEN_PASS_DECL_WIDENI1MEMREFSPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_WIDENI1_WIDENI1_H
