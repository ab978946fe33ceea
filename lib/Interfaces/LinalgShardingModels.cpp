//===- LinalgShardingModels.cpp - ShardingInterface for linalg ops --------===//
//
// Every linalg structured op is a loop nest with indexing maps, which is
// exactly what ShardingInterface asks for. Reductions are recognised from
// the op's body (an addf/addi yield is a sum, and so on).
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Interfaces/LinalgPositions.h"
#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"
#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// The reduction `combiner` performs, or Generic. Unsigned max/min are
/// generic: a mesh reduction (and MPI's) compares integers as signed.
ReductionKind kindOf(Operation *combiner) {
  if (!combiner)
    return ReductionKind::Generic;
  return llvm::TypeSwitch<Operation *, ReductionKind>(combiner)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return ReductionKind::Sum; })
      .Case<arith::MulFOp, arith::MulIOp>(
          [](auto) { return ReductionKind::Product; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
          [](auto) { return ReductionKind::Max; })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
          [](auto) { return ReductionKind::Min; })
      .Case<arith::AndIOp>([](auto) { return ReductionKind::BitwiseAnd; })
      .Case<arith::OrIOp>([](auto) { return ReductionKind::BitwiseOr; })
      .Case<arith::XOrIOp>([](auto) { return ReductionKind::BitwiseXor; })
      .Default([](Operation *) { return ReductionKind::Generic; });
}

/// The one op that combines output `out` of `linalgOp` with a new value,
/// or null.
Operation *combinerOf(linalg::LinalgOp linalgOp, unsigned out) {
  SmallVector<Operation *, 4> combiners;
  if (!matchReduction(linalgOp.getRegionOutputArgs(), out, combiners) ||
      combiners.size() != 1)
    return nullptr;
  return combiners.front();
}

/// The value `combiner` leaves unchanged, of `type`, or null if unknown.
TypedAttr neutralElement(Operation *combiner, Type type) {
  if (!combiner)
    return {};
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    auto value = [&](APFloat v) -> TypedAttr { return FloatAttr::get(type, v); };
    return llvm::TypeSwitch<Operation *, TypedAttr>(combiner)
        .Case<arith::AddFOp>([&](auto) { return value(APFloat::getZero(semantics)); })
        .Case<arith::MulFOp>([&](auto) { return value(APFloat::getOne(semantics)); })
        .Case<arith::MaximumFOp, arith::MaxNumFOp>(
            [&](auto) { return value(APFloat::getInf(semantics, true)); })
        .Case<arith::MinimumFOp, arith::MinNumFOp>(
            [&](auto) { return value(APFloat::getInf(semantics)); })
        .Default([](Operation *) { return TypedAttr(); });
  }
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return {};
  unsigned width = intType.getWidth();
  auto value = [&](const APInt &v) -> TypedAttr {
    return IntegerAttr::get(type, v);
  };
  return llvm::TypeSwitch<Operation *, TypedAttr>(combiner)
      .Case<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(
          [&](auto) { return value(APInt::getZero(width)); })
      .Case<arith::MulIOp>([&](auto) { return value(APInt(width, 1)); })
      .Case<arith::AndIOp, arith::MinUIOp>(
          [&](auto) { return value(APInt::getAllOnes(width)); })
      .Case<arith::MaxSIOp>(
          [&](auto) { return value(APInt::getSignedMinValue(width)); })
      .Case<arith::MinSIOp>(
          [&](auto) { return value(APInt::getSignedMaxValue(width)); })
      .Default([](Operation *) { return TypedAttr(); });
}

/// True if `init` is a linalg.fill of `neutral`, so that every device may
/// start its partial reduction from it (zeros of either sign are alike).
bool isNeutralInit(Value init, TypedAttr neutral) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  Attribute value;
  if (!fill || !neutral ||
      !matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return false;
  if (auto f = dyn_cast<FloatAttr>(value))
    if (auto n = dyn_cast<FloatAttr>(neutral))
      return f.getValue().compare(n.getValue()) == APFloat::cmpEqual;
  if (auto i = dyn_cast<IntegerAttr>(value))
    if (auto n = dyn_cast<IntegerAttr>(neutral))
      return i.getValue() == n.getValue();
  return false;
}

/// The loops whose position the body of `linalgOp` reads (`linalg.index`).
llvm::SmallSetVector<unsigned, 4> indexedLoops(linalg::LinalgOp linalgOp) {
  llvm::SmallSetVector<unsigned, 4> loops;
  linalgOp->walk([&](linalg::IndexOp index) {
    if (index->getParentOp() == linalgOp.getOperation())
      loops.insert(index.getDim());
  });
  return loops;
}

