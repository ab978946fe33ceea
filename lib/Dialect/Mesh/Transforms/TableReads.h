//===- TableReads.h - a gather's table read where it lies -------*- C++ -*-===//
//
// A linalg op whose body reads a tensor from above at positions it computes
// (an embedding: `tensor.extract %table[%id, %j]`, from JAX's gather and
// torch-mlir's aten.embedding) and yields what it read can leave a table
// split along those positions where it lies, as Megatron's
// vocabulary-parallel embedding and XLA's partitioned gather do. Each
// device reads its own piece at the position minus where the piece starts,
// yields the neutral element of a sum where another device holds the row,
// and the result is partial (a sum) over the table's axes: one all_reduce
// of the result where the table used to be gathered whole.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_TABLEREADS_H
#define MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_TABLEREADS_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::mesh {

/// The one read of a table from above in a linalg op's body.
struct TableRead {
  Value table;
  /// Per dimension of the table: the loop whose `linalg.index` it is read
  /// at, or -1 for a position the body computes.
  SmallVector<int64_t> loops;
  /// The body yields the element it reads and nothing computed from it or
  /// from the init, its loops are all parallel and it has one result: a
  /// device without the row may yield a sum's neutral element instead.
  bool yieldsElement = false;
};

/// Matches a linalg op with results whose body reads `table`, a ranked tensor from above
/// (not one of its operands), in one `tensor.extract` directly in the body
/// (other tensors it reads from above are no concern here).
std::optional<TableRead> matchTableRead(Operation *op, Value table);

/// A dimension of the table a device reads its own piece of: the piece
/// starts at `offset` and has `size` elements. `masked`: the position is
/// computed (any row), so the device reads it only where the row is its
/// own and yields a sum's neutral element elsewhere; otherwise the op's
/// loop over it is split as the table is (the device's positions are its
/// piece's).
struct TablePieceDim {
  int64_t dim;
  Value offset, size;
  bool masked;
};

/// In `clone`, the per-device copy of a matched op whose table is now
/// `localTable` (null, or no read of it there: an error), the read
/// subtracts where each piece starts, and where
/// some dimension is masked, yields the element only where the device
/// holds it (-0.0 or 0 elsewhere: the neutral element of a sum).
LogicalResult maskTableRead(Operation *clone, Value localTable,
                            ArrayRef<TablePieceDim> dims, OpBuilder &builder);

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_TABLEREADS_H
