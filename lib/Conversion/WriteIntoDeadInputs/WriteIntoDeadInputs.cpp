//===- WriteIntoDeadInputs.cpp - elementwise ops in place -----------------===//
//
// An elementwise linalg.generic writing into a tensor.empty gets a buffer of
// its own from one-shot bufferization, though an input it reads at the same
// positions is dead after it. Writing into that input instead lets the op
// run in place: one buffer fewer, and the data it writes is in the cache.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/WriteIntoDeadInputs/WriteIntoDeadInputs.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace mlir::meshsdy {
#define GEN_PASS_DEF_WRITEINTODEADINPUTSPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;

namespace {

/// The input `op` may write into instead of its tensor.empty init (see the
/// pass description), or null.
OpOperand *deadInput(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
      op.payloadUsesValueFromOperand(init))
    return nullptr;
  AffineMap written = op.getMatchingIndexingMap(init);
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    Operation *producer = value.getDefiningOp();
    if (!producer || !value.hasOneUse() ||
        value.getType() != init->get().getType() ||
        op.getMatchingIndexingMap(input) != written)
      continue;
    // A constant's buffer, or one a to_tensor does not declare writable, is
    // read-only: one-shot bufferization would copy it first.
    auto view = dyn_cast<bufferization::ToTensorOp>(producer);
    if (!matchPattern(value, m_Constant()) && (!view || view.getWritable()))
      return input;
  }
  return nullptr;
}

struct WriteIntoDeadInputsPass
    : meshsdy::impl::WriteIntoDeadInputsPassBase<WriteIntoDeadInputsPass> {
  void runOnOperation() override {
    bool changed = false;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (OpOperand *input = deadInput(op)) {
        op.getDpsInitOperand(0)->set(input->get());
        changed = true;
      }
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
