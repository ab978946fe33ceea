//===- ShardShape.h - shard_shape across shard and mesh ---------*- C++ -*-===//
//
// `shard.shard_shape` names its device by a multi-index (one index per grid
// axis) and takes dynamic dimensions as values; `mesh.shard_shape` takes a
// linear device index and static dimensions. And the two lowerings split an
// uneven dimension differently: upstream gives the extra elements to the last
// shards, mesh to the first. So an op converts only where both mean the same
// thing, and its device index is linearised or split on the way.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_CONVERSION_SHARDMESH_SHARDSHAPE_H
#define MESHSDY_LIB_CONVERSION_SHARDMESH_SHARDSHAPE_H

#include "DialectMapping.h"

namespace mlir::meshsdy::shardmesh {

/// Emits an "unsupported by <pass>" error on the `shard_shape` op `op` (of
/// the source dialect of `direction`) and fails if its counterpart would not
/// mean the same: dynamic dimensions (shard) or `?` ones (mesh), a device
/// index that does not fit the grid, a sharding not defined by a sharding op
/// of the source dialect, halos, or a dimension split unevenly over a group
/// of devices without `sharded_dims_offsets`.
LogicalResult checkShardShape(Direction direction, Operation *op);

/// Builds, before `op` (a `shard_shape` that checkShardShape accepted), its
/// counterpart, and returns it. A static device becomes a static one, the
/// full `process_multi_index` <-> `process_linear_index`, any other device
/// index is linearised or split with `arith` ops (the grid's sizes from
/// `mesh_shape` / `grid_shape` when dynamic). Ops whose only use was the
/// device and may now be dead are appended to `maybeDead`.
Operation *convertShardShape(Direction direction, OpBuilder &builder,
                             Operation *op,
                             SmallVectorImpl<Operation *> &maybeDead);

} // namespace mlir::meshsdy::shardmesh

#endif // MESHSDY_LIB_CONVERSION_SHARDMESH_SHARDSHAPE_H
