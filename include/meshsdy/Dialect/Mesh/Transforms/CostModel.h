//===- CostModel.h - what collectives and live tensors cost -----*- C++ -*-===//
//
// The one home of meshsdy's cost model: the bytes each device sends in a
// mesh collective (ring algorithms) and the per-device peak of live tensor
// bytes of a function. `mesh-cost-report` prints them; meshsdy.pipeline's
// SpmdReport reads them through the C API (include/meshsdy-c/Cost.h), giving
// only the sizes it bounds itself (the largest piece of an uneven operand).
// test/python/reference/ holds an independent Python reference that a test
// compares with this model.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_TRANSFORMS_COSTMODEL_H
#define MESHSDY_DIALECT_MESH_TRANSFORMS_COSTMODEL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>

namespace mlir::mesh {

/// Bytes one element of `elementType` takes: its bit width in whole bytes,
/// rounded up (i1 and i4 take a byte, i12 two); 4 for an element that is
/// neither an integer nor a float (index, complex, ...).
int64_t elementBytes(Type elementType);

/// Bytes of a statically shaped ranked tensor; nullopt for any other type
/// (or a size that does not fit in 64 bits). `tensor<4x8xf32>` -> 128.
std::optional<int64_t> tensorBytes(Type type);

/// What one device sends per byte of its operand in the collective `name`
/// on a group of `groupSize` devices, under ring algorithms (rooted and
/// point-to-point collectives count the busiest device); nullopt for a name
/// that is no such collective:
///   mesh.all_gather, mesh.broadcast      g - 1
///   mesh.all_reduce                      2 (g - 1) / g
///   mesh.reduce_scatter, mesh.all_to_all, mesh.scatter   (g - 1) / g
///   mesh.gather, mesh.reduce, mesh.send, mesh.shift      1
///   mesh.all_slice                       0
std::optional<double> ringFactor(StringRef name, int64_t groupSize);

/// Whether the model prices `op`: a collective with a ring factor, or
/// `mesh.update_halo`.
bool isPricedCollective(Operation *op);

/// The bytes one device sends in `op` (isPricedCollective), its first
/// operand being a tensor of `operandShape` (by default the operand type's
/// shape; where pieces differ between devices, the caller passes the largest
/// one): the ring factor of the op's group times the operand's bytes, or,
/// for mesh.update_halo, each split dimension's low and high halo widths
/// times the extent of the other dimensions. nullopt where a size is
/// unknown: a dynamic dimension or halo width, a mesh that is not found or
/// has a dynamic axis in the group, a shape of another rank than the
/// operand's, or an op that is not priced.
std::optional<double>
collectiveBytesSent(Operation *op,
                    std::optional<ArrayRef<int64_t>> operandShape = {});

/// Whether the result of `op` is its first operand, annotated, rather than
/// a new tensor: `mesh.shard`, and by name (this layer does not include the
/// sdy dialect) `sdy.sharding_constraint` and `sdy.reshard`.
bool isAliasingAnnotation(Operation *op);

/// The most tensor bytes live at once in `func`'s body, per device (its
/// types are what one device holds): each statically shaped tensor of the
/// entry block (arguments and results of its ops) is live from its
/// definition to its last use, counting uses inside nested regions at their
/// enclosing op; the result of an aliasing annotation is its operand.
/// Dynamically shaped tensors and values defined in nested regions are not
/// counted; 0 for a function without a body.
int64_t peakLiveTensorBytes(func::FuncOp func);

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_TRANSFORMS_COSTMODEL_H
