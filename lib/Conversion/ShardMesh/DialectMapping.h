//===- DialectMapping.h - the shard <-> mesh mapping, written once -*- C++ -*-//
//
// Upstream's `shard` dialect and meshsdy's `mesh` dialect describe the same
// things under other names. This header holds the one mapping between them
// (op names, attribute names, attribute and type values), read in either
// direction, and the generic rewrite of an op by it.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_CONVERSION_SHARDMESH_DIALECTMAPPING_H
#define MESHSDY_LIB_CONVERSION_SHARDMESH_DIALECTMAPPING_H

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace mlir::meshsdy::shardmesh {

/// Which way a conversion goes.
enum class Direction { ShardToMesh, MeshToShard };

/// The pass flag of `direction` ("convert-shard-to-mesh"), for messages.
StringRef passName(Direction direction);

/// The dialect the ops of `direction` come from ("shard" or "mesh").
StringRef sourceDialect(Direction direction);

/// The name of the op that `sourceOp` (e.g. "shard.grid") becomes
/// ("mesh.mesh"); empty when it has no counterpart. Ops whose operands differ
/// (`shard_shape`, `get_sharding`) are listed too: they need more than the
/// generic rewrite (see ShardShape.h).
StringRef targetOpName(Direction direction, StringRef sourceOp);

/// The name an inherent attribute `name` takes in the target op ("grid" <->
/// "mesh", "grid_axes" <-> "mesh_axes"; every other name is kept).
StringRef targetAttrName(Direction direction, StringRef name);

/// Replaces the source dialect's attributes and types, wherever they are
/// nested, by the target's: `#shard.axisarray` <-> `#mesh.axisarray` (an empty
/// array becomes `[[]]` for mesh), the reduction kinds and `!shard.sharding`
/// <-> `!mesh.sharding`. The target dialect must be loaded.
AttrTypeReplacer makeReplacer(Direction direction, MLIRContext *ctx);

/// The inherent attributes of `op` that the target op has no counterpart for
/// (e.g. `partial_axes` of a `mesh.sharding` for upstream); empty if none.
SmallVector<StringRef> attributesWithoutCounterpart(Direction direction,
                                                    Operation *op);

/// Builds, before `op`, the op `op` becomes: same operands and locations,
/// renamed and converted attributes (inherent and discardable), converted
/// result types. Does not touch `op`. Only for ops with a counterpart whose
/// operands are the same (not `shard_shape`, `get_sharding`).
Operation *rebuild(Direction direction, OpBuilder &builder, Operation *op,
                   AttrTypeReplacer &replacer);

} // namespace mlir::meshsdy::shardmesh

#endif // MESHSDY_LIB_CONVERSION_SHARDMESH_DIALECTMAPPING_H
