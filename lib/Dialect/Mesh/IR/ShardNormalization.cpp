//===- ShardNormalization.cpp - defined forms of mesh.shard chains --------===//

#include "meshsdy/Dialect/Mesh/IR/ShardNormalization.h"

#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"

using namespace mlir;
using namespace mlir::mesh;

/// Whether two sharding values are known to differ (both from mesh.sharding
/// ops with different content).
static bool knownDifferent(Value lhs, Value rhs) {
  if (lhs == rhs)
    return false;
  MeshSharding l = MeshSharding::get(lhs), r = MeshSharding::get(rhs);
  return l && r && l != r;
}

static bool isResultAnnotation(Operation *op) {
  auto shard = dyn_cast<ShardOp>(op);
  return shard && !shard.getAnnotateForUsers();
}

/// `op`'s ancestor in `block`, or null.
static Operation *ancestorIn(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

ShardOp mlir::mesh::getGoverningResultAnnotation(ShardOp shard) {
  if (shard.getAnnotateForUsers())
    return {};
  Value src = shard.getSrc();
  // A result annotation of a result annotation (the op between them folded).
  if (auto producer = src.getDefiningOp<ShardOp>())
    if (!producer.getAnnotateForUsers() &&
        knownDifferent(producer.getSharding(), shard.getSharding()))
      return producer;
  // Several result annotations of one value (CSE merged their ops): the one
  // first in the value's block governs, if `shard` comes after it.
  Block *block = src.getParentBlock();
  Operation *mine = ancestorIn(block, shard);
  ShardOp first;
  for (Operation *user : src.getUsers()) {
    if (user == shard.getOperation() || !isResultAnnotation(user) ||
        user->getBlock() != block)
      continue;
    if (!first || user->isBeforeInBlock(first))
      first = cast<ShardOp>(user);
  }
  if (!first || !mine || !first->isBeforeInBlock(mine) ||
      !knownDifferent(first.getSharding(), shard.getSharding()))
    return {};
  return first;
}

bool mlir::mesh::normalizeResultAnnotation(ShardOp shard,
                                           bool redirectUsers) {
  ShardOp governing = getGoverningResultAnnotation(shard);
  if (!governing)
    return false;
  if (!redirectUsers && llvm::any_of(shard->getUsers(), llvm::IsaPred<ShardOp>))
    return false;
  // An annotation of `shard` describes the same tensor: it annotates
  // `shard`'s source instead (a result annotation is normalized in turn when
  // reached), as an operand annotation may not be annotated again.
  for (OpOperand &use : llvm::make_early_inc_range(shard->getUses()))
    if (isa<ShardOp>(use.getOwner()))
      use.set(shard.getSrc());
  if (shard.getSrc() != governing.getResult() &&
      shard.getSrc() == governing.getSrc())
    shard.getSrcMutable().assign(governing.getResult());
  shard.setAnnotateForUsers(true);
  return true;
}

void mlir::mesh::normalizeResultAnnotations(Operation *root) {
  // In program order, so a chain is rewritten from its first link on.
  root->walk<WalkOrder::PreOrder>(
      [](ShardOp shard) { normalizeResultAnnotation(shard, true); });
}
