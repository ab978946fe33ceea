//===- ShardingAnnotations.cpp - write mesh.shard annotations -------------===//

#include "meshsdy/Dialect/Mesh/Transforms/ShardingAnnotations.h"

#include "Interner.h"

using namespace mlir;
using namespace mlir::mesh;

ShardOp mlir::mesh::getResultAnnotationOp(Value value) {
  for (Operation *user : value.getUsers())
    if (auto shard = dyn_cast<ShardOp>(user))
      if (shard.getSrc() == value && !shard.getAnnotateForUsers())
        return shard;
  return ShardOp();
}

bool mlir::mesh::hasResultAnnotation(Value value) {
  return static_cast<bool>(getResultAnnotationOp(value));
}

MeshSharding mlir::mesh::getResultAnnotation(Value value) {
  ShardOp shard = getResultAnnotationOp(value);
  return shard ? MeshSharding::get(shard.getSharding()) : MeshSharding();
}

MeshSharding mlir::mesh::getAnnotatedSharding(Value value) {
  if (auto shard = value.getDefiningOp<ShardOp>())
    return MeshSharding::get(shard.getSharding());
  return MeshSharding();
}

AnnotationBuilder::AnnotationBuilder(FunctionOpInterface func)
    : builder(func.getContext()), entry(&func.getFunctionBody().front()) {}

Value AnnotationBuilder::shardingValue(const MeshSharding &sharding) {
  auto &candidates = shardings[hashMeshSharding(sharding)];
  for (auto &[known, value] : candidates)
    if (known == sharding)
      return value;
  OpBuilder::InsertionGuard guard(builder);
  if (lastShardingOp)
    builder.setInsertionPointAfter(lastShardingOp);
  else
    builder.setInsertionPointToStart(entry);
  Value value =
      ShardingOp::create(builder, entry->getParentOp()->getLoc(), sharding);
  lastShardingOp = value.getDefiningOp();
  candidates.emplace_back(sharding, value);
  return value;
}

void AnnotationBuilder::annotateResult(Value value,
                                       const MeshSharding &sharding) {
  Value shardingVal = shardingValue(sharding);
  OpBuilder::InsertionGuard guard(builder);
  if (Operation *def = value.getDefiningOp())
    builder.setInsertionPointAfter(def);
  else if (value.getParentBlock() == entry)
    builder.setInsertionPointAfter(lastShardingOp);
  else
    builder.setInsertionPointToStart(value.getParentBlock());
  auto shard = ShardOp::create(builder, value.getLoc(), value.getType(), value,
                               shardingVal, /*annotate_for_users=*/false);
  value.replaceAllUsesExcept(shard.getResult(), shard);
  ++added;
}

bool AnnotationBuilder::requireOperand(OpOperand &operand,
                                       const MeshSharding &needed) {
  Value value = operand.get();
  if (!isa<RankedTensorType>(value.getType()) || !needed)
    return false;
  MeshSharding current(needed.getMeshAttr(), {});
  if (auto shard = value.getDefiningOp<ShardOp>()) {
    // Another operand annotation would chain two of them: keep the user's.
    if (shard.getAnnotateForUsers())
      return false;
    if (MeshSharding annotated = MeshSharding::get(shard.getSharding()))
      current = annotated;
  }
  if (current == needed)
    return false;
  annotateOperand(operand, needed);
  return true;
}

void AnnotationBuilder::annotateOperand(OpOperand &operand,
                                        const MeshSharding &sharding) {
  Value value = operand.get();
  Value shardingVal = shardingValue(sharding);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(operand.getOwner());
  auto shard = ShardOp::create(builder, value.getLoc(), value.getType(), value,
                               shardingVal, /*annotate_for_users=*/true);
  operand.set(shard.getResult());
  ++added;
}
