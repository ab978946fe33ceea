//===- LowerAllSlice.cpp - mesh-lower-all-slice ---------------------------===//

#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"
#include "meshsdy/Dialect/Mesh/Transforms/Simplifications.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHLOWERALLSLICE
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;
using namespace mlir::mesh;

namespace {

struct SliceByProcessIndex : OpRewritePattern<AllSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllSliceOp op,
                                PatternRewriter &rewriter) const override {
    ScanningSymbolTableCollection symbolTables;
    MeshOp mesh = getMesh(op, symbolTables);
    auto result = cast<RankedTensorType>(op.getType());
    auto input = cast<RankedTensorType>(op.getInput().getType());
    if (!mesh || ShapedType::isDynamicShape(mesh.getShape()) ||
        !result.hasStaticShape() || !input.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static shapes");
    Location loc = op.getLoc();
    Value inGroup = buildInGroupIndex(rewriter, loc, mesh, op.getMeshAxes());
    int64_t dim = op.getSliceAxis().getSExtValue();
    Value piece =
        arith::ConstantIndexOp::create(rewriter, loc, result.getDimSize(dim));
    SmallVector<OpFoldResult> offsets(result.getRank(), rewriter.getIndexAttr(0));
    offsets[dim] = arith::MulIOp::create(rewriter, loc, inGroup, piece).getResult();
    SmallVector<OpFoldResult> sizes;
    for (int64_t size : result.getShape())
      sizes.push_back(rewriter.getIndexAttr(size));
    SmallVector<OpFoldResult> strides(result.getRank(), rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, result, op.getInput(), offsets, sizes, strides);
    return success();
  }
};

struct MeshLowerAllSlicePass
    : mesh::impl::MeshLowerAllSliceBase<MeshLowerAllSlicePass> {
  void runOnOperation() override {
    ScanningSymbolTableCollection symbolTables;
    WalkResult result = getOperation().walk([&](AllSliceOp op) {
      MeshOp mesh = getMesh(op, symbolTables);
      if (mesh && !ShapedType::isDynamicShape(mesh.getShape()) &&
          cast<RankedTensorType>(op.getType()).hasStaticShape() &&
          cast<RankedTensorType>(op.getInput().getType()).hasStaticShape())
        return WalkResult::advance();
      op.emitOpError("unsupported by mesh-lower-all-slice: dynamic shapes or "
                     "mesh");
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateAllSliceLoweringPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::mesh::populateAllSliceLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<SliceByProcessIndex>(patterns.getContext());
}
