//===- FactorPropagation.h - moving axes along factors ----------*- C++ -*-===//
//
// The strategies that decide, for one op, which axes each factor of each
// tensor gains, given the projection of the op's shardings on its rule (see
// ShardingProjection.h). A strategy only expands factor shardings: an axis
// list is replaced by a longer list it is a prefix of, never shortened.
//
// For each factor the basic strategy computes the longest "compatible major"
// axis list: the longest list of which every tensor's axes for the factor is
// a prefix. With FORWARD only the operands may lengthen it (results still
// stop it where they conflict), with BACKWARD only the results, with NONE
// nothing propagates. It then cuts the list at the first axis that a tensor
// cannot take:
//   - an axis overlapping another factor's axes or overflow axes of any
//     tensor, or the tensor's replicated or unreduced axes (for tensors
//     mapped to the factor);
//   - an axis a tensor lacks while its factor is closed or has overflow
//     axes, or that would make a non-minor-most factor unevenly sharded
//     (then only the part that divides the factor, a sub-axis, is kept).
//   ["a","b"] and ["a","c"] -> ["a"] ; ["a"], [], ["a","b"] -> ["a","b"]
//
// The aggressive strategy resolves conflicts instead of stopping at them:
// each tensor gets as much of the compatible list as it can take, so a
// closed or replicated tensor no longer blocks the others, and when two
// factors want the same axis in one tensor the factor propagated from the
// larger source tensor wins (then the lower tensor index, then the lower
// factor index; for elementwise ops, the more sharded factor first).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_FACTORPROPAGATION_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_FACTORPROPAGATION_H

#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardingProjection.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mlir::sdy {

/// The direction in which a factor may propagate.
using DirectionOfFactor = function_ref<PropagationDirection(int64_t factor)>;

/// What a strategy needs besides the projection.
struct FactorPropagationParams {
  ArrayRef<int64_t> factorSizes;
  MeshAttr mesh;
  /// No sub-axes, and no axis that leaves a factor unevenly sharded.
  bool conservative = false;
  /// The op is elementwise (its rule maps all tensors alike).
  bool elementwise = false;
};

/// A strategy for expanding the factor shardings of one op.
class FactorPropagation {
public:
  virtual ~FactorPropagation() = default;
  /// Expands the factor shardings in `projection`; returns what changed.
  virtual UpdatedTensors propagate(ShardingProjection &projection,
                                   DirectionOfFactor direction,
                                   const FactorPropagationParams &params)
      const = 0;
};

/// Propagates, per factor, the axes all tensors agree on (file comment).
class BasicFactorPropagation : public FactorPropagation {
public:
  UpdatedTensors propagate(ShardingProjection &projection,
                           DirectionOfFactor direction,
                           const FactorPropagationParams &params)
      const override;

  /// The longest axis list of which each tensor's axes for `factor` is a
  /// prefix, honouring `direction`; conflicts with other factors and
  /// replicated axes are not resolved.
  static AxisList compatibleMajorAxes(const ShardingProjection &projection,
                                      int64_t factor,
                                      PropagationDirection direction);

  /// The longest prefix of `axis` that `tensor` can take for `factor`
  /// without overlapping another of its factors (null if none).
  static AxisRefAttr prefixWithoutConflictAcrossFactors(
      AxisRefAttr axis, const TensorFactorShardings &tensor, int64_t factor);

  /// The longest prefix of `axis` that `tensor` can take for `factor` given
  /// its replicated/unreduced axes, its closed flag, overflow axes and
  /// divisibility; `shardedBefore` is the size of the axes before `axis` in
  /// the candidate list (null if none).
  static AxisRefAttr prefixWithoutConflictWithinFactor(
      AxisRefAttr axis, const TensorFactorShardings &tensor, int64_t factor,
      int64_t shardedBefore, const FactorPropagationParams &params);

  /// Cuts `axes` at the first axis `fix` changes: `fix` returns the prefix
  /// of an axis that may be kept (null: drop it and all after it) given the
  /// size of the axes before it.
  static void truncate(AxisList &axes,
                       function_ref<AxisRefAttr(AxisRefAttr, int64_t)> fix,
                       const FactorPropagationParams &params);
};

/// Resolves conflicts per tensor (file comment).
class AggressiveFactorPropagation : public FactorPropagation {
public:
  UpdatedTensors propagate(ShardingProjection &projection,
                           DirectionOfFactor direction,
                           const FactorPropagationParams &params)
      const override;
};

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_FACTORPROPAGATION_H
