//===- SdyValues.cpp - C API for value shardings and data flow edges ------===//

#include "meshsdy-c/SdyAttributes.h"

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "mlir/CAPI/IR.h"

using namespace mlir;
using namespace mlir::sdy;

MlirAttribute mlirSdyValueGetSharding(MlirValue value) {
  return wrap(Attribute(getSharding(unwrap(value))));
}

bool mlirSdyOpIsShardableDataFlowOp(MlirOperation op) {
  return isa_and_nonnull<ShardableDataFlowOpInterface>(unwrap(op));
}

MlirValue mlirSdyDataFlowEdgeOwnerFromTarget(MlirOperation op,
                                             MlirValue target) {
  auto dataFlowOp = dyn_cast_or_null<ShardableDataFlowOpInterface>(unwrap(op));
  if (!dataFlowOp || !unwrap(target))
    return wrap(Value());
  return wrap(dataFlowOp.getEdgeOwnerFromTarget(unwrap(target)));
}

MlirValue mlirSdyDataFlowEdgeOwnerFromSource(MlirOperation op,
                                             MlirOperation user,
                                             intptr_t operandNumber) {
  auto dataFlowOp = dyn_cast_or_null<ShardableDataFlowOpInterface>(unwrap(op));
  Operation *userOp = unwrap(user);
  if (!dataFlowOp || !userOp || operandNumber < 0 ||
      operandNumber >= static_cast<intptr_t>(userOp->getNumOperands()))
    return wrap(Value());
  return wrap(
      dataFlowOp.getEdgeOwnerFromSource(userOp->getOpOperand(operandNumber)));
}

/// The sources of the edge owned by `owner`, or nothing.
static std::optional<SmallVector<OpOperand *>> getSources(MlirOperation op,
                                                          MlirValue owner) {
  auto dataFlowOp = dyn_cast_or_null<ShardableDataFlowOpInterface>(unwrap(op));
  if (!dataFlowOp || !unwrap(owner))
    return std::nullopt;
  return dataFlowOp.getEdgeSources(unwrap(owner));
}

intptr_t mlirSdyDataFlowEdgeNumSources(MlirOperation op, MlirValue owner) {
  auto sources = getSources(op, owner);
  return sources ? static_cast<intptr_t>(sources->size()) : -1;
}

MlirValue mlirSdyDataFlowEdgeGetSource(MlirOperation op, MlirValue owner,
                                       intptr_t pos) {
  auto sources = getSources(op, owner);
  if (!sources || pos < 0 || pos >= static_cast<intptr_t>(sources->size()))
    return wrap(Value());
  return wrap((*sources)[pos]->get());
}
