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

/// The tensor `value` is a view of (through slices, reshapes and casts), or
/// `value` itself.
Value viewedTensor(Value value) {
  Operation *op = value.getDefiningOp();
  if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(op))
    return slice.getSource();
  if (auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(op))
    return collapse.getSrc();
  if (auto expand = dyn_cast_or_null<tensor::ExpandShapeOp>(op))
    return expand.getSrc();
  if (auto cast = dyn_cast_or_null<tensor::CastOp>(op))
    return cast.getSource();
  return value;
}

/// Whether one-shot bufferization can let an op write into `value`'s
/// buffer with no copy: `value`, and every tensor it is a view of, has no
/// other use, and the buffer underneath is a new one. A block argument's
/// (a function's input), a constant's or that of a to_tensor not marked
/// `writable` is read-only, and another reader would be a conflict: either
/// way one-shot bufferization would copy it first, one copy more than the
/// tensor.empty's new buffer.
bool isDeadAndWritable(Value value) {
  while (true) {
    if (!value.hasOneUse())
      return false;
    Value viewed = viewedTensor(value);
    if (viewed == value)
      break;
    value = viewed;
  }
  Operation *producer = value.getDefiningOp();
  if (!producer || matchPattern(value, m_Constant()))
    return false;
  auto toTensor = dyn_cast<bufferization::ToTensorOp>(producer);
  return !toTensor || toTensor.getWritable();
}

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
  for (OpOperand *input : op.getDpsInputOperands())
    if (input->get().getType() == init->get().getType() &&
        op.getMatchingIndexingMap(input) == written &&
        isDeadAndWritable(input->get()))
      return input;
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
