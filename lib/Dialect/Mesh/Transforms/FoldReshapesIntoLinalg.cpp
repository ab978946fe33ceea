//===- FoldReshapesIntoLinalg.cpp - reshapes become loops -----------------===//
//
// Upstream's reshape fusion by expansion works on linalg.generic: a named
// op next to a reshape is generalized first, then the patterns fold the
// collapse_shape producers and expand_shape consumers into it.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHFOLDRESHAPESINTOLINALG
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;

namespace {

/// Whether `op` reads a collapse_shape or feeds an expand_shape of static
/// shapes: a fold would change its loops.
bool touchesReshape(linalg::LinalgOp op) {
  auto isStatic = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasStaticShape();
  };
  for (Value operand : op->getOperands())
    if (auto collapse = operand.getDefiningOp<tensor::CollapseShapeOp>())
      if (isStatic(collapse.getSrcType()))
        return true;
  for (Operation *user : op->getUsers())
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(user))
      if (isStatic(expand.getResultType()))
        return true;
  return false;
}

/// Only static reshapes fold: a dynamic one would need sizes the folded op
/// cannot carry through our partitioning (which takes static shapes). And
/// none whose expanded side has more dimensions than any tensor of the
/// function had: expansion and the reshape foldings can undo each other
/// around unit dimensions, each round one dimension more (JAX's
/// dot_product_attention grew without end, 20 GB in minutes).
bool foldsStatically(OpOperand *fused, int64_t maxRank) {
  auto shaped = dyn_cast<ShapedType>(fused->get().getType());
  if (!shaped || !shaped.hasStaticShape())
    return false;
  if (auto collapse = fused->get().getDefiningOp<tensor::CollapseShapeOp>())
    return collapse.getSrcType().hasStaticShape() &&
           collapse.getSrcType().getRank() <= maxRank;
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(fused->getOwner()))
    return expand.getResultType().hasStaticShape() &&
           expand.getResultType().getRank() <= maxRank;
  return true;
}

/// The largest rank of a tensor in `func`.
int64_t maxTensorRank(Operation *func) {
  int64_t rank = 0;
  auto note = [&](Type type) {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      rank = std::max(rank, tensor.getRank());
  };
  func->walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      note(type);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          note(arg.getType());
  });
  return rank;
}

struct MeshFoldReshapesIntoLinalg
    : mesh::impl::MeshFoldReshapesIntoLinalgBase<MeshFoldReshapesIntoLinalg> {
  void runOnOperation() override {
    Operation *func = getOperation();
    SmallVector<linalg::LinalgOp> named;
    bool genericNextToReshape = false;
    func->walk([&](linalg::LinalgOp op) {
      if (!op.hasPureTensorSemantics() || !touchesReshape(op))
        return;
      if (isa<linalg::GenericOp>(op))
        genericNextToReshape = true;
      else
        named.push_back(op);
    });
    if (named.empty() && !genericNextToReshape)
      return markAllAnalysesPreserved();
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    RewritePatternSet patterns(&getContext());
    int64_t maxRank = maxTensorRank(func);
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns,
        [=](OpOperand *fused) { return foldsStatically(fused, maxRank); });
    // The fold leaves chains of reshapes of its inits (tensor.empty,
    // linalg.fill): merged, and folded into the empty tensors, they are
    // created in the shape the op reads.
    tensor::populateReassociativeReshapeFoldingPatterns(patterns);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns,
                                                       &getContext());
    linalg::FillOp::getCanonicalizationPatterns(patterns, &getContext());
    // Best effort, as canonicalize: a fold left undone (the driver's
    // iteration limit) leaves a valid program that partitions as before.
    (void)applyPatternsGreedily(func, std::move(patterns));
  }
};

} // namespace
