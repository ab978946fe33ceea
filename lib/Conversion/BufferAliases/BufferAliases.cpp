//===- BufferAliases.cpp - the uses of a buffer and its aliases -----------===//

#include "meshsdy/Conversion/BufferAliases/BufferAliases.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

/// A value of `type` may refer to a buffer without being a memref: a tensor
/// (`bufferization.to_tensor`) or an LLVM or `ptr` dialect pointer or
/// descriptor.
static bool mayHoldBuffer(Type type) {
  StringRef dialect = type.getDialect().getNamespace();
  return isa<TensorType>(type) || dialect == "llvm" || dialect == "ptr";
}

/// `user` may write the buffer itself (not its data) somewhere: it takes a
/// memref of buffers or pointers besides `alias` (`memref.store %buf,
/// %buffers[]`, `affine.store`, ...).
static bool mayStoreBuffer(Operation *user, Value alias) {
  return llvm::any_of(user->getOperands(), [&](Value operand) {
    auto container = dyn_cast<BaseMemRefType>(operand.getType());
    return operand != alias && container &&
           (isa<BaseMemRefType>(container.getElementType()) ||
            mayHoldBuffer(container.getElementType()));
  });
}

/// Adds `value` to `aliases` if it is a memref; returns whether it may hold
/// the buffer another way.
static bool addAlias(llvm::SetVector<Value> &aliases, Value value) {
  if (isa<BaseMemRefType>(value.getType())) {
    aliases.insert(value);
    return false;
  }
  return mayHoldBuffer(value.getType());
}

bool meshsdy::walkBufferUses(Value buffer, Block *block, Operation *ignore,
                             function_ref<bool(const BufferUse &)> visit) {
  llvm::SetVector<Value> aliases;
  aliases.insert(buffer);
  // The set grows while it is walked: each alias's users may add more.
  for (size_t i = 0; i < aliases.size(); ++i) {
    for (OpOperand &use : aliases[i].getUses()) {
      Operation *user = use.getOwner();
      if (user == ignore)
        continue;
      bool escapes =
          isa<memref::DeallocOp, memref::ExtractAlignedPointerAsIndexOp,
              UnrealizedConversionCastOp>(user) ||
          (user->hasTrait<OpTrait::IsTerminator>() &&
           user->getBlock() == block) ||
          mayStoreBuffer(user, aliases[i]);
      // What a nested region's terminator passes on (an scf.yield of a view
      // of the buffer) may come out as its parent op's results, or enter a
      // successor block through its arguments.
      Operation *producer = user;
      if (user->hasTrait<OpTrait::IsTerminator>() &&
          user->getBlock() != block) {
        producer = user->getParentOp();
        for (Block *successor : user->getSuccessors())
          for (BlockArgument arg : successor->getArguments())
            escapes |= addAlias(aliases, arg);
      }
      for (Value result : producer->getResults())
        escapes |= addAlias(aliases, result);
      // Inside the user's regions the buffer may be a block argument (a
      // loop's carried value): its uses there count at the user, but may
      // let it escape.
      for (Region &region : user->getRegions())
        for (Block &inner : region)
          for (BlockArgument arg : inner.getArguments())
            escapes |= addAlias(aliases, arg);
      if (!visit({user, block->findAncestorOpInBlock(*user), escapes}))
        return false;
    }
  }
  return true;
}
