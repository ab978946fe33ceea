//===- DialectMapping.cpp - the shard <-> mesh mapping, written once ------===//
//
// One table of op names and one of attribute names, read left to right for
// convert-shard-to-mesh and right to left for convert-mesh-to-shard; the
// attribute and type values map one to one (the reduction kinds by name).
//
//===----------------------------------------------------------------------===//

#include "DialectMapping.h"

#include "meshsdy/Dialect/Mesh/IR/MeshAttrs.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::meshsdy::shardmesh;

namespace {

/// A name on the upstream side and its counterpart on ours.
struct NamePair {
  StringLiteral shard;
  StringLiteral mesh;
};

/// Every op of upstream's `shard` dialect with a `mesh` counterpart.
/// `shard.get_sharding` has none (see ConvertShardMesh.cpp).
constexpr NamePair kOps[] = {
    {"shard.grid", "mesh.mesh"},
    {"shard.grid_shape", "mesh.mesh_shape"},
    {"shard.process_multi_index", "mesh.process_multi_index"},
    {"shard.process_linear_index", "mesh.process_linear_index"},
    {"shard.neighbors_linear_indices", "mesh.neighbors_linear_indices"},
    {"shard.sharding", "mesh.sharding"},
    {"shard.shard", "mesh.shard"},
    {"shard.shard_shape", "mesh.shard_shape"},
    {"shard.all_gather", "mesh.all_gather"},
    {"shard.all_reduce", "mesh.all_reduce"},
    {"shard.all_slice", "mesh.all_slice"},
    {"shard.all_to_all", "mesh.all_to_all"},
    {"shard.broadcast", "mesh.broadcast"},
    {"shard.gather", "mesh.gather"},
    {"shard.recv", "mesh.recv"},
    {"shard.reduce", "mesh.reduce"},
    {"shard.reduce_scatter", "mesh.reduce_scatter"},
    {"shard.scatter", "mesh.scatter"},
    {"shard.send", "mesh.send"},
    {"shard.shift", "mesh.shift"},
    {"shard.update_halo", "mesh.update_halo"},
};

/// Inherent attributes named differently; all others keep their name.
constexpr NamePair kAttrs[] = {
    {"grid", "mesh"},
    {"grid_axes", "mesh_axes"},
};

/// `name` looked up on the source side of `direction`, its counterpart
/// returned; empty if absent.
template <size_t N>
StringRef lookup(const NamePair (&table)[N], Direction direction,
                 StringRef name) {
  for (const NamePair &pair : table) {
    bool toMesh = direction == Direction::ShardToMesh;
    if ((toMesh ? pair.shard : pair.mesh) == name)
      return toMesh ? pair.mesh : pair.shard;
  }
  return {};
}

void addShardToMesh(AttrTypeReplacer &replacer, MLIRContext *ctx) {
  replacer.addReplacement(
      [ctx](shard::GridAxesArrayAttr axes) -> std::optional<Attribute> {
        // `split_axes = []` (upstream prints it for 0-d tensors) is `[[]]`.
        if (axes.getAxes().empty())
          return mesh::MeshAxesArrayAttr::get(
              ctx, {DenseI16ArrayAttr::get(ctx, {})});
        return mesh::MeshAxesArrayAttr::get(ctx, axes.getAxes());
      });
  replacer.addReplacement(
      [ctx](shard::ReductionKindAttr kind) -> std::optional<Attribute> {
        std::optional<mesh::ReductionKind> value = mesh::symbolizeReductionKind(
            shard::stringifyReductionKind(kind.getValue()));
        if (!value)
          return std::nullopt;
        return mesh::ReductionKindAttr::get(ctx, *value);
      });
  replacer.addReplacement([ctx](shard::ShardingType) -> std::optional<Type> {
    return mesh::ShardingType::get(ctx);
  });
}

void addMeshToShard(AttrTypeReplacer &replacer, MLIRContext *ctx) {
  replacer.addReplacement(
      [ctx](mesh::MeshAxesArrayAttr axes) -> std::optional<Attribute> {
        return shard::GridAxesArrayAttr::get(ctx, axes.getAxes());
      });
  replacer.addReplacement(
      [ctx](mesh::ReductionKindAttr kind) -> std::optional<Attribute> {
        std::optional<shard::ReductionKind> value =
            shard::symbolizeReductionKind(
                mesh::stringifyReductionKind(kind.getValue()));
        if (!value)
          return std::nullopt;
        return shard::ReductionKindAttr::get(ctx, *value);
      });
  replacer.addReplacement([ctx](mesh::ShardingType) -> std::optional<Type> {
    return shard::ShardingType::get(ctx);
  });
}

} // namespace

