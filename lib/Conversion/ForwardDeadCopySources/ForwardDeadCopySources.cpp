//===- ForwardDeadCopySources.cpp - skip copies from dead buffers ---------===//
//
// A value written into a buffer of its own after bufferization is a copy
// from the buffer that computed it (an all_reduce's operand, reduced in
// place in a fresh buffer). When nothing reads the source after the copy,
// the destination's users read the source instead and the copy goes.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/ForwardDeadCopySources/ForwardDeadCopySources.h"

#include "meshsdy/Conversion/BufferAliases/BufferAliases.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::meshsdy {
#define GEN_PASS_DEF_FORWARDDEADCOPYSOURCESPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;
using namespace mlir::meshsdy;

namespace {

/// A static allocation in `block`, or null.
memref::AllocOp staticAllocIn(Value buffer, Block *block) {
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != block || !alloc->getOperands().empty())
    return nullptr;
  return alloc;
}

/// Whether `copy`'s destination can be its source (see the pass
/// description).
bool canForward(memref::CopyOp copy) {
  Block *block = copy->getBlock();
  memref::AllocOp source = staticAllocIn(copy.getSource(), block);
  memref::AllocOp target = staticAllocIn(copy.getTarget(), block);
  if (!source || !target || source == target ||
      source.getType() != target.getType() ||
      target.getAlignment().value_or(0) > source.getAlignment().value_or(0))
    return false;
  bool deadAfter =
      walkBufferUses(source, block, copy, [&](const BufferUse &use) {
        return !use.escapes && use.inBlock &&
               use.inBlock->isBeforeInBlock(copy);
      });
  return deadAfter &&
         walkBufferUses(target, block, copy, [&](const BufferUse &use) {
           return use.inBlock && copy->isBeforeInBlock(use.inBlock);
         });
}

struct ForwardDeadCopySourcesPass
    : meshsdy::impl::ForwardDeadCopySourcesPassBase<
          ForwardDeadCopySourcesPass> {
  void runOnOperation() override {
    // Every copy is judged before any is forwarded: a forward adds the
    // destination's uses to the source, which another copy's judgement
    // may read.
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      if (canForward(copy))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      Operation *target = copy.getTarget().getDefiningOp();
      Value source = copy.getSource();
      copy->erase();
      target->getResult(0).replaceAllUsesWith(source);
      target->erase();
    }
    if (copies.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace
