//===- Ops.cpp - verifiers of the non-collective, non-region sdy ops ------===//

#include "Verifiers.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::sdy;

//===----------------------------------------------------------------------===//
// sdy.mesh
//===----------------------------------------------------------------------===//

LogicalResult MeshOp::verify() {
  // Meshes without axes (empty and maximal meshes) don't take part in the
  // "same number of devices" rule.
  MeshAttr mesh = getMesh();
  auto module = dyn_cast_or_null<ModuleOp>((*this)->getParentOp());
  if (!module || mesh.getAxes().empty())
    return success();
  for (MeshOp other : module.getOps<MeshOp>()) {
    if (other.getMesh().getAxes().empty())
      continue;
    if (other == *this)
      return success(); // This is the first mesh with axes.
    int64_t size = mesh.getTotalSize();
    int64_t otherSize = other.getMesh().getTotalSize();
    if (size == otherSize)
      return success();
    InFlightDiagnostic diag =
        emitOpError("all meshes in a module must have the same number of "
                    "devices: ")
        << size << " != " << otherSize << " (mesh @" << other.getSymName()
        << ")";
    diag.attachNote(other.getLoc()) << "mesh @" << other.getSymName();
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// sharding_constraint, reshard
//===----------------------------------------------------------------------===//

LogicalResult
ShardingConstraintOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyTensorSharding(getSharding(), getType(), *this, &symbols,
                              [&]() { return emitOpError(); });
}

LogicalResult ReshardOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return verifyTensorSharding(getSharding(), getType(), *this, &symbols,
                              [&]() { return emitOpError(); });
}

//===----------------------------------------------------------------------===//
// data_flow_edge
//===----------------------------------------------------------------------===//

LogicalResult DataFlowEdgeOp::verify() {
  Value input = getInput();
  // The region ops of sdy own data-flow edges themselves.
  if (Operation *definingOp = input.getDefiningOp();
      definingOp && isa_and_nonnull<SdyDialect>(definingOp->getDialect()) &&
      !isa<ShardableDataFlowOpInterface>(definingOp))
    return emitOpError("expected input of sdy.data_flow_edge to not be "
                       "defined by an SdyDialect op, got '")
           << definingOp->getName() << "'";
  if (!input.hasOneUse())
    return emitOpError("expected input of sdy.data_flow_edge to have a "
                       "single user");
  return success();
}

LogicalResult
DataFlowEdgeOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TensorShardingAttr sharding = getShardingAttr();
  if (!sharding)
    return success();
  return verifyTensorSharding(sharding, getType(), *this, &symbols,
                              [&]() { return emitOpError(); });
}

//===----------------------------------------------------------------------===//
// propagation_barrier
//===----------------------------------------------------------------------===//

LogicalResult PropagationBarrierOp::verify() {
  if (getAllowedDirection() == PropagationDirection::BOTH)
    return emitOpError("allowed_direction can't be BOTH: the barrier would "
                       "be redundant");
  return success();
}

//===----------------------------------------------------------------------===//
// sharding_group
//===----------------------------------------------------------------------===//

LogicalResult ShardingGroupOp::verify() {
  int64_t groupId = getGroupIdAttr().getInt();
  if (groupId < 0)
    return emitOpError("group_id must be non-negative, got ") << groupId;
  // All values of a group have the same shape: compare with the first
  // member of the group in the enclosing symbol table (usually the module).
  Operation *scope = SymbolTable::getNearestSymbolTable(*this);
  if (!scope)
    return success();
  ShardingGroupOp first;
  scope->walk([&](ShardingGroupOp other) {
    if (other.getGroupId() != getGroupId())
      return WalkResult::advance();
    first = other;
    return WalkResult::interrupt();
  });
  if (!first || first == *this)
    return success();
  auto type = cast<RankedTensorType>(getInput().getType());
  auto firstType = dyn_cast<RankedTensorType>(first.getInput().getType());
  if (firstType && type.getShape() == firstType.getShape())
    return success();
  InFlightDiagnostic diag =
      emitOpError("values in sharding group ")
      << groupId << " must have the same shape, got " << type
      << " and " << first.getInput().getType();
  diag.attachNote(first.getLoc()) << "first value of the group";
  return diag;
}
