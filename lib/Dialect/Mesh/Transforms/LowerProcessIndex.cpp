//===- LowerProcessIndex.cpp - mesh-lower-process-index -------------------===//

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"
#include "meshsdy/Dialect/Mesh/Transforms/Simplifications.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHLOWERPROCESSINDEX
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;
using namespace mlir::mesh;

namespace {

struct DelinearizeProcessIndex : OpRewritePattern<ProcessMultiIndexOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ProcessMultiIndexOp op,
                                PatternRewriter &rewriter) const override {
    ScanningSymbolTableCollection symbolTables;
    MeshOp mesh = getMesh(op, symbolTables);
    if (!mesh || ShapedType::isDynamicShape(mesh.getShape()))
      return rewriter.notifyMatchFailure(op, "needs a static mesh");
    ArrayRef<int64_t> shape = mesh.getShape();
    SmallVector<MeshAxis> axes(op.getAxes());
    if (axes.empty())
      for (int64_t a = 0; a < static_cast<int64_t>(shape.size()); ++a)
        axes.push_back(a);
    Location loc = op.getLoc();
    Value linear =
        ProcessLinearIndexOp::create(rewriter, loc, op.getMeshAttr());
    SmallVector<Value> coords;
    for (MeshAxis axis : axes) {
      int64_t stride = 1;
      for (int64_t inner = axis + 1; inner < static_cast<int64_t>(shape.size());
           ++inner)
        stride *= shape[inner];
      Value q = arith::DivUIOp::create(
          rewriter, loc, linear,
          arith::ConstantIndexOp::create(rewriter, loc, stride));
      coords.push_back(arith::RemUIOp::create(
          rewriter, loc, q,
          arith::ConstantIndexOp::create(rewriter, loc, shape[axis])));
    }
    rewriter.replaceOp(op, coords);
    return success();
  }
};

struct MeshLowerProcessIndexPass
    : mesh::impl::MeshLowerProcessIndexBase<MeshLowerProcessIndexPass> {
  void runOnOperation() override {
    // Checked up front so that a dynamic mesh is an error, not a no-op.
    ScanningSymbolTableCollection symbolTables;
    WalkResult result = getOperation().walk([&](ProcessMultiIndexOp op) {
      MeshOp mesh = getMesh(op, symbolTables);
      if (mesh && !ShapedType::isDynamicShape(mesh.getShape()))
        return WalkResult::advance();
      op.emitOpError("unsupported by mesh-lower-process-index: a mesh with "
                     "dynamic axis sizes");
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateProcessIndexLoweringPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::mesh::populateProcessIndexLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DelinearizeProcessIndex>(patterns.getContext());
}
