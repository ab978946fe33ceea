//===- ConstantOrScalar.cpp - constant sub-computations -------------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Common/ConstantOrScalar.h"

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

static bool isScalar(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return !shaped || (shaped.hasRank() && shaped.getRank() == 0);
}

sdy::ConstantKind mlir::sdy::getConstantKind(
    Operation *op, const llvm::DenseSet<Operation *> &constantOps) {
  if (op->getNumResults() != 1 || !isMemoryEffectFree(op))
    return ConstantKind::None;
  if (isa_and_nonnull<SdyDialect>(op->getDialect()) && !isa<ConstantOp>(op))
    return ConstantKind::None;
  // Its results are data-flow edges: a copy per use would be merged back
  // with each copy's edge on one result.
  if (isa<ShardableDataFlowOpInterface>(op))
    return ConstantKind::None;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || type.getRank() == 0)
    return ConstantKind::None;
  // What the op's regions read from above counts as operands (an scf.if on
  // a scalar condition may yield a sharded tensor).
  SmallVector<Value> inputs(op->getOperands());
  if (op->getNumRegions() > 0) {
    SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    llvm::append_range(inputs, above);
  }
  bool allConstant = true;
  for (Value operand : inputs) {
    Operation *def = operand.getDefiningOp();
    if (def && constantOps.contains(def))
      continue;
    if (!isScalar(operand.getType()))
      return ConstantKind::None;
    if (!def || !def->hasTrait<OpTrait::ConstantLike>())
      allConstant = false;
  }
  return allConstant ? ConstantKind::Constant : ConstantKind::ScalarExpansion;
}
