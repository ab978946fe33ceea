//===- FreeAfterLastUse.cpp - free buffers right after their last use -----===//
//
// buffer-deallocation-pipeline frees at the end of the allocating block; a
// straight-line program then holds all its intermediates at once. Moving
// each free up to the last use of the buffer's aliases in that block keeps
// only the live ones.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/FreeAfterLastUse/FreeAfterLastUse.h"

#include "meshsdy/Conversion/BufferAliases/BufferAliases.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Block.h"

namespace mlir::meshsdy {
#define GEN_PASS_DEF_FREEAFTERLASTUSEPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;
using namespace mlir::meshsdy;

namespace {

/// The last op of `dealloc`'s block that uses the buffer it frees or an
/// alias of it (the allocation itself if nothing does), or null when the
/// buffer may outlive that block's ops (see the pass description).
Operation *lastUse(memref::DeallocOp dealloc, memref::AllocOp alloc) {
  Operation *last = alloc;
  bool bounded = walkBufferUses(
      alloc.getResult(), dealloc->getBlock(), dealloc,
      [&](const BufferUse &use) {
        if (use.escapes || !use.inBlock)
          return false;
        if (last->isBeforeInBlock(use.inBlock))
          last = use.inBlock;
        return true;
      });
  return bounded ? last : nullptr;
}

struct FreeAfterLastUsePass
    : meshsdy::impl::FreeAfterLastUsePassBase<FreeAfterLastUsePass> {
  void runOnOperation() override {
    // Every target first, then the moves: a move invalidates its block's
    // op order, and comparing positions in between would renumber the
    // block each time (quadratic). A target is never a dealloc, so the
    // moves do not change one another's.
    SmallVector<std::pair<memref::DeallocOp, Operation *>> moves;
    getOperation()->walk([&](memref::DeallocOp dealloc) {
      auto alloc = dealloc.getMemref().getDefiningOp<memref::AllocOp>();
      if (!alloc || alloc->getBlock() != dealloc->getBlock())
        return;
      Operation *last = lastUse(dealloc, alloc);
      if (last && last->getNextNode() != dealloc.getOperation() &&
          last->isBeforeInBlock(dealloc))
        moves.push_back({dealloc, last});
    });
    for (auto [dealloc, last] : moves)
      dealloc->moveAfter(last);
    if (moves.empty())
      markAllAnalysesPreserved();
  }
};

} // namespace
