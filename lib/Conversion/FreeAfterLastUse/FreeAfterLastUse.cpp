//===- FreeAfterLastUse.cpp - free buffers right after their last use -----===//
//
// buffer-deallocation-pipeline frees at the end of the allocating block; a
// straight-line program then holds all its intermediates at once. Moving
// each free up to the last use of the buffer's aliases in that block keeps
// only the live ones.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/FreeAfterLastUse/FreeAfterLastUse.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::meshsdy {
#define GEN_PASS_DEF_FREEAFTERLASTUSEPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;

namespace {

/// A value of `type` may refer to a buffer without being a memref: a tensor
/// (`bufferization.to_tensor`) or an LLVM pointer or descriptor.
bool mayHoldBuffer(Type type) {
  return isa<TensorType>(type) ||
         type.getDialect().getNamespace() == "llvm";
}

/// The last op of `dealloc`'s block that uses the buffer it frees or an
/// alias of it (the allocation itself if nothing does), or null when the
/// buffer may outlive that block's ops (see the pass description).
Operation *lastUse(memref::DeallocOp dealloc, memref::AllocOp alloc) {
  Block *block = dealloc->getBlock();
  Operation *last = alloc;
  llvm::SetVector<Value> aliases;
  aliases.insert(alloc.getResult());
  // The set grows while it is walked: each alias's users may add more.
  for (size_t i = 0; i < aliases.size(); ++i) {
    for (OpOperand &use : aliases[i].getUses()) {
      Operation *user = use.getOwner();
      if (user == dealloc.getOperation())
        continue;
      if (isa<memref::DeallocOp>(user))
        return nullptr;
      if (auto store = dyn_cast<memref::StoreOp>(user);
          store && store.getValueToStore() == aliases[i])
        return nullptr;
      if (user->hasTrait<OpTrait::IsTerminator>() && user->getBlock() == block)
        return nullptr;
      if (isa<memref::ExtractAlignedPointerAsIndexOp,
              UnrealizedConversionCastOp>(user))
        return nullptr;
      for (Value result : user->getResults()) {
        if (isa<BaseMemRefType>(result.getType()))
          aliases.insert(result);
        else if (mayHoldBuffer(result.getType()))
          return nullptr;
      }
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock)
        return nullptr;
      if (last->isBeforeInBlock(inBlock))
        last = inBlock;
    }
  }
  return last;
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
