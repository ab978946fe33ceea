//===- Sharding.cpp - verifiers of sharding, shard, shard_shape, halos ----===//

#include "VerifierUtils.h"
#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::mesh;
using namespace mlir::mesh::verifier;

/// Split axes: no negative axis, and no axis used twice over all dimensions.
static LogicalResult verifySplitAxes(Operation *op, MeshAxesArrayAttr split) {
  llvm::SmallSet<MeshAxis, 8> seen;
  for (DenseI16ArrayAttr dimAxes : split.getAxes()) {
    for (MeshAxis axis : dimAxes.asArrayRef()) {
      if (axis < 0)
        return op->emitOpError("split_axes: mesh axis ")
               << axis << " is negative";
      if (!seen.insert(axis).second)
        return op->emitOpError("split_axes: mesh axis ")
               << axis << " is used more than once";
    }
  }
  return success();
}

/// Number of tensor dimensions with at least one split axis.
static size_t numShardedDims(MeshAxesArrayAttr split) {
  return llvm::count_if(split.getAxes(), [](DenseI16ArrayAttr axes) {
    return !axes.empty();
  });
}

/// Halo sizes: two per sharded dimension, none negative.
static LogicalResult verifyHaloSizes(Operation *op, MeshAxesArrayAttr split,
                                     ArrayRef<int64_t> halos) {
  if (halos.empty())
    return success();
  size_t expected = 2 * numShardedDims(split);
  if (halos.size() != expected)
    return op->emitOpError("halo_sizes: ")
           << halos.size() << " entries != " << expected
           << " (two per sharded tensor dimension)";
  for (auto [i, size] : llvm::enumerate(halos))
    if (!ShapedType::isDynamic(size) && size < 0)
      return op->emitOpError("halo_sizes: entry ")
             << i << " is negative (" << size << ")";
  return success();
}

