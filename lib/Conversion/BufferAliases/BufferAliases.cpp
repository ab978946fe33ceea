//===- BufferAliases.cpp - the uses of a buffer and its aliases -----------===//

#include "meshsdy/Conversion/BufferAliases/BufferAliases.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

/// A value of `type` may refer to a buffer without being a memref: a tensor
/// (`bufferization.to_tensor`) or an LLVM pointer or descriptor.
static bool mayHoldBuffer(Type type) {
  return isa<TensorType>(type) || type.getDialect().getNamespace() == "llvm";
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
           user->getBlock() == block);
      if (auto store = dyn_cast<memref::StoreOp>(user))
        escapes |= store.getValueToStore() == aliases[i];
      // What a nested region's terminator passes on (an scf.yield of a view
      // of the buffer) may come out as its parent op's results.
      Operation *producer = user;
      if (user->hasTrait<OpTrait::IsTerminator>() && user->getBlock() != block)
        producer = user->getParentOp();
      for (Value result : producer->getResults()) {
        if (isa<BaseMemRefType>(result.getType()))
          aliases.insert(result);
        else if (mayHoldBuffer(result.getType()))
          escapes = true;
      }
      if (!visit({user, block->findAncestorOpInBlock(*user), escapes}))
        return false;
    }
  }
  return true;
}