/// Where this device's part of loop `loop` starts in the whole iteration
/// space, or null if the loop is not split. The loop's split is read off a
/// tensor dimension it indexes alone. An even split needs only the local
/// extent (in-group index x extent); an uneven one needs the global extent,
/// which a function argument no longer shows (it is retyped in place).
FailureOr<Value> buildLoopOffset(Operation *op, unsigned loop,
                                 ArrayRef<AffineMap> maps,
                                 ArrayRef<Value> localOperands,
                                 ArrayRef<MeshSharding> operandShardings,
                                 ArrayRef<MeshSharding> resultShardings,
                                 SymbolTableCollection &symbolTables,
                                 OpBuilder &builder) {
  unsigned numOperands = op->getNumOperands();
  AffineExpr loopExpr = getAffineDimExpr(loop, op->getContext());
  for (auto [i, map] : llvm::enumerate(maps)) {
    bool isOperand = i < numOperands;
    const MeshSharding &sharding =
        isOperand ? operandShardings[i] : resultShardings[i - numOperands];
    if (!sharding)
      continue;
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      if (expr != loopExpr || dim >= sharding.getSplitAxes().size() ||
          sharding.getSplitAxes()[dim].empty())
        continue;
      MeshOp mesh = getMesh(op, sharding.getMeshAttr(), symbolTables);
      if (!mesh)
        return op->emitOpError("mesh '") << sharding.getMesh() << "' not found";
      Location loc = op->getLoc();
      Value global = isOperand ? op->getOperand(i)
                               : op->getResult(i - numOperands);
      auto localType =
          isOperand ? dyn_cast<RankedTensorType>(localOperands[i].getType())
                    : RankedTensorType();
      if (localType && !localType.isDynamicDim(dim)) {
        Value index = buildInGroupIndex(builder, loc, mesh,
                                        sharding.getSplitAxes()[dim]);
        return Value(arith::MulIOp::create(
            builder, loc, index,
            arith::ConstantIndexOp::create(builder, loc,
                                           localType.getDimSize(dim))));
      }
      auto arg = dyn_cast<BlockArgument>(global);
      bool retyped =
          arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
      auto globalType = dyn_cast<RankedTensorType>(global.getType());
      if (retyped || !globalType)
        continue;
      FailureOr<std::pair<Value, Value>> piece =
          buildLocalPiece(builder, loc, mesh, globalType, sharding, dim);
      if (succeeded(piece))
        return piece->first;
    }
  }
  for (auto [i, map] : llvm::enumerate(maps)) {
    const MeshSharding &sharding = i < numOperands
                                       ? operandShardings[i]
                                       : resultShardings[i - numOperands];
    for (auto [dim, expr] : llvm::enumerate(map.getResults()))
      if (sharding && expr == loopExpr &&
          dim < sharding.getSplitAxes().size() &&
          !sharding.getSplitAxes()[dim].empty())
        return op->emitOpError(
            "unsupported by mesh-spmdization: linalg.index of a loop split "
            "into pieces of different sizes whose whole extent is unknown");
  }
  return Value();
}

/// Clones `op` for this device; a `linalg.index` of a split loop then
/// reads its global position: local index + where the device's part starts.
LogicalResult cloneWithGlobalIndices(Operation *op,
                                     ArrayRef<Value> localOperands,
                                     ArrayRef<MeshSharding> operandShardings,
                                     ArrayRef<MeshSharding> resultShardings,
                                     IRMapping &mapping,
                                     SymbolTableCollection &symbolTables,
                                     OpBuilder &builder) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  llvm::SmallSetVector<unsigned, 4> loops = indexedLoops(linalgOp);
  DenseMap<unsigned, Value> offsets;
  if (!loops.empty()) {
    SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
    for (OpResult result : op->getResults())
      maps.push_back(
          maps[linalgOp.getDpsInitOperand(result.getResultNumber())
                   ->getOperandNumber()]);
    for (unsigned loop : loops) {
      FailureOr<Value> offset =
          buildLoopOffset(op, loop, maps, localOperands, operandShardings,
                          resultShardings, symbolTables, builder);
      if (failed(offset))
        return failure();
      if (*offset)
        offsets[loop] = *offset;
    }
  }
  FailureOr<Operation *> clone = mesh::detail::cloneForDevice(
      op, localOperands, resultShardings, mapping, symbolTables, builder,
      /*allowUneven=*/true);
  if (failed(clone))
    return failure();
  if (offsets.empty())
    return success();
  meshsdy::offsetLinalgPositions(
      cast<linalg::LinalgOp>(*clone), builder,
      [&](OpBuilder &, linalg::IndexOp index) {
        return offsets.lookup(index.getDim());
      });
  return success();
}

