//===- DebugNames.h - names of propagation's debug attributes --*- C++ -*-===//
//
// Propagation saves its debug information under these attribute names (see
// lib/Dialect/Sdy/Transforms/Propagation/DebugInfo.h); the export stage moves
// or removes them.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_DEBUGNAMES_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_DEBUGNAMES_H

#include "llvm/ADT/StringRef.h"

namespace mlir::sdy {

/// The attribute names Shardy uses for debug information.
inline constexpr llvm::StringLiteral kShardingOriginsAttr = "sdy.sharding_origins";
inline constexpr llvm::StringLiteral kPropagationEdgesAttr = "sdy.propagation_edges";
inline constexpr llvm::StringLiteral kShardingOriginNameAttr =
    "sdy.sharding_origin_name";
/// Where the debug information of the edges of a data-flow op without
/// `sdy.data_flow_edge` ops goes: one entry per block-argument or result
/// edge owner (what Shardy's export sinks from the edge ops).
inline constexpr llvm::StringLiteral kBlockArgShardingOriginsAttr =
    "sdy.block_arg_sharding_origins";
inline constexpr llvm::StringLiteral kResultShardingOriginsAttr =
    "sdy.result_sharding_origins";
inline constexpr llvm::StringLiteral kBlockArgPropagationEdgesAttr =
    "sdy.block_arg_propagation_edges";
inline constexpr llvm::StringLiteral kResultPropagationEdgesAttr =
    "sdy.result_propagation_edges";

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_DEBUGNAMES_H
