//===- BufferAliases.h - the uses of a buffer and its aliases ---*- C++ -*-===//
//
// What the buffer passes after bufferization (free-after-last-use,
// forward-dead-copy-sources) need to know about a buffer: where in its
// block it and everything that may alias it are used, and whether it may
// escape that block's ops.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_CONVERSION_BUFFERALIASES_BUFFERALIASES_H
#define MESHSDY_CONVERSION_BUFFERALIASES_BUFFERALIASES_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::meshsdy {

/// One use of a buffer or of one of its aliases.
struct BufferUse {
  /// The op that uses it.
  Operation *user;
  /// `user` or its ancestor in the walked block; null when `user` is not
  /// inside that block.
  Operation *inBlock;
  /// The buffer may outlive the block's ops through this use: the block's
  /// terminator takes it, it is stored as a value (the op also takes a
  /// memref of buffers or pointers), freed, or turned into a tensor, an LLVM
  /// or `ptr` value or an index (`memref.extract_aligned_pointer_as_index`,
  /// `builtin.unrealized_conversion_cast`).
  bool escapes;
};

/// Calls `visit` on every use of `buffer` and of the memrefs that may alias
/// it (every memref result of an op taking the buffer or an alias as an
/// operand and every memref argument of that op's regions' blocks; every
/// memref result of the parent op of a nested region's terminator taking
/// one and argument of its successors; transitively), but the uses by `ignore`, until `visit` returns
/// false; returns whether it never did. Callees are assumed not to keep a
/// buffer they are passed beyond the call, as ownership-based deallocation
/// assumes, and an op to be done with a buffer when it returns (no
/// nonblocking `mpi.isend`/`mpi.irecv`: convert-mesh-to-mpi emits blocking
/// ones).
bool walkBufferUses(Value buffer, Block *block, Operation *ignore,
                    function_ref<bool(const BufferUse &)> visit);

} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_BUFFERALIASES_BUFFERALIASES_H
