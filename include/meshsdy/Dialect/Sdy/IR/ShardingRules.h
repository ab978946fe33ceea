//===- ShardingRules.h - the sharding rule of an op -------------*- C++ -*-===//
//
// Where propagation gets an op's OpShardingRuleAttr: a rule the user wrote on
// the op (`sdy.sharding_rule`) wins; otherwise the op's
// ShardingRuleOpInterface model builds one. An op with neither is a barrier
// to propagation.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_IR_SHARDINGRULES_H
#define MESHSDY_DIALECT_SDY_IR_SHARDINGRULES_H

#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
class Operation;

namespace sdy {

/// The sharding rule of `op`: its `sdy.sharding_rule` attribute if it has
/// one, else what its ShardingRuleOpInterface returns, else null.
OpShardingRuleAttr getShardingRule(Operation *op);

/// getShardingRule for many ops: the rule is built once for all ops alike in
/// name, properties and operand and result types when the op's model says it
/// depends on nothing else (`isRuleDeterminedBySignature`). A program of a
/// thousand identical layers builds each kind of rule once. The cache holds
/// the ops it has seen: erase none of them while it lives.
class ShardingRuleCache {
public:
  struct Lookup {
    OpShardingRuleAttr rule;
    /// The rule was built for an earlier op alike, so whatever was checked
    /// of it against that op holds for this one.
    bool shared = false;
  };
  Lookup get(Operation *op);

private:
  /// Ops alike in name, properties and types hash and compare equal.
  struct SignatureInfo : llvm::DenseMapInfo<Operation *> {
    static unsigned getHashValue(const Operation *op);
    static bool isEqual(const Operation *a, const Operation *b);
  };
  llvm::DenseMap<Operation *, OpShardingRuleAttr, SignatureInfo> rules;
};

} // namespace sdy
} // namespace mlir

#endif // MESHSDY_DIALECT_SDY_IR_SHARDINGRULES_H
