//===- DecomposeCollectives.cpp - mesh-decompose-collectives --------------===//
//
// Rewrites the collectives in terms of all_reduce and all_slice, which is
// what a backend with only an allreduce primitive (the upstream mpi dialect)
// can run:
//   all_gather(x)       = all_reduce_sum(insert x at its place in zeros)
//   all_to_all(x)       = all_slice(all_gather(x, concat_axis), split_axis)
//   reduce_scatter(x)   = all_slice(all_reduce(x), scatter_axis)
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"
#include "meshsdy/Dialect/Mesh/Transforms/Simplifications.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHDECOMPOSECOLLECTIVES
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// The static mesh of a collective, or null.
MeshOp staticMesh(Operation *op, FlatSymbolRefAttr symbol) {
  ScanningSymbolTableCollection symbolTables;
  MeshOp mesh = getMesh(op, symbol, symbolTables);
  return mesh && !ShapedType::isDynamicShape(mesh.getShape()) ? mesh
                                                              : MeshOp();
}

struct AllGatherAsAllReduce : OpRewritePattern<AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    MeshOp mesh = staticMesh(op, op.getMeshAttr());
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto result = cast<RankedTensorType>(op.getType());
    if (!mesh || !input.hasStaticShape() || !result.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Type element = result.getElementType();
    TypedAttr zero = rewriter.getZeroAttr(element);
    if (!zero) // e.g. complex numbers
      return rewriter.notifyMatchFailure(op, "no zero of the element type");
    Location loc = op.getLoc();
    int64_t dim = op.getGatherAxis().getSExtValue();
    Value index = buildInGroupIndex(rewriter, loc, mesh, op.getMeshAxes());
    Value piece = arith::ConstantIndexOp::create(rewriter, loc,
                                                 input.getDimSize(dim));
    SmallVector<OpFoldResult> offsets(input.getRank(),
                                      rewriter.getIndexAttr(0));
    offsets[dim] =
        arith::MulIOp::create(rewriter, loc, index, piece).getResult();
    SmallVector<OpFoldResult> sizes, strides(input.getRank(),
                                             rewriter.getIndexAttr(1));
    for (int64_t size : input.getShape())
      sizes.push_back(rewriter.getIndexAttr(size));
    Value zeros = arith::ConstantOp::create(
        rewriter, loc, result, DenseElementsAttr::get(result, zero));
    Value placed = tensor::InsertSliceOp::create(
        rewriter, loc, op.getInput(), zeros, offsets, sizes, strides);
    // x + 0 is exact; booleans combine with or.
    ReductionKind kind = element.isInteger(1) ? ReductionKind::BitwiseOr
                                              : ReductionKind::Sum;
    rewriter.replaceOpWithNewOp<AllReduceOp>(
        op, result, op.getMeshAttr(), op.getMeshAxesAttr(), placed,
        ReductionKindAttr::get(getContext(), kind));
    return success();
  }
};

struct AllToAllAsGatherSlice : OpRewritePattern<AllToAllOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllToAllOp op,
                                PatternRewriter &rewriter) const override {
    MeshOp mesh = staticMesh(op, op.getMeshAttr());
    auto input = cast<RankedTensorType>(op.getInput().getType());
    if (!mesh || !input.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    int64_t concat = op.getConcatAxis().getSExtValue();
    SmallVector<int64_t> gathered(input.getShape());
    gathered[concat] *=
        collectiveProcessGroupSize(op.getMeshAxes(), mesh.getShape());
    Value all = AllGatherOp::create(
        rewriter, op.getLoc(), input.clone(gathered), op.getMeshAttr(),
        op.getMeshAxesAttr(), op.getInput(), op.getConcatAxisAttr());
    rewriter.replaceOpWithNewOp<AllSliceOp>(op, op.getType(), op.getMeshAttr(),
                                            op.getMeshAxesAttr(), all,
                                            op.getSplitAxisAttr());
    return success();
  }
};

struct ReduceScatterAsReduceSlice : OpRewritePattern<ReduceScatterOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceScatterOp op,
                                PatternRewriter &rewriter) const override {
    auto input = cast<RankedTensorType>(op.getInput().getType());
    auto result = cast<RankedTensorType>(op.getType());
    Value reduced = AllReduceOp::create(
        rewriter, op.getLoc(), input.clone(result.getElementType()),
        op.getMeshAttr(), op.getMeshAxesAttr(), op.getInput(),
        op.getReductionAttr());
    rewriter.replaceOpWithNewOp<AllSliceOp>(op, result, op.getMeshAttr(),
                                            op.getMeshAxesAttr(), reduced,
                                            op.getScatterAxisAttr());
    return success();
  }
};

struct MeshDecomposeCollectivesPass
    : mesh::impl::MeshDecomposeCollectivesBase<MeshDecomposeCollectivesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCollectiveDecompositionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::mesh::populateCollectiveDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AllGatherAsAllReduce, AllToAllAsGatherSlice,
               ReduceScatterAsReduceSlice>(patterns.getContext());
}
