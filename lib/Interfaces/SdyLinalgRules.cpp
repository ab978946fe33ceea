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
// expanded dimension. In a named op (convolutions, poolings), a dimension
// read through a window (`d1 * 2 + d4`) gets a factor of its own that needs
// replication, and so does every loop such a window reads: the other loops
// (batch, features) keep their factors, so shardings pass through a
// convolution on them, never on its windows (Shardy's convolution rule
// marks those permutation or reduction factors). A linalg.generic with a
// window (jaxlib's reduce_window: cumsum) stays a barrier: its output is
// the windowed loops, and factors needing replication there would carry
// the output's split onto its init, gathered for nothing (XLA keeps it
// whole). Expressions with symbols, dynamic loop sizes or buffer
// semantics: no rule, the op is a barrier.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/OpShardingRuleBuilder.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// Whether `expr` reads a window: loops and constants combined, no symbol.
bool isWindow(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineConstantExpr>(expr))
    return false;
  bool symbols = false;
  expr.walk([&](AffineExpr e) { symbols |= isa<AffineSymbolExpr>(e); });
  return !symbols;
}

/// Maps the dimensions `map` indexes of one operand or result through
/// `mapDim(dim, factor)`; false if an index is not a loop, a constant 0 on
/// a size-1 dimension or a window on a static dimension.
template <typename MapDim>
bool mapTensor(OpShardingRuleBuilder &builder, AffineMap map, Type type,
               ArrayRef<int64_t> loopFactors, bool windows, MapDim mapDim) {
  auto shaped = dyn_cast<ShapedType>(type);
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    if (auto loop = dyn_cast<AffineDimExpr>(expr)) {
      mapDim(dim, loopFactors[loop.getPosition()]);
      continue;
    }
    if (windows && isWindow(expr) && shaped && !shaped.isDynamicDim(dim)) {
      mapDim(dim, builder.addFactor(shaped.getDimSize(dim),
                                    FactorKind::NeedReplication));
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
  // The loops a window reads stay whole on every device.
  bool windows = !isa<linalg::GenericOp>(op.getOperation());
  llvm::SmallBitVector windowed(iterators.size());
  for (AffineMap map : maps)
    for (AffineExpr expr : map.getResults())
      if (isWindow(expr))
        for (unsigned loop = 0; loop < iterators.size(); ++loop)
          if (expr.isFunctionOfDim(loop))
            windowed.set(loop);
  OpShardingRuleBuilder builder(op);
  SmallVector<int64_t> loopFactors;
  for (auto [loop, size, iterator] :
       llvm::enumerate(ranges, iterators))
    loopFactors.push_back(builder.addFactor(
        size, windowed.test(loop) ? FactorKind::NeedReplication
              : iterator == utils::IteratorType::reduction
                  ? FactorKind::Reduction
                  : FactorKind::PassThrough));
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned index = operand.getOperandNumber();
    if (!mapTensor(builder, maps[index], operand.get().getType(), loopFactors,
                   windows, [&](int64_t dim, int64_t factor) {
                     builder.mapOperand(index, dim, factor);
                   }))
      return {};
  }
  for (OpResult result : op->getResults()) {
    unsigned index = result.getResultNumber();
    if (!mapTensor(builder, maps[numInputs + index], result.getType(),
                   loopFactors, windows,
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
