//===- SdyLinalgRules.cpp - sdy sharding rules of linalg ops --------------===//
//
// A linalg structured op is a loop nest: its factors are its loops, in loop
// order, each of the loop's static size; reduction loops are reduction
// factors. A tensor dimension indexed by loop `d` maps to factor `d`; the
// inits map as the results they become. This reproduces Shardy's rules for
// the StableHLO equivalents (matmul ~ dot_general: `([i, k], [k, j])->([i,
// j]) reduction={k}`, reduce, broadcast, transpose), plus the init operands,
// which StableHLO does not have.
//
// A dimension indexed by the constant 0 (a broadcast size-1 dimension in a
// generic) gets a size-1 factor of its own, as Shardy gives a broadcast's
// expanded dimension. Any other index expression (convolutions, d0 + d1),
// dynamic loop sizes or buffer semantics: no rule, the op is a barrier.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/OpShardingRuleBuilder.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// Maps the dimensions `map` indexes of one operand or result through
/// `mapDim(dim, factor)`; false if an index is not a loop or a constant 0 on
/// a size-1 dimension.
template <typename MapDim>
bool mapTensor(OpShardingRuleBuilder &builder, AffineMap map, Type type,
               ArrayRef<int64_t> loopFactors, MapDim mapDim) {
  auto shaped = dyn_cast<ShapedType>(type);
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    if (auto loop = dyn_cast<AffineDimExpr>(expr)) {
      mapDim(dim, loopFactors[loop.getPosition()]);
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0 || !shaped ||
        shaped.getDimSize(dim) != 1)
      return false;
    mapDim(dim, builder.addFactor(1));
  }
  return true;
}

OpShardingRuleAttr linalgRule(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return {};
  // Named ops build their maps on each query: build them once.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  int64_t numInputs = op.getNumDpsInputs();
  if (maps.size() != op->getNumOperands() ||
      op->getNumResults() != op.getNumDpsInits())
    return {};
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // A loop's size is that of the first dimension it indexes directly.
  SmallVector<int64_t> ranges(iterators.size(), ShapedType::kDynamic);
  for (auto [map, operand] : llvm::zip_equal(maps, op->getOperands())) {
    // Scalars (a fill's value) index nothing.
    auto shaped = dyn_cast<ShapedType>(operand.getType());
    if ((shaped && !shaped.hasRank()) ||
        map.getNumResults() != (shaped ? shaped.getRank() : 0) ||
        map.getNumDims() != ranges.size())
      return {};
    for (auto [dim, expr] : llvm::enumerate(map.getResults()))
      if (auto loop = dyn_cast<AffineDimExpr>(expr);
          loop && ShapedType::isDynamic(ranges[loop.getPosition()]))
        ranges[loop.getPosition()] = shaped.getDimSize(dim);
  }
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return {};
  OpShardingRuleBuilder builder(op);
  SmallVector<int64_t> loopFactors;
  for (auto [size, iterator] : llvm::zip_equal(ranges, iterators))
    loopFactors.push_back(builder.addFactor(
        size, iterator == utils::IteratorType::reduction
                  ? FactorKind::Reduction
                  : FactorKind::PassThrough));
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned index = operand.getOperandNumber();
    if (!mapTensor(builder, maps[index], operand.get().getType(), loopFactors,
                   [&](int64_t dim, int64_t factor) {
                     builder.mapOperand(index, dim, factor);
                   }))
      return {};
  }
  for (OpResult result : op->getResults()) {
    unsigned index = result.getResultNumber();
    if (!mapTensor(builder, maps[numInputs + index], result.getType(),
                   loopFactors,
                   [&](int64_t dim, int64_t factor) {
                     builder.mapResult(index, dim, factor);
                   }))
      return {};
  }
  return builder.build();
}

template <typename OpTy>
struct LinalgRuleModel
    : ShardingRuleOpInterface::ExternalModel<LinalgRuleModel<OpTy>, OpTy> {
  OpShardingRuleAttr getShardingRule(Operation *op) const {
    return linalgRule(cast<linalg::LinalgOp>(op));
  }
  bool isRuleDeterminedBySignature(Operation *) const { return true; }
};

template <typename... OpTys>
void attachToAll(MLIRContext *ctx) {
  (OpTys::template attachInterface<LinalgRuleModel<OpTys>>(*ctx), ...);
}

} // namespace

void mlir::meshsdy::detail::registerLinalgShardingRules(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachToAll<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(ctx);
  });
}