StringRef mlir::meshsdy::shardmesh::passName(Direction direction) {
  return direction == Direction::ShardToMesh ? "convert-shard-to-mesh"
                                             : "convert-mesh-to-shard";
}

StringRef mlir::meshsdy::shardmesh::sourceDialect(Direction direction) {
  return direction == Direction::ShardToMesh ? "shard" : "mesh";
}

StringRef mlir::meshsdy::shardmesh::targetOpName(Direction direction,
                                                 StringRef sourceOp) {
  return lookup(kOps, direction, sourceOp);
}

StringRef mlir::meshsdy::shardmesh::targetAttrName(Direction direction,
                                                   StringRef name) {
  StringRef renamed = lookup(kAttrs, direction, name);
  return renamed.empty() ? name : renamed;
}

AttrTypeReplacer mlir::meshsdy::shardmesh::makeReplacer(Direction direction,
                                                        MLIRContext *ctx) {
  AttrTypeReplacer replacer;
  if (direction == Direction::ShardToMesh)
    addShardToMesh(replacer, ctx);
  else
    addMeshToShard(replacer, ctx);
  return replacer;
}

/// The inherent attributes `op` has set, by name (with properties, they are
/// not in its discardable dictionary).
static DictionaryAttr inherentAttrs(Operation *op) {
  return dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute());
}

SmallVector<StringRef>
mlir::meshsdy::shardmesh::attributesWithoutCounterpart(Direction direction,
                                                       Operation *op) {
  SmallVector<StringRef> missing;
  StringRef target = targetOpName(direction, op->getName().getStringRef());
  DictionaryAttr inherent = inherentAttrs(op);
  if (target.empty() || !inherent)
    return missing;
  OperationName targetName(target, op->getContext());
  for (NamedAttribute attr : inherent) {
    StringRef name = targetAttrName(direction, attr.getName().getValue());
    if (name != "operandSegmentSizes" &&
        !llvm::is_contained(targetName.getAttributeNames(),
                            StringAttr::get(op->getContext(), name)))
      missing.push_back(attr.getName().getValue());
  }
  return missing;
}

Operation *mlir::meshsdy::shardmesh::rebuild(Direction direction,
                                             OpBuilder &builder, Operation *op,
                                             AttrTypeReplacer &replacer) {
  MLIRContext *ctx = op->getContext();
  NamedAttrList attrs;
  if (DictionaryAttr inherent = inherentAttrs(op))
    for (NamedAttribute attr : inherent)
      attrs.append(targetAttrName(direction, attr.getName().getValue()),
                   replacer.replace(attr.getValue()));
  for (NamedAttribute attr : op->getDiscardableAttrs())
    attrs.append(attr.getName(), replacer.replace(attr.getValue()));

  OperationState state(op->getLoc(),
                       targetOpName(direction, op->getName().getStringRef()));
  state.addOperands(op->getOperands());
  for (Type type : op->getResultTypes())
    state.addTypes(replacer.replace(type));
  Operation *rebuilt = builder.create(state);
  // Inherent attributes go to the properties, the others stay discardable.
  rebuilt->setAttrs(attrs.getDictionary(ctx));
  return rebuilt;
}
