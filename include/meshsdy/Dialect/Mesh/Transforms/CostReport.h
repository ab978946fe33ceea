//===- CostReport.h - what a partitioned program costs ----------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_MESH_TRANSFORMS_COSTREPORT_H
#define MESHSDY_DIALECT_MESH_TRANSFORMS_COSTREPORT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::mesh {

/// The most tensor bytes live at once in `func`'s body, per device (its
/// types are what one device holds): each statically shaped tensor of the
/// entry block (arguments and results of its ops) is live from its
/// definition to its last use, counting uses inside nested regions at their
/// enclosing op; a mesh.shard result is its operand. Dynamically shaped
/// tensors and values defined in nested regions are not counted.
int64_t peakLiveTensorBytes(func::FuncOp func);

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_TRANSFORMS_COSTREPORT_H
