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

/// The kind `inputs` allow: None if one is neither scalar nor in
/// `constantOps`, Constant if all are constants.
static sdy::ConstantKind
inputsKind(ValueRange inputs, const llvm::DenseSet<Operation *> &constantOps,
           bool &allConstant) {
  for (Value operand : inputs) {
    Operation *def = operand.getDefiningOp();
    if (def && constantOps.contains(def))
      continue;
    if (!isScalar(operand.getType()))
      return sdy::ConstantKind::None;
    if (!def || !def->hasTrait<OpTrait::ConstantLike>())
      allConstant = false;
  }
  return allConstant ? sdy::ConstantKind::Constant
                     : sdy::ConstantKind::ScalarExpansion;
}

sdy::ConstantKind mlir::sdy::getConstantKind(
    Operation *op, const llvm::DenseSet<Operation *> &constantOps) {
  // The cheap checks first; most ops fail on their operands, before the
  // walk of their regions for memory effects.
  if (op->getNumResults() != 1)
    return ConstantKind::None;
  if (isa_and_nonnull<SdyDialect>(op->getDialect()) && !isa<ConstantOp>(op))
    return ConstantKind::None;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || type.getRank() == 0)
    return ConstantKind::None;
  bool allConstant = true;
  if (inputsKind(op->getOperands(), constantOps, allConstant) ==
      ConstantKind::None)
    return ConstantKind::None;
  // Its results are data-flow edges: a copy per use would be merged back
  // with each copy's edge on one result.
  if (isa<ShardableDataFlowOpInterface>(op) || !isMemoryEffectFree(op))
    return ConstantKind::None;
  // What the op's regions read from above counts as operands (an scf.if on
  // a scalar condition may yield a sharded tensor).
  if (op->getNumRegions() > 0) {
    SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    if (inputsKind(above.getArrayRef(), constantOps, allConstant) ==
        ConstantKind::None)
      return ConstantKind::None;
  }
  return allConstant ? ConstantKind::Constant : ConstantKind::ScalarExpansion;
}
