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
/// cannot carry through our partitioning (which takes static shapes).
bool foldsStatically(OpOperand *fused) {
  auto shaped = dyn_cast<ShapedType>(fused->get().getType());
  if (!shaped || !shaped.hasStaticShape())
    return false;
  if (auto collapse = fused->get().getDefiningOp<tensor::CollapseShapeOp>())
    return collapse.getSrcType().hasStaticShape();
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(fused->getOwner()))
    return expand.getResultType().hasStaticShape();
  return true;
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
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      foldsStatically);
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