/// Split axes inside the mesh.
static LogicalResult verifySplitAxesInMesh(Operation *op,
                                           MeshAxesArrayAttr split,
                                           MeshOp mesh) {
  for (DenseI16ArrayAttr dimAxes : split.getAxes())
    if (failed(verifyMeshAxesInMesh(op, "split_axes", dimAxes.asArrayRef(),
                                    mesh)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// mesh.sharding
//===----------------------------------------------------------------------===//

LogicalResult ShardingOp::verify() {
  if (failed(verifyDynamicCount(*this, "halo_sizes", getStaticHaloSizes(),
                                getDynamicHaloSizes().size())) ||
      failed(verifyDynamicCount(*this, "sharded_dims_offsets",
                                getStaticShardedDimsOffsets(),
                                getDynamicShardedDimsOffsets().size())) ||
      failed(verifySplitAxes(*this, getSplitAxes())))
    return failure();
  if (std::optional<ArrayRef<MeshAxis>> partial = getPartialAxes()) {
    if (failed(verifyMeshAxesUnique(*this, "partial_axes", *partial)))
      return failure();
    for (MeshAxis axis : *partial)
      for (DenseI16ArrayAttr dimAxes : getSplitAxes().getAxes())
        if (llvm::is_contained(dimAxes.asArrayRef(), axis))
          return emitOpError("mesh axis ")
                 << axis << " is both a split axis and a partial axis";
  }
  if (getPartialType() == ReductionKind::Generic)
    return emitOpError("partial type 'generic' is not allowed in a sharding");
  if (!getStaticHaloSizes().empty() && !getStaticShardedDimsOffsets().empty())
    return emitOpError(
        "halo_sizes and sharded_dims_offsets are mutually exclusive");
  return verifyHaloSizes(*this, getSplitAxes(), getStaticHaloSizes());
}

LogicalResult ShardingOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<MeshOp> mesh = getMeshOrError(*this, getMeshAttr(), st);
  if (failed(mesh) || failed(verifySplitAxesInMesh(*this, getSplitAxes(), *mesh)))
    return failure();
  if (std::optional<ArrayRef<MeshAxis>> partial = getPartialAxes())
    if (failed(verifyMeshAxesInMesh(*this, "partial_axes", *partial, *mesh)))
      return failure();

  ArrayRef<int64_t> offsets = getStaticShardedDimsOffsets();
  if (offsets.empty())
    return success();
  // Per sharded dimension: (number of shards + 1) non-decreasing offsets.
  // The layout is only known when every shard count is static.
  SmallVector<std::pair<size_t, int64_t>> dims; // (tensor dim, shards)
  size_t expected = 0;
  for (auto [dim, dimAxes] : llvm::enumerate(getSplitAxes().getAxes())) {
    if (dimAxes.empty())
      continue;
    int64_t shards = collectiveProcessGroupSize(dimAxes.asArrayRef(), *mesh);
    if (ShapedType::isDynamic(shards))
      return success();
    if (shards > static_cast<int64_t>(offsets.size()))
      return emitOpError("sharded_dims_offsets: ")
             << offsets.size() << " entries are too few for tensor dimension "
             << dim << " split into " << shards << " shards";
    dims.push_back({dim, shards});
    expected += shards + 1;
  }
  if (offsets.size() != expected)
    return emitOpError("sharded_dims_offsets: ")
           << offsets.size() << " entries != " << expected
           << " (number of shards + 1 per sharded tensor dimension)";
  size_t pos = 0;
  for (auto [dim, shards] : dims) {
    int64_t previous = ShapedType::kDynamic;
    for (int64_t offset : offsets.slice(pos, shards + 1)) {
      if (ShapedType::isDynamic(offset))
        continue;
      if (offset < 0)
        return emitOpError("sharded_dims_offsets: offset ")
               << offset << " of tensor dimension " << dim << " is negative";
      if (!ShapedType::isDynamic(previous) && offset < previous)
        return emitOpError("sharded_dims_offsets: offsets of tensor dimension ")
               << dim << " decrease (" << previous << " then " << offset
               << ")";
      previous = offset;
    }
    pos += shards + 1;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// mesh.shard
//===----------------------------------------------------------------------===//

/// Whether two sharding values are known to differ (both defined by
/// `mesh.sharding` ops with different content). Unknown counts as equal.
static bool knownDifferent(Value lhs, Value rhs) {
  if (lhs == rhs)
    return false;
  MeshSharding l = MeshSharding::get(lhs), r = MeshSharding::get(rhs);
  return l && r && l != r;
}

LogicalResult ShardOp::verify() {
  if (MeshSharding sharding = MeshSharding::get(getSharding())) {
    int64_t rank = getSrc().getType().getRank();
    int64_t splitDims = sharding.getSplitAxes().size();
    if (splitDims > rank)
      return emitOpError("sharding splits ")
             << splitDims << " tensor dimensions > tensor rank " << rank;
  }

  // Chains whose meaning the spec leaves undefined.
  auto producer = getSrc().getDefiningOp<ShardOp>();
  if (producer && producer.getAnnotateForUsers() && !getAnnotateForUsers())
    return emitOpError(
        "cannot annotate the result of an operand annotation "
        "('annotate_for_users') as a result");
  if (producer && producer.getAnnotateForUsers() && getAnnotateForUsers() &&
      knownDifferent(producer.getSharding(), getSharding())) {
    InFlightDiagnostic diag = emitOpError(
        "operand annotation of an operand annotation has a different "
        "sharding");
    diag.attachNote(producer.getLoc()) << "first annotation here";
    return diag;
  }
  // A result annotation of a result annotation, or a later result annotation
  // of a value, with another sharding is a resharding (ShardNormalization.h):
  // folds and CSE make them. Result annotations that differ are only
  // ambiguous when none of them is in the value's block to come first.
  Block *block = getSrc().getParentBlock();
  if (!getAnnotateForUsers() && !producer &&
      getOperation()->getBlock() != block) {
    ShardOp differing;
    bool firstInBlock = false;
    for (Operation *user : getSrc().getUsers()) {
      auto other = dyn_cast<ShardOp>(user);
      if (!other || other.getAnnotateForUsers() || other == *this)
        continue;
      if ((firstInBlock = other->getBlock() == block))
        break;
      if (!differing && knownDifferent(other.getSharding(), getSharding()))
        differing = other;
    }
    if (differing && !firstInBlock) {
      InFlightDiagnostic diag =
          emitOpError("value has result annotations with different "
                      "shardings, none in the value's block to come first");
      diag.attachNote(differing.getLoc()) << "other annotation here";
      return diag;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// mesh.shard_shape
//===----------------------------------------------------------------------===//

LogicalResult ShardShapeOp::verify() {
  for (auto [dim, size] : llvm::enumerate(getShape()))
    if (!ShapedType::isDynamic(size) && size < 0)
      return emitOpError("shape dimension ")
             << dim << " is negative (" << size << ")";
  if (getNumResults() != getShape().size())
    return emitOpError() << getNumResults() << " results != "
                         << getShape().size()
                         << " (one per dimension of shape)";
  return success();
}

//===----------------------------------------------------------------------===//
// mesh.update_halo
//===----------------------------------------------------------------------===//

LogicalResult UpdateHaloOp::verify() {
  if (failed(verifyDynamicCount(*this, "halo_sizes", getStaticHaloSizes(),
                                getHaloSizes().size())) ||
      failed(verifySplitAxes(*this, getSplitAxes())))
    return failure();
  auto type = cast<ShapedType>(getDestination().getType());
  int64_t lastSplit = 0;
  for (auto [dim, axes] : llvm::enumerate(getSplitAxes().getAxes()))
    if (!axes.empty())
      lastSplit = dim + 1;
  if (lastSplit > type.getRank())
    return emitOpError("split_axes: splits ")
           << lastSplit << " tensor dimensions > rank " << type.getRank();
  return verifyHaloSizes(*this, getSplitAxes(), getStaticHaloSizes());
}

LogicalResult UpdateHaloOp::verifySymbolUses(SymbolTableCollection &st) {
  FailureOr<MeshOp> mesh = getMeshOrError(*this, getMeshAttr(), st);
  if (failed(mesh))
    return failure();
  return verifySplitAxesInMesh(*this, getSplitAxes(), *mesh);
}
