//===- TensorShardingModels.cpp - ShardingInterface for tensor creation ---===//
//
// tensor.empty, tensor.splat and tensor-typed arith.constant have no tensor
// operands: one parallel loop per result dimension, identity result map.
// Their per-device form is the same op with the per-device type (a splat
// constant stays a splat; another constant is built whole and sliced). tensor.concat and
// tensor.pad are parallel over the dimensions they do not concatenate or
// pad, tensor.extract_slice and tensor.insert_slice over those they take
// whole; the others stay whole on every device.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"
#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// Shared by the creation ops: loops and maps come from the result type.
template <typename Model, typename OpTy>
struct CreationShardingModel
    : ShardingInterface::ExternalModel<Model, OpTy> {
  static int64_t rankOf(Operation *op) {
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    return type ? type.getRank() : -1;
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return SmallVector<utils::IteratorType>(std::max<int64_t>(rankOf(op), 0),
                                            utils::IteratorType::parallel);
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    int64_t rank = rankOf(op);
    if (rank < 0)
      return {};
    MLIRContext *ctx = op->getContext();
    SmallVector<AffineMap> maps(op->getNumOperands(),
                                AffineMap::get(rank, 0, ctx));
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
    return maps;
  }
};

/// tensor.empty and tensor.splat: the same op, with the per-device type
/// (sized at run time where the pieces differ in size).
template <typename OpTy>
struct FilledShardingModel
    : CreationShardingModel<FilledShardingModel<OpTy>, OpTy> {
  LogicalResult spmdize(Operation *op, ArrayRef<Value> localOperands,
                        ArrayRef<MeshSharding>,
                        ArrayRef<MeshSharding> resultShardings,
                        IRMapping &mapping,
                        SymbolTableCollection &symbolTables,
                        OpBuilder &builder) const {
    const MeshSharding &sharding = resultShardings.front();
    if (!cast<OpTy>(op).getDynamicSizes().empty() && sharding &&
        !sharding.isReplicated())
      return op->emitOpError("unsupported by mesh-spmdization: splitting a "
                             "tensor with dynamic sizes");
    {
      // Pieces of different sizes: each device sizes its own at run time.
      auto global = cast<RankedTensorType>(op->getResult(0).getType());
      MeshOp mesh = sharding ? getMesh(op, sharding.getMeshAttr(), symbolTables)
                             : MeshOp();
      if (mesh && !getUnevenDims(global, mesh, sharding).empty()) {
        FailureOr<RankedTensorType> local =
            getLocalType(op, global, sharding, symbolTables,
                         /*allowUneven=*/true);
        if (failed(local))
          return failure();
        SmallVector<Value> sizes;
        for (int64_t dim = 0; dim < local->getRank(); ++dim) {
          if (!local->isDynamicDim(dim))
            continue;
          FailureOr<std::pair<Value, Value>> piece = buildLocalPiece(
              builder, op->getLoc(), mesh, global, sharding, dim);
          if (failed(piece))
            return op->emitOpError("unsupported by mesh-spmdization: "
                                   "dimension ")
                   << dim << " has no static pieces";
          sizes.push_back(piece->second);
        }
        Value piece;
        if constexpr (std::is_same_v<OpTy, tensor::EmptyOp>)
          piece = tensor::EmptyOp::create(builder, op->getLoc(), *local, sizes);
        else
          piece = tensor::SplatOp::create(builder, op->getLoc(), *local,
                                          localOperands.front(), sizes);
        mapping.map(op->getResult(0), piece);
        return success();
      }
    }
    return mesh::detail::spmdizeByCloning(op, localOperands, resultShardings,
                                          mapping, symbolTables, builder);
  }
};

