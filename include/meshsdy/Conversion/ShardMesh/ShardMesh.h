//===- ShardMesh.h - upstream shard <-> mesh conversions --------*- C++ -*-===//
//
// `convert-shard-to-mesh` and `convert-mesh-to-shard`: upstream MLIR 22's
// `shard` dialect to meshsdy's `mesh` and back, by one op/attribute mapping.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_CONVERSION_SHARDMESH_SHARDMESH_H
#define MESHSDY_CONVERSION_SHARDMESH_SHARDMESH_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::meshsdy {
#define GEN_PASS_DECL_CONVERTSHARDTOMESHPASS
#define GEN_PASS_DECL_CONVERTMESHTOSHARDPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_SHARDMESH_SHARDMESH_H
