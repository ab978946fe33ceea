//===- ConstantOrScalar.h - constant sub-computations -----------*- C++ -*-===//
//
// What the constant splitter (import) copies per use and the merger (export)
// merges back: constant sub-computations and scalar expansions.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_COMMON_CONSTANTORSCALAR_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_COMMON_CONSTANTORSCALAR_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::sdy {

/// What the splitter copies per user.
enum class ConstantKind {
  None,
  /// An op without side effects and with one tensor result of rank > 0
  /// whose operands (and the values its regions read from above) are all
  /// constant: results of Constant ops, or scalars (non-tensors or rank-0
  /// tensors) defined by constant-like ops.
  Constant,
  /// Such an op making a tensor out of scalars only, not all constant
  /// (`tensor.splat %arg`): copied per user, but its users are not constant.
  ScalarExpansion,
};

/// The kind of `op`, given the ops already known to be Constant
/// (`constantOps`, earlier in the block). sdy ops other than `sdy.constant`,
/// and ops with data-flow edges (scf.if, scf.for, ...), are never split.
ConstantKind getConstantKind(Operation *op,
                             const llvm::DenseSet<Operation *> &constantOps);

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_COMMON_CONSTANTORSCALAR_H
