//===- LinalgPositions.cpp - a split loop's global position ---------------===//

#include "meshsdy/Interfaces/LinalgPositions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

void meshsdy::offsetLinalgPositions(
    linalg::LinalgOp op, OpBuilder &builder,
    function_ref<Value(OpBuilder &, linalg::IndexOp)> startOf) {
  // Collected first: the rewrite adds ops to the body being walked.
  SmallVector<linalg::IndexOp> indices;
  op->walk([&](linalg::IndexOp index) {
    if (index->getParentOp() == op.getOperation())
      indices.push_back(index);
  });
  OpBuilder::InsertionGuard guard(builder);
  for (linalg::IndexOp index : indices) {
    builder.setInsertionPointAfter(index);
    Value start = startOf(builder, index);
    if (!start)
      continue;
    auto global = arith::AddIOp::create(builder, index.getLoc(),
                                        index.getResult(), start);
    index.getResult().replaceAllUsesExcept(global, global);
  }
}
