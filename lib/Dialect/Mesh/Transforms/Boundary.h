//===- Boundary.h - the sharding contract of a partitioned function -*- C++ -*-===//
//
// After mesh-spmdization a function takes and returns per-device pieces;
// how the pieces make the global tensors was decided by propagation (also
// for arguments the user did not annotate) and is otherwise lost. The pass
// records it on the function as `mesh.boundary`, so that whoever feeds the
// function (the simulator, meshsdy.run, a user's driver) can shard inputs
// and assemble outputs:
//
//   func.func @f(...) attributes {mesh.boundary = {
//       arguments = [{global_type = tensor<8x8xf32>, mesh = @mesh,
//                     split_axes = [array<i16: 0>]}, ...],
//       results = [{global_type = ..., mesh = @mesh, split_axes = [],
//                   partial_axes = array<i16: 1>, partial_type = "sum"}]}}
//
// One entry per argument and result: `global_type` for a tensor (absent for
// other types), and, for a sharded one, `mesh`, `split_axes` (one i16 array
// per tensor dimension), and where present `partial_axes` with
// `partial_type`, `halo_sizes` or `sharded_dims_offsets` (static values).
// An entry without `mesh` is replicated. Documented in docs/spmd.md.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_BOUNDARY_H
#define MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_BOUNDARY_H

#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::mesh {

/// The attribute's name on the function.
constexpr StringLiteral kBoundaryAttrName = "mesh.boundary";

/// One entry: `type` (the global type) sharded as `sharding` (null:
/// replicated).
DictionaryAttr getBoundaryEntry(MLIRContext *ctx, Type type,
                                const MeshSharding &sharding);

/// getBoundaryEntry, built once per (type, sharding) as written: a
/// function's arguments repeat a few (a layer's weights, its biases).
class BoundaryEntries {
public:
  explicit BoundaryEntries(MLIRContext *ctx) : ctx(ctx) {}
  DictionaryAttr get(Type type, const MeshSharding &sharding);

private:
  MLIRContext *ctx;
  DenseMap<Type, SmallVector<std::pair<MeshSharding, DictionaryAttr>, 1>>
      entries;
};

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_BOUNDARY_H
