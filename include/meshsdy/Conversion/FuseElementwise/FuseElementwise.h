//===- FuseElementwise.h - fusion that keeps contractions -------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_FUSEELEMENTWISE_FUSEELEMENTWISE_H
#define MESHSDY_CONVERSION_FUSEELEMENTWISE_FUSEELEMENTWISE_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::meshsdy {
#define GEN_PASS_DECL_FUSEELEMENTWISEAROUNDCONTRACTIONSPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_FUSEELEMENTWISE_FUSEELEMENTWISE_H
