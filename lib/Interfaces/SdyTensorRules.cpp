//===- SdyTensorRules.cpp - sdy sharding rules of tensor ops --------------===//
//
// Rules for the tensor ops propagation crosses, after Shardy's rules for
// their StableHLO equivalents:
//   - tensor.empty, tensor.splat, arith.constant: one factor per result
//     dimension (a splat's scalar maps to nothing);
//   - tensor.concat: the concatenated dimension is one need-replication
//     factor of the result's size (Shardy's concatenate rule; its
//     permutation variant for pieces sliced from one tensor is not made);
//   - tensor.pad (static low/high): one factor per source dimension, of the
//     source's size; padded dimensions are permutation factors (Shardy's pad);
//   - tensor.extract_slice: one factor per source dimension, of the source's
//     size; a dimension sliced at static offsets is a permutation factor
//     (Shardy's slice), at dynamic offsets a blocked need-replication factor
//     (its dynamic_slice); dimensions a rank-reducing slice drops map only in
//     the source;
//   - tensor.insert_slice: a dimension the source covers whole shares one
//     factor among source, dest and result; otherwise dest and result share
//     one and the source has its own (Shardy's dynamic_update_slice), which
//     needs replication when the offsets are dynamic.
// Dynamic shapes or sizes: no rule.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/OpShardingRuleBuilder.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// One factor per dimension of result 0, mapped nowhere else.
OpShardingRuleAttr resultOnlyRule(Operation *op) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape())
    return {};
  OpShardingRuleBuilder builder(op);
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    builder.mapResult(0, dim, builder.addFactor(size));
  return builder.build();
}

OpShardingRuleAttr concatRule(tensor::ConcatOp op) {
  RankedTensorType type = op.getResultType();
  if (!type.hasStaticShape())
    return {};
  OpShardingRuleBuilder builder(op);
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    int64_t factor = builder.addFactor(
        size, dim == op.getDim() ? FactorKind::NeedReplication
                                 : FactorKind::PassThrough);
    for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
      builder.mapOperand(i, dim, factor);
    builder.mapResult(0, dim, factor);
  }
  return builder.build();
}

OpShardingRuleAttr padRule(tensor::PadOp op) {
  RankedTensorType source = op.getSourceType();
  if (!source.hasStaticShape() || !op.getResultType().hasStaticShape() ||
      !op.getLow().empty() || !op.getHigh().empty())
    return {};
  OpShardingRuleBuilder builder(op);
  ArrayRef<int64_t> low = op.getStaticLow(), high = op.getStaticHigh();
  for (auto [dim, size] : llvm::enumerate(source.getShape())) {
    bool padded = low[dim] != 0 || high[dim] != 0;
    int64_t factor = builder.addFactor(
        size, padded ? FactorKind::Permutation : FactorKind::PassThrough);
    builder.mapOperand(0, dim, factor);
    builder.mapResult(0, dim, factor);
  }
  return builder.build();
}

/// Whether dimension `dim` of a slice of a `size`-long dimension takes it
/// whole.
bool takesWhole(OffsetSizeAndStrideOpInterface op, unsigned dim,
                int64_t size) {
  return op.isDynamicOffset(dim) == false && op.getStaticOffset(dim) == 0 &&
         !op.isDynamicSize(dim) && op.getStaticSize(dim) == size &&
         !op.isDynamicStride(dim) && op.getStaticStride(dim) == 1;
}

OpShardingRuleAttr extractSliceRule(tensor::ExtractSliceOp op) {
  RankedTensorType source = op.getSourceType();
  if (!source.hasStaticShape() || !op.getResultType().hasStaticShape() ||
      !op.getSizes().empty() || !op.getStrides().empty())
    return {};
  bool dynamicOffsets = !op.getOffsets().empty();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  OpShardingRuleBuilder builder(op);
  int64_t resultDim = 0;
  for (auto [dim, size] : llvm::enumerate(source.getShape())) {
    bool whole = takesWhole(op, dim, size);
    FactorKind kind = whole            ? FactorKind::PassThrough
                      : dynamicOffsets ? FactorKind::NeedReplication
                                       : FactorKind::Permutation;
    int64_t factor = builder.addFactor(size, kind,
                                       /*blocked=*/!whole && dynamicOffsets);
    builder.mapOperand(0, dim, factor);
    if (!dropped.test(dim))
      builder.mapResult(0, resultDim++, factor);
  }
  return builder.build();
}

OpShardingRuleAttr insertSliceRule(tensor::InsertSliceOp op) {
  RankedTensorType source = op.getSourceType();
  RankedTensorType dest = op.getDestType();
  if (!source.hasStaticShape() || !dest.hasStaticShape() ||
      !op.getSizes().empty() || !op.getStrides().empty())
    return {};
  bool dynamicOffsets = !op.getOffsets().empty();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  OpShardingRuleBuilder builder(op);
  int64_t sourceDim = 0;
  for (auto [dim, size] : llvm::enumerate(dest.getShape())) {
    int64_t factor = builder.addFactor(size);
    builder.mapOperand(1, dim, factor);
    builder.mapResult(0, dim, factor);
    if (dropped.test(dim))
      continue;
    if (takesWhole(op, dim, size)) {
      builder.mapOperand(0, sourceDim++, factor);
      continue;
    }
    int64_t piece = source.getDimSize(sourceDim);
    builder.mapOperand(0, sourceDim++,
                       builder.addFactor(piece,
                                         dynamicOffsets
                                             ? FactorKind::NeedReplication
                                             : FactorKind::PassThrough));
  }
  return builder.build();
}

/// A model whose rule is `Rule(cast<OpTy>(op))`.
template <typename OpTy, OpShardingRuleAttr (*Rule)(OpTy)>
struct RuleModel
    : ShardingRuleOpInterface::ExternalModel<RuleModel<OpTy, Rule>, OpTy> {
  OpShardingRuleAttr getShardingRule(Operation *op) const {
    return Rule(cast<OpTy>(op));
  }
  bool isRuleDeterminedBySignature(Operation *) const { return true; }
};

template <typename OpTy>
OpShardingRuleAttr resultOnly(OpTy op) {
  return resultOnlyRule(op);
}

} // namespace

void mlir::meshsdy::detail::registerTensorShardingRules(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::EmptyOp::attachInterface<
        RuleModel<tensor::EmptyOp, resultOnly<tensor::EmptyOp>>>(*ctx);
    tensor::SplatOp::attachInterface<
        RuleModel<tensor::SplatOp, resultOnly<tensor::SplatOp>>>(*ctx);
    tensor::ConcatOp::attachInterface<RuleModel<tensor::ConcatOp, concatRule>>(
        *ctx);
    tensor::PadOp::attachInterface<RuleModel<tensor::PadOp, padRule>>(*ctx);
    tensor::ExtractSliceOp::attachInterface<
        RuleModel<tensor::ExtractSliceOp, extractSliceRule>>(*ctx);
    tensor::InsertSliceOp::attachInterface<
        RuleModel<tensor::InsertSliceOp, insertSliceRule>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    arith::ConstantOp::attachInterface<
        RuleModel<arith::ConstantOp, resultOnly<arith::ConstantOp>>>(*ctx);
  });
}