struct ConstantShardingModel
    : CreationShardingModel<ConstantShardingModel, arith::ConstantOp> {
  LogicalResult spmdize(Operation *op, ArrayRef<Value>,
                        ArrayRef<MeshSharding>,
                        ArrayRef<MeshSharding> resultShardings,
                        IRMapping &mapping,
                        SymbolTableCollection &symbolTables,
                        OpBuilder &builder) const {
    auto constant = cast<arith::ConstantOp>(op);
    auto global = dyn_cast<RankedTensorType>(constant.getType());
    const MeshSharding &sharding = resultShardings.front();
    if (!global || !sharding || sharding.isReplicated()) {
      mapping.map(op->getResult(0), builder.clone(*op)->getResult(0));
      return success();
    }
    FailureOr<RankedTensorType> local =
        getLocalType(op, global, sharding, symbolTables);
    if (failed(local))
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (dense && dense.isSplat()) {
      Value splat = arith::ConstantOp::create(
          builder, op->getLoc(), *local,
          DenseElementsAttr::get(*local, dense.getSplatValue<Attribute>()));
      mapping.map(op->getResult(0), splat);
      return success();
    }
    // Each device keeps its slice of the whole constant.
    Value whole = builder.clone(*op)->getResult(0);
    Value current = whole;
    SmallVector<int64_t> shape(global.getShape());
    for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes())) {
      if (axes.empty())
        continue;
      shape[dim] = local->getDimSize(dim);
      current = AllSliceOp::create(
          builder, op->getLoc(), global.clone(shape), sharding.getMeshAttr(),
          DenseI16ArrayAttr::get(builder.getContext(), axes), current,
          builder.getIndexAttr(dim));
    }
    mapping.map(op->getResult(0), current);
    return success();
  }
};

/// Identity maps over the result's dimensions, except that the dimensions
/// `fixed` says are indexed by no loop (the constant 0), so they stay whole.
SmallVector<AffineMap> mapsKeepingWhole(Operation *op,
                                        ArrayRef<bool> fixed) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  MLIRContext *ctx = op->getContext();
  SmallVector<AffineExpr> exprs;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    exprs.push_back(fixed[dim] ? getAffineConstantExpr(0, ctx)
                               : getAffineDimExpr(dim, ctx));
  AffineMap tensorMap = AffineMap::get(type.getRank(), 0, exprs, ctx);
  AffineMap scalarMap = AffineMap::get(type.getRank(), 0, ctx);
  SmallVector<AffineMap> maps;
  for (Type operand : op->getOperandTypes())
    maps.push_back(isa<RankedTensorType>(operand) ? tensorMap : scalarMap);
  maps.push_back(tensorMap);
  return maps;
}

/// tensor.concat: every dimension but the concatenated one is parallel.
/// Its result's sizes follow from its operands', so pieces of different
/// sizes (in the other dimensions) concatenate as they are.
struct ConcatShardingModel
    : ShardingInterface::ExternalModel<ConcatShardingModel, tensor::ConcatOp> {
  LogicalResult spmdize(Operation *op, ArrayRef<Value> localOperands,
                        ArrayRef<MeshSharding>,
                        ArrayRef<MeshSharding> resultShardings,
                        IRMapping &mapping,
                        SymbolTableCollection &symbolTables,
                        OpBuilder &builder) const {
    return mesh::detail::spmdizeByCloning(op, localOperands, resultShardings,
                                          mapping, symbolTables, builder,
                                          /*allowUneven=*/true);
  }
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return SmallVector<utils::IteratorType>(
        cast<tensor::ConcatOp>(op).getRank(), utils::IteratorType::parallel);
  }
  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    auto concat = cast<tensor::ConcatOp>(op);
    SmallVector<bool> fixed(concat.getRank(), false);
    fixed[concat.getDim()] = true;
    return mapsKeepingWhole(op, fixed);
  }
};

/// tensor.pad: the padded dimensions stay whole, the others are parallel.
/// A dimension whose position the padding region reads (its block argument)
/// also stays whole: a device would see its local position there.
struct PadShardingModel
    : ShardingInterface::ExternalModel<PadShardingModel, tensor::PadOp> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return SmallVector<utils::IteratorType>(
        cast<tensor::PadOp>(op).getResultType().getRank(),
        utils::IteratorType::parallel);
  }
  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    auto pad = cast<tensor::PadOp>(op);
    SmallVector<bool> fixed;
    Block &body = pad.getRegion().front();
    for (auto [low, high, position] :
         llvm::zip(pad.getMixedLowPad(), pad.getMixedHighPad(),
                   body.getArguments()))
      fixed.push_back(!isZeroInteger(low) || !isZeroInteger(high) ||
                      !position.use_empty());
    return mapsKeepingWhole(op, fixed);
  }
};

