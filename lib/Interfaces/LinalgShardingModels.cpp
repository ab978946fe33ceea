//===- LinalgShardingModels.cpp - ShardingInterface for linalg ops --------===//
//
// Every linalg structured op is a loop nest with indexing maps, which is
// exactly what ShardingInterface asks for. Reductions are recognised from
// the op's body (an addf/addi yield is a sum, and so on).
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// The reduction `combiner` performs, or Generic.
ReductionKind kindOf(Operation *combiner) {
  if (!combiner)
    return ReductionKind::Generic;
  return llvm::TypeSwitch<Operation *, ReductionKind>(combiner)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return ReductionKind::Sum; })
      .Case<arith::MulFOp, arith::MulIOp>(
          [](auto) { return ReductionKind::Product; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp,
            arith::MaxUIOp>([](auto) { return ReductionKind::Max; })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp,
            arith::MinUIOp>([](auto) { return ReductionKind::Min; })
      .Case<arith::AndIOp>([](auto) { return ReductionKind::BitwiseAnd; })
      .Case<arith::OrIOp>([](auto) { return ReductionKind::BitwiseOr; })
      .Case<arith::XOrIOp>([](auto) { return ReductionKind::BitwiseXor; })
      .Default([](Operation *) { return ReductionKind::Generic; });
}

/// True if `init` is a linalg.fill of the neutral element of `kind`, so that
/// every device may start its partial reduction from it.
bool isNeutralInit(Value init, ReductionKind kind) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return false;
  Attribute value;
  if (!matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return false;
  switch (kind) {
  case ReductionKind::Sum:
  case ReductionKind::BitwiseOr:
  case ReductionKind::BitwiseXor:
    return matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ||
           matchPattern(fill.getInputs()[0], m_Zero());
  case ReductionKind::Product:
    return matchPattern(fill.getInputs()[0], m_OneFloat()) ||
           matchPattern(fill.getInputs()[0], m_One());
  default:
    return false;
  }
}

/// The value `kind` leaves unchanged, for `type`, or null if unknown
/// (integer max/min: signedness is not known here).
TypedAttr neutralElement(Type type, ReductionKind kind) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    switch (kind) {
    case ReductionKind::Sum:
      return FloatAttr::get(type, 0.0);
    case ReductionKind::Product:
      return FloatAttr::get(type, 1.0);
    case ReductionKind::Max:
      return FloatAttr::get(type, APFloat::getInf(semantics, /*Negative=*/true));
    case ReductionKind::Min:
      return FloatAttr::get(type, APFloat::getInf(semantics));
    default:
      return {};
    }
  }
  if (auto intType = dyn_cast<IntegerType>(type)) {
    switch (kind) {
    case ReductionKind::Sum:
    case ReductionKind::BitwiseOr:
    case ReductionKind::BitwiseXor:
      return IntegerAttr::get(type, 0);
    case ReductionKind::Product:
      return IntegerAttr::get(type, 1);
    case ReductionKind::BitwiseAnd:
      return IntegerAttr::get(type, APInt::getAllOnes(intType.getWidth()));
    default:
      return {};
    }
  }
  return {};
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
      SmallVector<Operation *, 4> combiners;
      if (!matchReduction(linalgOp.getRegionOutputArgs(), out, combiners) ||
          combiners.size() != 1)
        return SmallVector<ReductionKind>(numReductions,
                                          ReductionKind::Generic);
      ReductionKind outKind = kindOf(combiners.front());
      if (out > 0 && outKind != kind)
        outKind = ReductionKind::Generic;
      kind = outKind;
    }
    return SmallVector<ReductionKind>(numReductions, kind);
  }

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
      Value init = initOperand->get();
      // Look through the mesh.shard annotations to the init's definition.
      while (auto shard = init.getDefiningOp<ShardOp>())
        init = shard.getSrc();
      if (isNeutralInit(init, sharding.getPartialType()))
        continue;
      Value &local = operands[initOperand->getOperandNumber()];
      auto type = cast<RankedTensorType>(local.getType());
      if (!type.hasStaticShape())
        return op->emitOpError(
            "unsupported by mesh-spmdization: a reduction split over mesh "
            "axes with an init that is not its neutral element, on shards "
            "of different sizes");
      TypedAttr neutral =
          neutralElement(type.getElementType(), sharding.getPartialType());
      if (!neutral)
        return op->emitOpError(
            "unsupported by mesh-spmdization: a reduction split over mesh "
            "axes with an init that is not its neutral element, for a "
            "reduction without a known neutral element of this type");
      Location loc = op->getLoc();
      Value neutralTensor = arith::ConstantOp::create(
          builder, loc, type, SplatElementsAttr::get(type, neutral));
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
    return mesh::detail::spmdizeByCloning(op, operands, resultShardings,
                                          mapping, symbolTables, builder,
                                          /*allowUneven=*/true);
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
