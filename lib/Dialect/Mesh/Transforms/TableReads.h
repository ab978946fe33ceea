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
  /// The table's dimensions read at a computed position (not a loop's
  /// `linalg.index`), in order.
  SmallVector<int64_t> computedDims;
};

/// Matches a linalg op with parallel loops only and one result whose body
/// reads one ranked tensor from above (not one of its operands), in one
/// `tensor.extract` directly in the body, of a float or integer (not i1)
/// element, and yields that element and nothing computed from it or from
/// the init. Nothing if `op` is not such an op or reads no dimension at a
/// computed position.
std::optional<TableRead> matchTableRead(Operation *op);

/// In `clone`, the per-device copy of a matched op whose table is now
/// `localTable` (split along `dims`, the device's piece of dimension
/// `dims[i]` starting at `pieces[i].first` with `pieces[i].second` rows):
/// the read subtracts where the piece starts and yields the element where
/// the row is the device's, the neutral element of a sum (-0.0, 0)
/// elsewhere.
LogicalResult maskTableRead(Operation *clone, Value localTable,
                            ArrayRef<int64_t> dims,
                            ArrayRef<std::pair<Value, Value>> pieces,
                            OpBuilder &builder);

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_TABLEREADS_H
