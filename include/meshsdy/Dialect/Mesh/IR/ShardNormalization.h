//===- ShardNormalization.h - defined forms of mesh.shard chains -*- C++ -*-===//
//
// Standard passes turn annotated IR into annotation patterns the `mesh`
// spec leaves undefined: folding `arith.maximumf %a, %a` to `%a` puts a
// result annotation on a result annotation, and CSE merging two identical
// ops annotated differently gives one value two result annotations. meshsdy
// defines both as resharding (docs/spmd.md, "Annotations and standard
// passes"): the value has the sharding of its first result annotation, and a
// later, different one is read by its users as an operand annotation. These
// helpers rewrite them into that form (`annotate_for_users` on the first),
// which every pass understands.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_IR_SHARDNORMALIZATION_H
#define MESHSDY_DIALECT_MESH_IR_SHARDNORMALIZATION_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"

namespace mlir::mesh {

/// The result annotation of `shard`'s source that holds the value's own
/// sharding, if `shard` is a later result annotation that differs from it
/// (or `shard` annotates a result annotation with another sharding): that
/// one (or the annotated annotation). Null if `shard` is in a defined form.
ShardOp getGoverningResultAnnotation(ShardOp shard);

/// Rewrites `shard` into an operand annotation of its governing result
/// annotation, if it has one. Annotations of `shard` itself are moved to
/// `shard`'s source if `redirectUsers` (result annotations are normalized
/// when reached); without it (a folder may change only its own op) such a
/// `shard` is left alone. Returns true if it changed `shard`.
bool normalizeResultAnnotation(ShardOp shard, bool redirectUsers);

/// `normalizeResultAnnotation` on every mesh.shard under `root`.
void normalizeResultAnnotations(Operation *root);

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_IR_SHARDNORMALIZATION_H
