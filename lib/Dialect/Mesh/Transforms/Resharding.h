//===- Resharding.h - collectives between two shardings ---------*- C++ -*-===//

#ifndef MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_RESHARDING_H
#define MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_RESHARDING_H

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "mlir/IR/Builders.h"

namespace mlir::mesh {

/// Emits the collectives that turn `local`, the per-device piece of a tensor
/// of type `global` sharded as `from`, into its piece under `to`. A null
/// sharding is replicated. Walks the difference between the two, in order:
///   1. partial axes `to` no longer has are reduced: with `reduce_scatter` if
///      `to` splits exactly one dimension further over exactly those axes,
///      else with `all_reduce`;
///   2. a trailing axis that leaves dimension `i` and is appended to
///      dimension `j` moves with one `all_to_all`;
///   3. trailing axes `to` does not keep on a dimension are gathered
///      (`all_gather`, innermost axes first);
///   4. axes `to` appends to a dimension are sliced (`all_slice`).
/// After step k every dimension's axes are a prefix of the target's, so each
/// step only shortens or only lengthens lists. A sharding with halos is
/// reached from the same split without them (pad, then `update_halo`) and
/// left through it (slice out the core). Dimensions whose pieces differ in
/// size between devices (offsets, sizes that do not divide) are gathered
/// whole first (pad to the largest piece, `all_gather`, cut and concatenate)
/// and sliced last (each device cuts its piece at its offset); the rest is
/// resharded as above. A static `tensor.empty` holds no values: it becomes
/// an empty tensor of the target's per-device shape, without collectives;
/// so does a `linalg.fill` of a scalar, filled again, when neither sharding
/// is partial and `to` has no halos.
FailureOr<Value> reshard(OpBuilder &builder, Location loc, MeshOp mesh,
                         Value local, RankedTensorType global,
                         const MeshSharding &from, const MeshSharding &to);

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_RESHARDING_H