/// tensor.extract_slice and tensor.insert_slice: a dimension the slice
/// takes whole (offset 0, full size, stride 1) is a parallel loop of every
/// tensor of the op; a dimension sliced in part stays whole on every device
/// (a row written into a batch of matrices at a loop's position keeps the
/// batch split). Rank-reducing slices have no model.
template <typename OpTy>
struct SliceShardingModel
    : ShardingInterface::ExternalModel<SliceShardingModel<OpTy>, OpTy> {
  static constexpr bool kInsert = std::is_same_v<OpTy, tensor::InsertSliceOp>;

  /// The sliced tensor: the source of an extract, the destination of an
  /// insert.
  static RankedTensorType wholeType(OpTy slice) {
    if constexpr (kInsert)
      return slice.getDestType();
    else
      return slice.getSourceType();
  }
  static RankedTensorType pieceType(OpTy slice) {
    if constexpr (kInsert)
      return slice.getSourceType();
    else
      return slice.getType();
  }

  static SmallVector<bool> wholeDims(OpTy slice) {
    SmallVector<bool> whole;
    for (auto [size, offset, length, stride] :
         llvm::zip(wholeType(slice).getShape(), slice.getMixedOffsets(),
                   slice.getMixedSizes(), slice.getMixedStrides())) {
      std::optional<int64_t> staticLength = getConstantIntValue(length);
      whole.push_back(isZeroInteger(offset) && isOneInteger(stride) &&
                      staticLength && *staticLength == size);
    }
    return whole;
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return SmallVector<utils::IteratorType>(
        wholeType(cast<OpTy>(op)).getRank(), utils::IteratorType::parallel);
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    auto slice = cast<OpTy>(op);
    if (pieceType(slice).getRank() != wholeType(slice).getRank())
      return {};
    SmallVector<bool> fixed;
    for (bool w : wholeDims(slice))
      fixed.push_back(!w);
    return mapsKeepingWhole(op, fixed);
  }

  LogicalResult spmdize(Operation *op, ArrayRef<Value> localOperands,
                        ArrayRef<MeshSharding>,
                        ArrayRef<MeshSharding> resultShardings,
                        IRMapping &mapping,
                        SymbolTableCollection &symbolTables,
                        OpBuilder &builder) const {
    auto slice = cast<OpTy>(op);
    FailureOr<RankedTensorType> local = getLocalType(
        op, slice.getType(), resultShardings.front(), symbolTables);
    if (failed(local))
      return failure();
    // Whole dimensions take the per-device size; the others are unchanged.
    // The operands after the tensors are the dynamic offsets, sizes,
    // strides.
    IRMapping operands;
    operands.map(op->getOperands(), localOperands);
    auto remap = [&](OpFoldResult value) -> OpFoldResult {
      if (auto v = dyn_cast<Value>(value))
        return operands.lookupOrDefault(v);
      return value;
    };
    SmallVector<OpFoldResult> offsets, sizes, strides;
    SmallVector<bool> whole = wholeDims(slice);
    for (auto [dim, offset, length, stride] :
         llvm::enumerate(slice.getMixedOffsets(), slice.getMixedSizes(),
                         slice.getMixedStrides())) {
      offsets.push_back(remap(offset));
      sizes.push_back(whole[dim] ? builder.getIndexAttr(local->getDimSize(dim))
                                 : remap(length));
      strides.push_back(remap(stride));
    }
    Value result;
    if constexpr (kInsert)
      result = tensor::InsertSliceOp::create(builder, op->getLoc(),
                                             localOperands[0],
                                             localOperands[1], offsets, sizes,
                                             strides);
    else
      result = tensor::ExtractSliceOp::create(builder, op->getLoc(), *local,
                                              localOperands[0], offsets, sizes,
                                              strides);
    mapping.map(op->getResult(0), result);
    return success();
  }
};

} // namespace

void mlir::meshsdy::detail::registerTensorShardingModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::EmptyOp::attachInterface<FilledShardingModel<tensor::EmptyOp>>(
        *ctx);
    tensor::SplatOp::attachInterface<FilledShardingModel<tensor::SplatOp>>(
        *ctx);
    tensor::ConcatOp::attachInterface<ConcatShardingModel>(*ctx);
    tensor::PadOp::attachInterface<PadShardingModel>(*ctx);
    tensor::ExtractSliceOp::attachInterface<
        SliceShardingModel<tensor::ExtractSliceOp>>(*ctx);
    tensor::InsertSliceOp::attachInterface<
        SliceShardingModel<tensor::InsertSliceOp>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    arith::ConstantOp::attachInterface<ConstantShardingModel>(*ctx);
  });
}
