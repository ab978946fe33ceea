//===- StablehloToMesh.h - StableHLO collectives to mesh --------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_STABLEHLOTOMESH_STABLEHLOTOMESH_H
#define MESHSDY_CONVERSION_STABLEHLOTOMESH_STABLEHLOTOMESH_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::meshsdy {
#define GEN_PASS_DECL_CONVERTSTABLEHLOCOLLECTIVESTOMESHPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_STABLEHLOTOMESH_STABLEHLOTOMESH_H
