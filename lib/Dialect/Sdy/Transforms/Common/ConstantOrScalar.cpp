//===- ConstantOrScalar.cpp - constant sub-computations -------------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Common/ConstantOrScalar.h"

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || type.getRank() == 0)
    return ConstantKind::None;
  bool allConstant = true;
  for (Value operand : op->getOperands()) {
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
