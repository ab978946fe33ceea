//===- CollectivesRewrite.cpp - StableHLO collectives into mesh ones ------===//

#include "CollectivesToMesh.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::meshsdy;

FlatSymbolRefAttr CollectivesToMesh::companion(sdy::MeshOp sdyMesh) {
  FlatSymbolRefAttr &name = companions[sdyMesh.getOperation()];
  if (name)
    return name;
  std::string base = (sdyMesh.getSymName() + "_manual").str();
  std::string candidate = base;
  for (int k = 1; symbols.lookup(candidate); ++k)
    candidate = base + "_" + std::to_string(k);
  OpBuilder builder(sdyMesh);
  builder.setInsertionPointAfter(sdyMesh);
  auto meshOp = mesh::MeshOp::create(builder, sdyMesh.getLoc(), candidate,
                                     meshShape(sdyMesh));
  symbols.insert(meshOp);
  name = FlatSymbolRefAttr::get(meshOp.getSymNameAttr());
  return name;
}

Value CollectivesToMesh::shift(OpBuilder &builder, const Plan &plan,
                               Value input) {
  Location loc = plan.op->getLoc();
  FlatSymbolRefAttr mesh = companion(plan.sdyMesh);
  auto type = cast<RankedTensorType>(input.getType());
  // mesh.shift moves tensors of rank 1 or more.
  Value value = input;
  if (type.getRank() == 0)
    value = tensor::ExpandShapeOp::create(
        builder, loc, RankedTensorType::get({1}, type.getElementType()), value,
        ArrayRef<ReassociationIndices>{});
  const MeshShift &s = plan.shift;
  value = mesh::ShiftOp::create(
      builder, loc, value.getType(), mesh, builder.getDenseI16ArrayAttr(s.axis),
      value, builder.getIndexAttr(s.axis), builder.getI64IntegerAttr(s.offset),
      s.rotate ? builder.getUnitAttr() : UnitAttr());
  if (type.getRank() == 0)
    value = tensor::CollapseShapeOp::create(builder, loc, type, value,
                                            ArrayRef<ReassociationIndices>{});
  if (s.rotate)
    return value;
  // Without rotation, the devices no one sends to get zeros: those whose
  // coordinate c has no source c - offset on the mesh.
  Value coordinate =
      mesh::ProcessMultiIndexOp::create(builder, loc,
                                        TypeRange{builder.getIndexType()}, mesh,
                                        builder.getDenseI16ArrayAttr(s.axis))
          ->getResult(0);
  int64_t size = meshShape(plan.sdyMesh)[s.axis];
  Value bound = arith::ConstantIndexOp::create(
      builder, loc, s.offset > 0 ? s.offset : size + s.offset);
  Value receives = arith::CmpIOp::create(
      builder, loc,
      s.offset > 0 ? arith::CmpIPredicate::uge : arith::CmpIPredicate::ult,
      coordinate, bound);
  Value zeros = arith::ConstantOp::create(
      builder, loc, cast<TypedAttr>(builder.getZeroAttr(type)));
  return arith::SelectOp::create(builder, loc, receives, value, zeros);
}

SmallVector<Value> CollectivesToMesh::rewriteOne(OpBuilder &builder,
                                                 const Plan &plan) {
  Operation *op = plan.op;
  Location loc = op->getLoc();
  FlatSymbolRefAttr mesh = companion(plan.sdyMesh);
  DenseI16ArrayAttr axes = builder.getDenseI16ArrayAttr(plan.axes);
  auto reduction =
      mesh::ReductionKindAttr::get(builder.getContext(), plan.reduction);
  if (plan.kind == Kind::PartitionId || plan.kind == Kind::ReplicaId) {
    Type idType = (*op->getUsers().begin())->getResult(0).getType();
    Type element = cast<RankedTensorType>(idType).getElementType();
    Value id;
    if (plan.kind == Kind::PartitionId)
      id = arith::IndexCastOp::create(
          builder, loc, element,
          mesh::ProcessLinearIndexOp::create(builder, loc, mesh));
    else
      id = arith::ConstantOp::create(builder, loc, element,
                                     builder.getIntegerAttr(element, 0));
    return {tensor::FromElementsOp::create(builder, loc, idType, id)};
  }
  SmallVector<Value> results;
  for (auto [operand, type] :
       llvm::zip(op->getOperands(), op->getResultTypes())) {
    switch (plan.kind) {
    case Kind::AllReduce:
      results.push_back(mesh::AllReduceOp::create(builder, loc, type, mesh,
                                                  axes, operand, reduction));
      break;
    case Kind::AllGather:
      results.push_back(mesh::AllGatherOp::create(
          builder, loc, type, mesh, axes, operand,
          builder.getIndexAttr(plan.dim)));
      break;
    case Kind::ReduceScatter:
      results.push_back(mesh::ReduceScatterOp::create(
          builder, loc, type, mesh, axes, operand, reduction,
          builder.getIndexAttr(plan.dim)));
      break;
    case Kind::AllToAll:
      results.push_back(mesh::AllToAllOp::create(
          builder, loc, type, mesh, axes, operand,
          builder.getIndexAttr(plan.dim),
          builder.getIndexAttr(plan.concatDim)));
      break;
    default:
      results.push_back(shift(builder, plan, operand));
      break;
    }
  }
  return results;
}

void CollectivesToMesh::rewrite() {
  OpBuilder builder(module.getContext());
  for (const Plan &plan : plans) {
    Operation *op = plan.op;
    builder.setInsertionPoint(op);
    if ((plan.kind == Kind::PartitionId || plan.kind == Kind::ReplicaId) &&
        op->use_empty()) {
      op->erase();
      continue;
    }
    SmallVector<Value> results = rewriteOne(builder, plan);
    if (plan.kind == Kind::PartitionId || plan.kind == Kind::ReplicaId) {
      // Its users are the casts to `results[0]`'s type.
      for (Operation *cast : llvm::make_early_inc_range(op->getUsers())) {
        cast->getResult(0).replaceAllUsesWith(results[0]);
        cast->erase();
      }
    } else {
      op->replaceAllUsesWith(results);
    }
    op->erase();
  }
}