template <typename OpTy>
struct LinalgShardingModel
    : ShardingInterface::ExternalModel<LinalgShardingModel<OpTy>, OpTy> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return cast<linalg::LinalgOp>(op).getIteratorTypesArray();
  }

  SmallVector<ReductionKind> getReductionLoopIteratorKinds(Operation *op) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    unsigned numReductions = linalgOp.getNumReductionLoops();
    // One combiner for all outputs, or the reduction is generic.
    ReductionKind kind = ReductionKind::Generic;
    for (unsigned out = 0; out < linalgOp.getNumDpsInits(); ++out) {
      Operation *combiner = combinerOf(linalgOp, out);
      if (!combiner)
        return SmallVector<ReductionKind>(numReductions,
                                          ReductionKind::Generic);
      ReductionKind outKind = kindOf(combiner);
      if (out > 0 && outKind != kind)
        outKind = ReductionKind::Generic;
      kind = outKind;
    }
    return SmallVector<ReductionKind>(numReductions, kind);
  }

  /// A body reads its position only through `linalg.index`, which the
  /// clone turns into the global position: a tensor it reads from above
  /// (a gather's table), held whole, is read at the same elements as in
  /// the original.
  bool canReadWholeTensorsFromAbove(Operation *) const { return true; }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
    if (maps.size() != op->getNumOperands())
      return {};
    // Results are the inits, written back. (Their maps are taken from the
    // operand maps: linalg recomputes all maps on every query.)
    for (OpResult result : op->getResults())
      maps.push_back(
          maps[linalgOp.getDpsInitOperand(result.getResultNumber())
                   ->getOperandNumber()]);
    return maps;
  }

  LogicalResult spmdize(Operation *op, ArrayRef<Value> localOperands,
                        ArrayRef<MeshSharding> operandShardings,
                        ArrayRef<MeshSharding> resultShardings,
                        IRMapping &mapping,
                        SymbolTableCollection &symbolTables,
                        OpBuilder &builder) const {
    // Each device reduces its own slice; the partial results are combined
    // later, so an init must count once: unless it is already the neutral
    // element, only the first device of each group starts from it, the
    // others from the neutral element.
    auto linalgOp = cast<linalg::LinalgOp>(op);
    SmallVector<Value> operands(localOperands);
    for (auto [result, sharding] : llvm::zip(op->getResults(), resultShardings)) {
      if (!sharding || sharding.getPartialAxes().empty())
        continue;
      OpOperand *initOperand =
          linalgOp.getDpsInitOperand(result.getResultNumber());
      // A body that never reads its init (a gather partial over its table's
      // axes) counts it nowhere.
      if (linalgOp.getMatchingBlockArgument(initOperand).use_empty())
        continue;
      Value init = initOperand->get();
      // Look through the mesh.shard annotations to the init's definition.
      while (auto shard = init.getDefiningOp<ShardOp>())
        init = shard.getSrc();
      Value &local = operands[initOperand->getOperandNumber()];
      auto type = cast<RankedTensorType>(local.getType());
      TypedAttr neutral = neutralElement(
          combinerOf(linalgOp, result.getResultNumber()),
          type.getElementType());
      if (isNeutralInit(init, neutral))
        continue;
      if (!neutral)
        return op->emitOpError(
            "unsupported by mesh-spmdization: a reduction split over mesh "
            "axes with an init that is not its neutral element, for a "
            "reduction without a known neutral element of this type");
      Location loc = op->getLoc();
      // A piece of one size everywhere is a constant; pieces of different
      // sizes (uneven parallel dimensions) are as large as the init's.
      Value neutralTensor;
      if (type.hasStaticShape()) {
        neutralTensor = arith::ConstantOp::create(
            builder, loc, type, SplatElementsAttr::get(type, neutral));
      } else {
        SmallVector<Value> sizes;
        for (int64_t dim = 0; dim < type.getRank(); ++dim)
          if (type.isDynamicDim(dim))
            sizes.push_back(tensor::DimOp::create(builder, loc, local, dim));
        Value scalar = arith::ConstantOp::create(builder, loc, neutral);
        neutralTensor =
            tensor::SplatOp::create(builder, loc, type, scalar, sizes);
      }
      SmallVector<Type> indexTypes(sharding.getPartialAxes().size(),
                                   builder.getIndexType());
      auto coords = ProcessMultiIndexOp::create(
          builder, loc, indexTypes, sharding.getMeshAttr(),
          builder.getDenseI16ArrayAttr(sharding.getPartialAxes()));
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value first = arith::ConstantIntOp::create(builder, loc, 1, 1);
      for (Value coord : coords->getResults())
        first = arith::AndIOp::create(
            builder, loc, first,
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                  coord, zero));
      local = arith::SelectOp::create(builder, loc, first, local,
                                      neutralTensor);
    }
    return cloneWithGlobalIndices(op, operands, operandShardings,
                                  resultShardings, mapping, symbolTables,
                                  builder);
  }
};

template <typename... OpTys>
void attachToAll(MLIRContext *ctx) {
  (OpTys::template attachInterface<LinalgShardingModel<OpTys>>(*ctx), ...);
}

} // namespace

void mlir::meshsdy::detail::registerLinalgShardingModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachToAll<

#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
                >(ctx);
  });
}
