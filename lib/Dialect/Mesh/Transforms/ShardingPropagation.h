//===- ShardingPropagation.h - propagation of one function ------*- C++ -*-===//
//
// The body of mesh-sharding-propagation, shared with the module-level pass
// that runs it over functions, callees first.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_SHARDINGPROPAGATION_H
#define MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_SHARDINGPROPAGATION_H

#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"

namespace mlir::mesh {

/// What one propagation added to a function.
struct PropagationCounts {
  unsigned annotations = 0;
  /// Ops replicated for lack of a ShardingInterface model.
  unsigned replicatedOps = 0;
  /// Op visits after the first of each phase.
  unsigned revisits = 0;
};

/// Propagates the shardings of the mesh.shard annotations of `func` and
/// annotates all its tensors (see the description of
/// mesh-sharding-propagation). Fails, with an error, on annotations it cannot
/// read. A function without a body is left alone. With `recordOrigins`,
/// the annotations it adds get locations naming where their sharding came
/// from (option debug-sharding-origins).
FailureOr<PropagationCounts> propagateShardings(FunctionOpInterface func,
                                                TraversalOrder traversal,
                                                bool recordOrigins = false);

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_SHARDINGPROPAGATION_H
