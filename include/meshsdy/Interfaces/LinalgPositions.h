//===- LinalgPositions.h - a split loop's global position -------*- C++ -*-===//
//
// A linalg body that reads its position (`linalg.index`) on a loop split
// across devices reads the local position; the global one is the local one
// plus where the device's part of the loop starts. The partitioner (the
// linalg ShardingInterface models) and mesh-gather-partial-reductions both
// rewrite the reads this way.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_INTERFACES_LINALGPOSITIONS_H
#define MESHSDY_INTERFACES_LINALGPOSITIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::meshsdy {

/// Makes every `linalg.index` of `op`'s own body (not those of ops nested
/// in it) read `index + startOf(builder, index)`, where `startOf`, called
/// with the insertion point right after the index, builds where the
/// device's part of that loop starts, or returns null to leave the index
/// alone.
void offsetLinalgPositions(
    linalg::LinalgOp op, OpBuilder &builder,
    function_ref<Value(OpBuilder &, linalg::IndexOp)> startOf);

} // namespace mlir::meshsdy

#endif // MESHSDY_INTERFACES_LINALGPOSITIONS_H
