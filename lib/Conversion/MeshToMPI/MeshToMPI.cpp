//===- MeshToMPI.cpp - mesh collectives to the mpi dialect ----------------===//

#include "meshsdy/Conversion/MeshToMPI/MeshToMPI.h"

#include "MPIHelpers.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"
#include "meshsdy/Dialect/Mesh/Transforms/Simplifications.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

namespace mlir::meshsdy {
#define GEN_PASS_DEF_CONVERTMESHTOMPIPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;
using namespace mlir::mesh;

Value mlir::meshsdy::buildGroupComm(OpBuilder &builder, Location loc,
                                    MeshOp mesh, ArrayRef<MeshAxis> axes) {
  // color: index of the group (row-major over the other axes); key: the
  // index inside it (row-major over `axes`, in their order).
  auto rowMajor = [&](ArrayRef<MeshAxis> dims) -> Value {
    return arith::IndexCastOp::create(builder, loc, builder.getI32Type(),
                                      buildInGroupIndex(builder, loc, mesh,
                                                        dims));
  };
  ArrayRef<int64_t> shape = mesh.getShape();
  SmallVector<MeshAxis> outer;
  for (MeshAxis dim = 0; dim < static_cast<MeshAxis>(shape.size()); ++dim)
    if (!llvm::is_contained(axes, dim))
      outer.push_back(dim);
  auto commType = mpi::CommType::get(builder.getContext());
  Value world = mpi::CommWorldOp::create(builder, loc, commType);
  // Every device, in the world's order (axes of size 1 aside): the group is
  // the world itself. A split would run on every call of the function and
  // its communicator would never be freed (the mpi dialect has no free).
  auto sized = [&](ArrayRef<MeshAxis> dims) {
    return llvm::to_vector(llvm::make_filter_range(
        dims, [&](MeshAxis dim) { return shape[dim] != 1; }));
  };
  if (sized(outer).empty() && llvm::is_sorted(sized(axes)))
    return world;
  auto split = mpi::CommSplitOp::create(builder, loc, Type(), commType, world,
                                        rowMajor(outer), rowMajor(axes));
  // Which split of the world this is, for assignGroupColors.
  SmallVector<int64_t> identity(shape);
  identity.push_back(-1);
  llvm::append_range(identity, axes);
  split->setAttr(kGroupAttr, builder.getDenseI64ArrayAttr(identity));
  return split.getNewcomm();
}

LogicalResult mlir::meshsdy::assignGroupColors(Operation *root) {
  constexpr int64_t kMaxColor = std::numeric_limits<int32_t>::max();
  // Colors taken by splits colored before (a module lowered in two steps).
  int64_t next = 0;
  root->walk([&](mpi::CommSplitOp split) {
    if (auto colors = split->getAttrOfType<DenseI64ArrayAttr>(kColorsAttr))
      if (colors.size() == 2 && colors[0] >= 0 && colors[1] >= 0 &&
          colors[0] <= kMaxColor && colors[1] <= kMaxColor)
        next = std::max(next, colors[0] + colors[1]);
  });
  // The number of groups (colors) of a split: the product of the sizes of
  // the axes not grouped; nullopt for an identity that buildGroupComm did
  // not write (the attribute can come with the input).
  auto groupCount = [&](ArrayRef<int64_t> key) -> std::optional<int64_t> {
    const int64_t *mark = llvm::find(key, -1);
    if (mark == key.end())
      return std::nullopt;
    ArrayRef<int64_t> shape(key.begin(), mark);
    ArrayRef<int64_t> axes(mark + 1, key.end());
    int64_t groups = 1;
    for (auto [axis, size] : llvm::enumerate(shape)) {
      if (size < 1)
        return std::nullopt;
      if (!llvm::is_contained(axes, static_cast<int64_t>(axis)))
        groups *= size;
      if (groups > kMaxColor)
        return groups;
    }
    return groups;
  };
  std::map<SmallVector<int64_t>, std::pair<int64_t, int64_t>> colorsOf;
  WalkResult result = root->walk([&](mpi::CommSplitOp split) {
    auto identity = split->getAttrOfType<DenseI64ArrayAttr>(kGroupAttr);
    if (!identity)
      return WalkResult::advance();
    ArrayRef<int64_t> key = identity.asArrayRef();
    auto [it, inserted] = colorsOf.try_emplace(SmallVector<int64_t>(key));
    if (inserted) {
      std::optional<int64_t> groups = groupCount(key);
      if (!groups) {
        split.emitOpError("'") << kGroupAttr
                               << "' is not a mesh shape, -1 and mesh axes";
        return WalkResult::interrupt();
      }
      it->second = {next, *groups};
      next += *groups;
      if (next > kMaxColor) {
        split.emitOpError("more process groups in the module than MPI has "
                          "colors (2^31)");
        return WalkResult::interrupt();
      }
    }
    auto [offset, count] = it->second;
    split->removeAttr(kGroupAttr);
    split->setAttr(kColorsAttr,
                   DenseI64ArrayAttr::get(split.getContext(), {offset, count}));
    if (offset == 0)
      return WalkResult::advance();
    OpBuilder builder(split);
    Value shift = arith::ConstantIntOp::create(builder, split.getLoc(),
                                               builder.getI32Type(), offset);
    split.getColorMutable().assign(arith::AddIOp::create(
        builder, split.getLoc(), split.getColor(), shift));
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void mlir::meshsdy::copyInto(OpBuilder &builder, Location loc, Value tensor,
                             Value buffer) {
  bufferization::MaterializeInDestinationOp::create(
      builder, loc, Type(), tensor, buffer, /*restrict=*/false,
      /*writable=*/true);
}

Value mlir::meshsdy::bufferCopy(OpBuilder &builder, Location loc,
                                Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Value buffer = memref::AllocOp::create(
      builder, loc, MemRefType::get(type.getShape(), type.getElementType()));
  copyInto(builder, loc, tensor, buffer);
  return buffer;
}

Value mlir::meshsdy::flattenBuffer(OpBuilder &builder, Location loc,
                                   Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 1)
    return buffer;
  if (type.getRank() == 0)
    return memref::ExpandShapeOp::create(
        builder, loc, MemRefType::get({1}, type.getElementType()), buffer,
        ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    all.push_back(dim);
  return memref::CollapseShapeOp::create(builder, loc, buffer,
                                         ArrayRef<ReassociationIndices>{all});
}

Value mlir::meshsdy::divideByCount(OpBuilder &builder, Location loc,
                                   Value sum, int64_t count) {
  auto type = cast<RankedTensorType>(sum.getType());
  Type element = type.getElementType();
  bool isFloat = isa<FloatType>(element);
  Attribute size = isFloat ? Attribute(builder.getFloatAttr(element, count))
                           : Attribute(builder.getIntegerAttr(element, count));
  Value divisor = arith::ConstantOp::create(
      builder, loc, type, DenseElementsAttr::get(type, size));
  return isFloat ? arith::DivFOp::create(builder, loc, sum, divisor).getResult()
                 : arith::DivSIOp::create(builder, loc, sum, divisor).getResult();
}

/// Element types upstream's mpi-to-llvm has an MPI datatype for.
static bool hasMPIDatatype(Type type) {
  return type.isF32() || type.isF64() || type.isSignlessInteger(8) ||
         type.isSignlessInteger(16) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

/// The collectives the pass lowers (everything else in the mesh dialect but
/// the annotations and queries it keeps is an error).
static bool isLoweredCollective(Operation *op) {
  return isa<AllReduceOp, AllGatherOp, AllToAllOp, ReduceScatterOp,
             AllSliceOp, UpdateHaloOp, BroadcastOp, GatherOp, ScatterOp,
             ReduceOp, ShiftOp, SendOp, RecvOp>(op);
}

static bool isReduction(Operation *op) {
  return isa<AllReduceOp, ReduceScatterOp, ReduceOp>(op);
}

/// The type an element of `type` travels as in `op`, if it has no MPI
/// datatype: its bits (i16) for 16-bit floats that are only moved, f32 for
/// 16-bit floats that are reduced (the sum is rounded once, at the end),
/// i8 for i1 (and, or, xor, max, min and the low bit of a sum are kept).
static Type carrierType(Type type, Operation *op) {
  MLIRContext *ctx = type.getContext();
  if (type.isF16() || type.isBF16())
    return isReduction(op) ? Type(Float32Type::get(ctx))
                           : Type(IntegerType::get(ctx, 16));
  if (type.isSignlessInteger(1))
    return IntegerType::get(ctx, 8);
  // Positions (an argmax's, a pivot's) are index values: 64-bit here.
  if (type.isIndex())
    return IntegerType::get(ctx, 64);
  return {};
}

namespace {

/// A collective on f16, bf16, i1 or index tensors runs on their carrier type
/// (`carrierType`), converted on the way in and back on the way out.
struct CollectiveOnCarrierType : RewritePattern {
  CollectiveOnCarrierType(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/10, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isLoweredCollective(op))
      return failure();
    auto carried = [&](Type type) -> Type {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        return {};
      Type carrier = carrierType(tensor.getElementType(), op);
      return carrier ? tensor.clone(carrier) : Type();
    };
    if (llvm::none_of(op->getOperandTypes(), carried) &&
        llvm::none_of(op->getResultTypes(), carried))
      return failure();
    Location loc = op->getLoc();
    auto convert = [&](Value value, Type to) -> Value {
      Type from = getElementTypeOrSelf(value.getType());
      Type target = getElementTypeOrSelf(to);
      if (from.isIndex() || target.isIndex())
        return arith::IndexCastOp::create(rewriter, loc, to, value);
      if (from.getIntOrFloatBitWidth() == target.getIntOrFloatBitWidth())
        return arith::BitcastOp::create(rewriter, loc, to, value);
      if (isa<FloatType>(from) && isa<FloatType>(target))
        return from.getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth()
                   ? arith::ExtFOp::create(rewriter, loc, to, value).getResult()
                   : arith::TruncFOp::create(rewriter, loc, to, value)
                         .getResult();
      return from.getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth()
                 ? arith::ExtUIOp::create(rewriter, loc, to, value).getResult()
                 : arith::TruncIOp::create(rewriter, loc, to, value)
                       .getResult();
    };
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      Type to = carried(operand.getType());
      operands.push_back(to ? convert(operand, to) : operand);
    }
    Operation *clone = rewriter.clone(*op);
    clone->setOperands(operands);
    SmallVector<Value> results;
    for (auto [result, original] :
         llvm::zip(clone->getResults(), op->getResults())) {
      Type to = carried(original.getType());
      if (!to) {
        results.push_back(result);
        continue;
      }
      result.setType(to);
      rewriter.setInsertionPointAfter(clone);
      results.push_back(convert(result, original.getType()));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// A collective whose results hold no element (a dimension of size 0, the
/// same on every device: the shapes are static) moves nothing: its results
/// are empty tensors. (Its lowering would slice a size-0 dimension at an
/// offset the verifier refuses.)
struct CollectiveOfNothing : RewritePattern {
  CollectiveOfNothing(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/100, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isLoweredCollective(op) || isa<SendOp, RecvOp>(op) ||
        op->getNumResults() == 0)
      return failure();
    auto empty = [](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
    };
    if (!llvm::all_of(op->getResultTypes(), empty))
      return failure();
    SmallVector<Value> results;
    for (Type type : op->getResultTypes()) {
      auto tensor = cast<RankedTensorType>(type);
      results.push_back(tensor::EmptyOp::create(rewriter, op->getLoc(),
                                                tensor.getShape(),
                                                tensor.getElementType()));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

std::optional<mpi::MPI_ReductionOpEnum> mpiReduction(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Sum:
  case ReductionKind::Average:
    return mpi::MPI_ReductionOpEnum::MPI_SUM;
  case ReductionKind::Max:
    return mpi::MPI_ReductionOpEnum::MPI_MAX;
  case ReductionKind::Min:
    return mpi::MPI_ReductionOpEnum::MPI_MIN;
  case ReductionKind::Product:
    return mpi::MPI_ReductionOpEnum::MPI_PROD;
  case ReductionKind::BitwiseAnd:
    return mpi::MPI_ReductionOpEnum::MPI_BAND;
  case ReductionKind::BitwiseOr:
    return mpi::MPI_ReductionOpEnum::MPI_BOR;
  case ReductionKind::BitwiseXor:
    return mpi::MPI_ReductionOpEnum::MPI_BXOR;
  case ReductionKind::Generic:
    return std::nullopt;
  }
  return std::nullopt;
}

struct LinearIndexAsRank : OpRewritePattern<ProcessLinearIndexOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ProcessLinearIndexOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value world = mpi::CommWorldOp::create(
        rewriter, loc, mpi::CommType::get(getContext()));
    Value rank = mpi::CommRankOp::create(rewriter, loc, Type(),
                                         rewriter.getI32Type(), world)
                     .getRank();
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getIndexType(),
                                                    rank);
    return success();
  }
};

struct AllReduceAsMPI : OpRewritePattern<AllReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllReduceOp op,
                                PatternRewriter &rewriter) const override {
    ScanningSymbolTableCollection symbolTables;
    MeshOp mesh = getMesh(op, symbolTables);
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto result = cast<RankedTensorType>(op.getType());
    std::optional<mpi::MPI_ReductionOpEnum> reduction =
        mpiReduction(op.getReduction());
    if (!mesh || ShapedType::isDynamicShape(mesh.getShape()) || !reduction ||
        !input.hasStaticShape() ||
        input.getElementType() != result.getElementType())
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    Location loc = op.getLoc();
    ArrayRef<int64_t> shape = mesh.getShape();
    ArrayRef<MeshAxis> axes = op.getMeshAxes();

    Value comm = meshsdy::buildGroupComm(rewriter, loc, mesh, axes);

    // The input is copied into the result's buffer, which is reduced in
    // place: one buffer sends and receives, so mpi-to-llvm passes
    // MPI_IN_PLACE and MPI makes no copy of its own.
    Value buffer = meshsdy::bufferCopy(rewriter, loc, op.getInput());
    // The mpi-to-llvm lowering passes the size of a buffer's first
    // dimension as the element count: the reduction sees 1-D views.
    Value flat = meshsdy::flattenBuffer(rewriter, loc, buffer);
    mpi::AllReduceOp::create(rewriter, loc, Type(), flat, flat, *reduction,
                             comm);
    Value reduced = bufferization::ToTensorOp::create(
        rewriter, loc, result, buffer, /*restrict=*/true, /*writable=*/true);
    if (op.getReduction() == ReductionKind::Average)
      reduced = meshsdy::divideByCount(
          rewriter, loc, reduced, collectiveProcessGroupSize(axes, shape));
    rewriter.replaceOp(op, reduced);
    return success();
  }
};

struct ConvertMeshToMPIPass
    : meshsdy::impl::ConvertMeshToMPIPassBase<ConvertMeshToMPIPass> {
  void runOnOperation() override {
    // Everything the patterns cannot handle is an error, found up front so
    // that a failure leaves the module unchanged.
    ScanningSymbolTableCollection symbolTables;
    WalkResult result = getOperation().walk([&](Operation *op) {
      if (op->getDialect() != getContext().getLoadedDialect<MeshDialect>() ||
          isa<MeshOp, ShardingOp, ShardOp, MeshShapeOp>(op))
        return WalkResult::advance();
      if (!isLoweredCollective(op) &&
          !isa<ProcessMultiIndexOp, ProcessLinearIndexOp>(op)) {
        op->emitOpError("unsupported by convert-mesh-to-mpi");
        return WalkResult::interrupt();
      }
      auto meshAttr = op->getAttrOfType<FlatSymbolRefAttr>("mesh");
      MeshOp mesh = meshAttr ? getMesh(op, meshAttr, symbolTables) : MeshOp();
      if (!mesh || ShapedType::isDynamicShape(mesh.getShape())) {
        op->emitOpError("unsupported by convert-mesh-to-mpi: a mesh with "
                        "dynamic axis sizes");
        return WalkResult::interrupt();
      }
      for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                          op->getResultTypes())) {
        auto tensor = dyn_cast<RankedTensorType>(type);
        if (tensor && !tensor.hasStaticShape()) {
          op->emitOpError("unsupported by convert-mesh-to-mpi: dynamic "
                          "tensor shapes");
          return WalkResult::interrupt();
        }
        // Upstream's mpi-to-llvm has MPI datatypes for these only (and
        // aborts on others): check here, with a location.
        Type element = tensor ? tensor.getElementType() : Type();
        if (element && !hasMPIDatatype(element) && !carrierType(element, op)) {
          op->emitOpError("unsupported by convert-mesh-to-mpi: element type ")
              << element
              << " (the mpi dialect's LLVM lowering has MPI datatypes for "
                 "f32, f64, i8, i16, i32 and i64; f16, bf16, i1 and index "
                 "travel as those)";
          return WalkResult::interrupt();
        }
      }
      if (auto halo = dyn_cast<UpdateHaloOp>(op)) {
        if (!isa<RankedTensorType>(halo.getDestination().getType()) ||
            !halo.getHaloSizes().empty()) {
          op->emitOpError("unsupported by convert-mesh-to-mpi: an "
                          "update_halo on a memref or with dynamic halo "
                          "sizes");
          return WalkResult::interrupt();
        }
        // The halos are cut from the neighbours' cores: no wider than them.
        auto type = cast<RankedTensorType>(halo.getDestination().getType());
        ArrayRef<int64_t> halos = halo.getStaticHaloSizes();
        size_t pair = 0;
        for (auto [dim, axes] : llvm::enumerate(halo.getSplitAxes().getAxes())) {
          if (axes.empty() || 2 * pair + 1 >= halos.size())
            continue;
          int64_t low = halos[2 * pair], high = halos[2 * pair + 1];
          ++pair;
          if (type.isDynamicDim(dim) ||
              type.getDimSize(dim) - low - high < std::max(low, high)) {
            op->emitOpError("unsupported by convert-mesh-to-mpi: halos of ")
                << low << " and " << high << " on dimension " << dim
                << " are wider than the core of the local "
                << type.getDimSize(dim) << " elements";
            return WalkResult::interrupt();
          }
        }
      }
      auto dynamicOperand = [&](ValueRange values, StringRef what) {
        if (values.empty())
          return false;
        op->emitOpError("unsupported by convert-mesh-to-mpi: a dynamic ")
            << what;
        return true;
      };
      if ((isa<BroadcastOp>(op) &&
           dynamicOperand(cast<BroadcastOp>(op).getRootDynamic(), "root")) ||
          (isa<GatherOp>(op) &&
           dynamicOperand(cast<GatherOp>(op).getRootDynamic(), "root")) ||
          (isa<ScatterOp>(op) &&
           dynamicOperand(cast<ScatterOp>(op).getRootDynamic(), "root")) ||
          (isa<ReduceOp>(op) &&
           dynamicOperand(cast<ReduceOp>(op).getRootDynamic(), "root")) ||
          (isa<SendOp>(op) && dynamicOperand(
                                  cast<SendOp>(op).getDestinationDynamic(),
                                  "destination")) ||
          (isa<RecvOp>(op) && dynamicOperand(
                                  cast<RecvOp>(op).getSourceDynamic(),
                                  "source")))
        return WalkResult::interrupt();
      if (auto recv = dyn_cast<RecvOp>(op); recv && !recv.getSource()) {
        op->emitOpError("unsupported by convert-mesh-to-mpi: a recv without "
                        "a source (the mpi dialect has no MPI_ANY_SOURCE)");
        return WalkResult::interrupt();
      }
      // reduce_scatter becomes an all_reduce, with the same checks.
      std::optional<ReductionKind> kind;
      if (auto reduce = dyn_cast<AllReduceOp>(op))
        kind = reduce.getReduction();
      if (auto reduce = dyn_cast<ReduceScatterOp>(op))
        kind = reduce.getReduction();
      if (auto reduce = dyn_cast<ReduceOp>(op))
        kind = reduce.getReduction();
      if (kind) {
        if (!mpiReduction(*kind)) {
          op->emitOpError("unsupported by convert-mesh-to-mpi: a 'generic' "
                          "reduction");
          return WalkResult::interrupt();
        }
        if (getElementTypeOrSelf(op->getOperand(0).getType()) !=
            getElementTypeOrSelf(op->getResult(0).getType())) {
          op->emitOpError("unsupported by convert-mesh-to-mpi: an "
                          "accumulation type different from the input's");
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    RewritePatternSet patterns(&getContext());
    // Ahead of the decompositions (higher benefit): all_gather and all_to_all
    // move only what they need.
    patterns.add<CollectiveOfNothing, CollectiveOnCarrierType>(&getContext());
    meshsdy::populatePointToPointCollectivePatterns(patterns);
    meshsdy::populateRootedCollectivePatterns(patterns);
    populateCollectiveDecompositionPatterns(patterns);
    populateAllSliceLoweringPatterns(patterns);
    populateProcessIndexLoweringPatterns(patterns);
    patterns.add<LinearIndexAsRank, AllReduceAsMPI>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))) ||
        failed(meshsdy::assignGroupColors(getOperation())))
      signalPassFailure();
  }
};

} // namespace
