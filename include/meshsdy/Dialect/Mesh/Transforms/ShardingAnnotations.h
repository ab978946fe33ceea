//===- ShardingAnnotations.h - write mesh.shard annotations -----*- C++ -*-===//
//
// How the propagation pass writes its result: mesh.sharding ops (one per
// distinct sharding) and mesh.shard annotations on values and operands.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_TRANSFORMS_SHARDINGANNOTATIONS_H
#define MESHSDY_DIALECT_MESH_TRANSFORMS_SHARDINGANNOTATIONS_H

#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <unordered_map>

namespace mlir::mesh {

/// Marks the two ends of a manual region (per-device code, written by the
/// user) inside an annotated global function, as convert-sdy-to-mesh writes
/// an sdy.manual_computation. Each end is a
/// `builtin.unrealized_conversion_cast %value, %manual` to the other side's
/// type with this attribute:
///   "enter": %value (global, sharded with the manual axes major in each
///            dimension) becomes its per-device piece along the axes of the
///            `mesh.sharding` %manual, still sharded along the others;
///   "exit":  the reverse.
/// mesh-spmdization maps the result to the per-device value of %value, and
/// the simulator slices or assembles pieces.
constexpr StringLiteral kManualBoundaryAttr = "mesh.manual_boundary";

/// True if some mesh.shard without `annotate_for_users` annotates `value`.
bool hasResultAnnotation(Value value);

/// The first mesh.shard without `annotate_for_users` that annotates `value`,
/// else null.
ShardOp getResultAnnotationOp(Value value);

/// The sharding of getResultAnnotationOp(value) (what `value` is), else null.
MeshSharding getResultAnnotation(Value value);

/// The sharding `value` is read with: that of the mesh.shard defining it,
/// else null (an unannotated value is replicated).
MeshSharding getAnnotatedSharding(Value value);

/// Adds mesh.shard annotations to a function; one mesh.sharding op per
/// distinct sharding, at the start of the entry block.
class AnnotationBuilder {
public:
  explicit AnnotationBuilder(FunctionOpInterface func);

  /// Annotates what `value` is (`mesh.shard %value to %s`) and makes every
  /// other use read the annotation.
  void annotateResult(Value value, const MeshSharding &sharding);
  /// Makes `operand` read its value as `needed`, adding an operand
  /// annotation unless the value already is so. An operand already annotated
  /// for users keeps that annotation (two in a row are undefined). Returns
  /// true if an annotation was added.
  bool requireOperand(OpOperand &operand, const MeshSharding &needed);
  /// Makes `operand` read its value as `sharding` through a new operand
  /// annotation, even if the value already is so (a call site must say what
  /// its callee needs).
  void annotateOperand(OpOperand &operand, const MeshSharding &sharding);
  /// Number of mesh.shard ops added.
  unsigned count() const { return added; }
  /// The `!mesh.sharding` value of `sharding`: the existing mesh.sharding op
  /// of an equal sharding, or a new one at the start of the entry block.
  Value shardingValue(const MeshSharding &sharding);

private:

  OpBuilder builder;
  Block *entry;
  Operation *lastShardingOp = nullptr;
  /// The mesh.sharding op of each distinct sharding, by a hash of its mesh
  /// and split axes (cheap, and equal shardings hash equally).
  std::unordered_map<size_t, SmallVector<std::pair<MeshSharding, Value>, 1>>
      shardings;
  unsigned added = 0;
};

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_TRANSFORMS_SHARDINGANNOTATIONS_H
