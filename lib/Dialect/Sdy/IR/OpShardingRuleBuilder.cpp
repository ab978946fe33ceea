//===- OpShardingRuleBuilder.cpp - build OpShardingRuleAttrs --------------===//

#include "meshsdy/Dialect/Sdy/IR/OpShardingRuleBuilder.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace mlir::sdy;

static int64_t rankOf(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasRank() ? shaped.getRank() : 0;
}

OpShardingRuleBuilder::OpShardingRuleBuilder(Operation *op)
    : ctx(op->getContext()) {
  for (Type type : op->getOperandTypes())
    operandDims.emplace_back(rankOf(type));
  for (Type type : op->getResultTypes())
    resultDims.emplace_back(rankOf(type));
}

int64_t OpShardingRuleBuilder::addFactor(int64_t size, FactorKind kind,
                                         bool isBlocked) {
  if (size < 0)
    invalid = true; // A dynamic size: no rule.
  factorSizes.push_back(size);
  factorKinds.push_back(kind);
  if (isBlocked)
    blocked.push_back(factorSizes.size() - 1);
  return factorSizes.size() - 1;
}

void OpShardingRuleBuilder::mapOperand(unsigned index, int64_t dim,
                                       int64_t factor) {
  if (index >= operandDims.size() || dim < 0 ||
      dim >= static_cast<int64_t>(operandDims[index].size())) {
    invalid = true;
    return;
  }
  operandDims[index][dim].push_back(factor);
}

void OpShardingRuleBuilder::mapResult(unsigned index, int64_t dim,
                                      int64_t factor) {
  if (index >= resultDims.size() || dim < 0 ||
      dim >= static_cast<int64_t>(resultDims[index].size())) {
    invalid = true;
    return;
  }
  resultDims[index][dim].push_back(factor);
}

int64_t OpShardingRuleBuilder::addPointwiseFactor(int64_t rank, int64_t dim,
                                                  int64_t size) {
  int64_t factor = addFactor(size);
  for (auto [index, dims] : llvm::enumerate(operandDims))
    if (static_cast<int64_t>(dims.size()) == rank)
      mapOperand(index, dim, factor);
  for (auto [index, dims] : llvm::enumerate(resultDims))
    if (static_cast<int64_t>(dims.size()) == rank)
      mapResult(index, dim, factor);
  return factor;
}

OpShardingRuleAttr OpShardingRuleBuilder::build(bool isCustomRule) const {
  if (invalid || (operandDims.empty() && resultDims.empty()))
    return {};
  auto mappings = [&](ArrayRef<SmallVector<SmallVector<int64_t>>> tensors) {
    SmallVector<TensorMappingAttr> result;
    for (const SmallVector<SmallVector<int64_t>> &dims : tensors) {
      SmallVector<DimMappingAttr> dimMappings;
      for (const SmallVector<int64_t> &factors : dims)
        dimMappings.push_back(DimMappingAttr::get(ctx, factors));
      result.push_back(TensorMappingAttr::get(ctx, dimMappings));
    }
    return result;
  };
  SmallVector<int64_t> byKind[4];
  for (auto [factor, kind] : llvm::enumerate(factorKinds))
    byKind[static_cast<int>(kind)].push_back(factor);
  SmallVector<TensorMappingAttr> operands = mappings(operandDims);
  SmallVector<TensorMappingAttr> results = mappings(resultDims);
  ArrayRef<int64_t> reduction = byKind[int(FactorKind::Reduction)];
  ArrayRef<int64_t> needReplication = byKind[int(FactorKind::NeedReplication)];
  ArrayRef<int64_t> permutation = byKind[int(FactorKind::Permutation)];
  // Check silently: a default InFlightDiagnostic reports nothing.
  auto quiet = [] { return InFlightDiagnostic(); };
  if (failed(OpShardingRuleAttr::verify(quiet, factorSizes, operands, results,
                                        reduction, needReplication,
                                        permutation, blocked, isCustomRule)))
    return {};
  return OpShardingRuleAttr::get(ctx, factorSizes, operands, results,
                                 reduction, needReplication, permutation,
                                 blocked, isCustomRule);
}

OpShardingRuleAttr OpShardingRuleBuilder::buildPointwise(Operation *op) {
  if (op->getNumResults() == 0)
    return {};
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape())
    return {};
  for (Type t : llvm::concat<Type>(op->getOperandTypes(),
                                   op->getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    // Other shaped operands (vectors, memrefs) or a shape of its own: not
    // pointwise over the result.
    if (tensor ? (tensor.getRank() != 0 && tensor.getShape() != type.getShape())
               : isa<ShapedType>(t))
      return {};
  }
  OpShardingRuleBuilder builder(op);
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    builder.addPointwiseFactor(type.getRank(), dim, size);
  return builder.build();
}
