//===- ShardingInterface.h - how an op is sharded ---------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_MESH_INTERFACES_SHARDINGINTERFACE_H
#define MESHSDY_DIALECT_MESH_INTERFACES_SHARDINGINTERFACE_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mesh {

class ShardingInterface;

/// How the loops of one op are split: entry `l` lists the mesh axes loop `l`
/// is split over. Within one op a mesh axis splits at most one loop.
struct LoopSharding {
  SplitAxes loopAxes;
  /// The extent of each loop where static tensor types say it (0: unknown).
  /// A tensor dimension indexed by several loops in row-major order (a
  /// reshape's merged dimension, `d0 * 8 + d1` with loop 1 of extent 8) is
  /// split by them only when these confirm the order.
  SmallVector<int64_t> loopExtents;

  /// Returns true if some loop is split over `axis`.
  bool usesAxis(MeshAxis axis) const;
  /// The split axes of a tensor indexed through `map`: a dimension indexed by
  /// loop `l` gets the axes of `l`; one indexed by loops in row-major order
  /// gets theirs, major to minor (deriveLoopSharding only lets a minor loop
  /// be split where the loops before it are split into single elements, so
  /// that each device's part of the dimension is contiguous); any other
  /// dimension none.
  SplitAxes project(AffineMap map) const;
  /// Mesh axes of the split reduction loops, in loop order: the axes over
  /// which results are partial.
  DimSplitAxes reductionAxes(ArrayRef<utils::IteratorType> iterators) const;

  bool operator==(const LoopSharding &rhs) const {
    return loopAxes == rhs.loopAxes && loopExtents == rhs.loopExtents;
  }
};

/// The loops of a tensor dimension indexed by several loops in row-major
/// order, major to minor: `expr` is a sum of loops times constants, the
/// last constant 1 and each the next one times the next loop's extent.
/// Empty for anything else (one loop, a constant, a convolution's
/// `d0 + d1`) or when an extent is unknown.
SmallVector<unsigned, 4> getRowMajorLoops(AffineExpr expr,
                                          ArrayRef<int64_t> loopExtents);

/// Derives the loop sharding of an op from the split axes of its tensors.
/// `tensorAxes[i]` belongs to the tensor indexed by `maps[i]` (null if
/// unknown); tensors are visited in `order`. A loop takes the axes of the
/// first tensor dimension that maps to it, and grows when a later tensor has
/// a longer list that starts with the same axes; an axis already used by
/// another loop ends the list there. An empty list says nothing: a later
/// tensor may still split the loop.
///
/// A dimension indexed by several loops in row-major order (see
/// getRowMajorLoops) hands its axes to them major to minor: the major loop
/// takes axes until it is split into single elements, then the next one.
///
/// Given the tensors' global `types` (null: not a ranked tensor) and the
/// mesh's static axis sizes `meshShape`, a loop's split is then cut short
/// where it would cut a dimension its tensor holds evenly into pieces of
/// different sizes (a collapse whose result is split finer than its outer
/// source dimension keeps the axes that divide it), and where a loop of a
/// row-major dimension would be split while a loop before it is not split
/// into single elements (each device's part would not be contiguous).
///
/// Example: matmul maps (i, k), (k, j) -> (i, j) with tensors
/// `[[0], []]`, `[[], [1]]`, unknown gives loops i=[0], j=[1], k=[].
LoopSharding deriveLoopSharding(unsigned numLoops, ArrayRef<AffineMap> maps,
                                ArrayRef<const SplitAxes *> tensorAxes,
                                ArrayRef<unsigned> order,
                                ArrayRef<bool> splittableLoops = {},
                                ArrayRef<RankedTensorType> types = {},
                                ArrayRef<int64_t> meshShape = {});

/// The reduction results are partial in when `loops` splits reduction loops
/// of `op`: the kind of the first split one (`sum` if none is split).
ReductionKind getPartialReductionKind(ShardingInterface op,
                                      const LoopSharding &loops,
                                      ArrayRef<utils::IteratorType> iterators);

/// Loops whose splitting is supported: parallel loops, and reduction loops
/// whose kind can be completed by a collective (not `generic`), that no
/// tensor reads through an expression other than the loop itself (`d1 +
/// d2` in a window reduction) or loops in row-major order (a reshape's
/// merged dimension, see getRowMajorLoops): the tensor dimension is not
/// split there, and a device would read it at its local positions. `maps`,
/// `iterators`: `op`'s indexing maps and loop iterator types; `types`: the
/// global types of its tensors (operands, then results), which give the
/// loop extents.
SmallVector<bool> getSplittableLoops(ShardingInterface op,
                                     ArrayRef<AffineMap> maps,
                                     ArrayRef<utils::IteratorType> iterators,
                                     ArrayRef<RankedTensorType> types);

/// The extent of each of `numLoops` loops that a static dimension of a
/// tensor of `types` indexes alone (0 where none does).
SmallVector<int64_t> getLoopExtents(unsigned numLoops, ArrayRef<AffineMap> maps,
                                    ArrayRef<RankedTensorType> types);

/// Per-device type of a tensor of type `global` sharded as `sharding` on
/// `mesh`. A null sharding is replicated. A dimension whose pieces differ in
/// size between devices (uneven split, offsets) is dynamic if
/// `allowUneven`, else an error at `loc`; so are dynamic sizes.
FailureOr<RankedTensorType> getLocalType(Location loc, RankedTensorType global,
                                         MeshOp mesh,
                                         const MeshSharding &sharding,
                                         bool allowUneven = false);

/// The same for a tensor `op` produces, looking its mesh up from `op`.
FailureOr<RankedTensorType> getLocalType(Operation *op, RankedTensorType global,
                                         const MeshSharding &sharding,
                                         SymbolTableCollection &symbolTables,
                                         bool allowUneven = false);

namespace detail {
/// Default reduction kinds: `sum` for every reduction loop.
SmallVector<ReductionKind> defaultReductionKinds(Operation *op);
/// Clones `op` with `localOperands` and the per-device result types implied
/// by `resultShardings`, and maps the results in `mapping`. `allowUneven`:
/// results may have pieces of different sizes (dynamic dimensions), for ops
/// whose result sizes follow from their operands.
LogicalResult spmdizeByCloning(Operation *op, ArrayRef<Value> localOperands,
                               ArrayRef<MeshSharding> resultShardings,
                               IRMapping &mapping,
                               SymbolTableCollection &symbolTables,
                               OpBuilder &builder, bool allowUneven = false);
/// spmdizeByCloning, returning the clone (for models that adjust it).
FailureOr<Operation *> cloneForDevice(Operation *op,
                                      ArrayRef<Value> localOperands,
                                      ArrayRef<MeshSharding> resultShardings,
                                      IRMapping &mapping,
                                      SymbolTableCollection &symbolTables,
                                      OpBuilder &builder,
                                      bool allowUneven = false);
} // namespace detail

} // namespace mlir::mesh

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h.inc"

#endif // MESHSDY_DIALECT_MESH_INTERFACES_SHARDINGINTERFACE_H
