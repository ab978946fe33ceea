//===- SdyToMesh.h - sdy to mesh bridge -------------------------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_SDYTOMESH_SDYTOMESH_H
#define MESHSDY_CONVERSION_SDYTOMESH_SDYTOMESH_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::meshsdy {
#define GEN_PASS_DECL_CONVERTSDYTOMESHPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_SDYTOMESH_SDYTOMESH_H
