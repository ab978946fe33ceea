//===- OpShardingRuleBuilder.h - build OpShardingRuleAttrs ------*- C++ -*-===//
//
// The ShardingRuleOpInterface models of upstream ops describe an op as
// factors: each factor has a size and a kind, and each tensor dimension maps
// to zero or more factors (several: a compound dimension, major to minor, as
// a reshape's merged dimension `ij`). The builder collects factors and their
// mappings and checks the result, so that a model never hands propagation an
// invalid rule.
//
//   // A 2-D matmul with its init: ([i, k], [k, j], [i, j])->([i, j])
//   OpShardingRuleBuilder b(op);
//   int64_t i = b.addFactor(8), j = b.addFactor(16);
//   int64_t k = b.addFactor(32, FactorKind::Reduction);
//   b.mapOperand(0, 0, i); b.mapOperand(0, 1, k); ...
//   OpShardingRuleAttr rule = b.build();
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_IR_OPSHARDINGRULEBUILDER_H
#define MESHSDY_DIALECT_SDY_IR_OPSHARDINGRULEBUILDER_H

#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
class Operation;

namespace sdy {

/// What sharding a factor costs (see OpShardingRuleAttr).
enum class FactorKind {
  /// No communication if every tensor is sharded alike along it.
  PassThrough,
  /// Summed over (contracting, reduced dims): appears in operands only.
  Reduction,
  /// Must be replicated (e.g. the sizes of a concat's pieces differ).
  NeedReplication,
  /// Sharding it needs a collective permute (pads, slices).
  Permutation,
};

class OpShardingRuleBuilder {
public:
  /// A builder for `op`'s operands and results; values that are not ranked
  /// shaped types have rank 0.
  explicit OpShardingRuleBuilder(Operation *op);

  /// Adds a factor; returns its index. `blocked` factors don't propagate.
  int64_t addFactor(int64_t size, FactorKind kind = FactorKind::PassThrough,
                    bool blocked = false);

  /// Appends `factor` to the factors of dimension `dim` of operand / result
  /// `index` (the first appended is the major-most).
  void mapOperand(unsigned index, int64_t dim, int64_t factor);
  void mapResult(unsigned index, int64_t dim, int64_t factor);

  /// Maps dimension `dim` of every operand and result of rank `rank` to a new
  /// factor of `size` (the pointwise pattern); returns the factor.
  int64_t addPointwiseFactor(int64_t rank, int64_t dim, int64_t size);

  /// The rule, or null if what was built is not a valid rule (the builder
  /// never asserts: models return null for ops they cannot describe).
  OpShardingRuleAttr build(bool isCustomRule = false) const;

  /// The rule of an elementwise op: one factor per dimension of its result,
  /// shared by every operand and result of that shape; rank-0 operands (e.g.
  /// a scalar condition) map to nothing. Null if the shapes differ otherwise
  /// or are not static.
  static OpShardingRuleAttr buildPointwise(Operation *op);

private:
  MLIRContext *ctx;
  SmallVector<int64_t> factorSizes;
  SmallVector<FactorKind> factorKinds;
  SmallVector<int64_t> blocked;
  // [operand or result][dim] -> factors, major to minor.
  SmallVector<SmallVector<SmallVector<int64_t>>> operandDims, resultDims;
  bool invalid = false;
};

} // namespace sdy
} // namespace mlir

#endif // MESHSDY_DIALECT_SDY_IR_OPSHARDINGRULEBUILDER_H
