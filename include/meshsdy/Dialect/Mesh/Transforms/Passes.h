//===- Passes.h - mesh dialect passes ---------------------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_MESH_TRANSFORMS_PASSES_H
#define MESHSDY_DIALECT_MESH_TRANSFORMS_PASSES_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mlir::mesh {

/// Order of the two directions of sharding propagation.
enum class TraversalOrder { Forward, Backward, ForwardBackward, BackwardForward };

/// The option spelling of `order` (`forward-backward`, ...).
StringRef stringifyTraversalOrder(TraversalOrder order);

#define GEN_PASS_DECL
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_TRANSFORMS_PASSES_H
