//===- StablehloToScf.h - StableHLO control flow to scf ---------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_STABLEHLOTOSCF_STABLEHLOTOSCF_H
#define MESHSDY_CONVERSION_STABLEHLOTOSCF_STABLEHLOTOSCF_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::meshsdy {
#define GEN_PASS_DECL_CONVERTSTABLEHLOCONTROLFLOWTOSCFPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_STABLEHLOTOSCF_STABLEHLOTOSCF_H
