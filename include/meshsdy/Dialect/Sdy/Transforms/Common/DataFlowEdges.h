//===- DataFlowEdges.h - add and sink sdy.data_flow_edge ops ----*- C++ -*-===//
//
// The import stage puts an `sdy.data_flow_edge` on every edge owner of a
// data-flow op so that propagation keeps each edge's sharding apart; the
// export stage moves those shardings back onto the op. Both the dedicated
// passes and the passes that create or remove data-flow ops (func calls,
// named computations) use these helpers.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_COMMON_DATAFLOWEDGES_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_COMMON_DATAFLOWEDGES_H

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"

namespace mlir::sdy {

/// Adds an `sdy.data_flow_edge` on every ranked-tensor edge owner of `op`
/// that has none, holding the owner's current sharding.
void addDataFlowEdges(ShardableDataFlowOpInterface op);

/// Which debug information sinking keeps on the data-flow op.
struct SinkDebugOptions {
  bool shardingOrigins = false;
  bool propagationEdges = false;
};

/// Moves the shardings of the `sdy.data_flow_edge` ops of `op` onto `op` and
/// replaces each edge op with its input.
void sinkDataFlowEdges(ShardableDataFlowOpInterface op,
                       SinkDebugOptions debug = {});

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_COMMON_DATAFLOWEDGES_H
