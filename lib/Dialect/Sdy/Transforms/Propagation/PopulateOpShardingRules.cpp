//===- PopulateOpShardingRules.cpp - write the sharding rules on ops ------===//

#include "meshsdy/Dialect/Sdy/IR/ShardingRules.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_POPULATEOPSHARDINGRULESPASS
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// `rule` with its permutation and need-replication factors also blocked.
OpShardingRuleAttr blockNonPassThrough(OpShardingRuleAttr rule) {
  SmallVector<int64_t> blocked(rule.getBlockedPropagationFactors());
  for (int64_t factor : llvm::concat<const int64_t>(
           rule.getPermutationFactors(), rule.getNeedReplicationFactors()))
    if (!llvm::is_contained(blocked, factor))
      blocked.push_back(factor);
  llvm::sort(blocked);
  return OpShardingRuleAttr::get(
      rule.getContext(), rule.getFactorSizes(), rule.getOperandMappings(),
      rule.getResultMappings(), rule.getReductionFactors(),
      rule.getNeedReplicationFactors(), rule.getPermutationFactors(), blocked,
      rule.getIsCustomRule());
}

/// Whether `op` could shard a tensor, i.e. whether lacking a rule makes it a
/// barrier (terminators only forward their operands).
bool hasTensor(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return false;
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

struct PopulateOpShardingRulesPass
    : sdy::impl::PopulateOpShardingRulesPassBase<PopulateOpShardingRulesPass> {
  using PopulateOpShardingRulesPassBase::PopulateOpShardingRulesPassBase;

  void runOnOperation() override {
    getOperation().walk([&](Operation *op) {
      // sdy ops carry their shardings themselves; a user's rule is kept.
      if (isa<SdyDialect>(op->getDialect()) ||
          op->hasAttr(kShardingRuleAttr))
        return;
      OpShardingRuleAttr rule = getShardingRule(op);
      if (!rule) {
        if (hasTensor(op))
          ++numOpsWithoutRule;
        return;
      }
      if (conservativePropagation)
        rule = blockNonPassThrough(rule);
      op->setAttr(kShardingRuleAttr, rule);
      ++numRules;
    });
  }
};

} // namespace
