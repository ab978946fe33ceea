//===- ShardingRules.cpp - the sharding rule of an op ---------------------===//

#include "meshsdy/Dialect/Sdy/IR/ShardingRules.h"

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"

using namespace mlir;
using namespace mlir::sdy;

OpShardingRuleAttr mlir::sdy::getShardingRule(Operation *op) {
  if (auto rule = op->getAttrOfType<OpShardingRuleAttr>(kShardingRuleAttr))
    return rule;
  if (auto model = dyn_cast<ShardingRuleOpInterface>(op))
    return model.getShardingRule();
  return {};
}

/// Whether `op` keeps all its inherent attributes in properties (not in the
/// attribute dictionary, which also holds discardable ones such as
/// shardings), so that the signature sees them all.
static bool hasPropertiesOnly(Operation *op) {
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  return info && (op->getPropertiesStorageSize() ||
                  info->getAttributeNames().empty());
}

unsigned ShardingRuleCache::SignatureInfo::getHashValue(const Operation *cop) {
  auto *op = const_cast<Operation *>(cop);
  return llvm::hash_combine(
      op->getName().getAsOpaquePointer(), op->hashProperties(),
      llvm::hash_combine_range(op->getOperandTypes()),
      llvm::hash_combine_range(op->getResultTypes()));
}

bool ShardingRuleCache::SignatureInfo::isEqual(const Operation *ca,
                                               const Operation *cb) {
  if (ca == cb)
    return true;
  if (ca == getEmptyKey() || ca == getTombstoneKey() || cb == getEmptyKey() ||
      cb == getTombstoneKey())
    return false;
  auto *a = const_cast<Operation *>(ca);
  auto *b = const_cast<Operation *>(cb);
  return a->getName() == b->getName() &&
         llvm::equal(a->getOperandTypes(), b->getOperandTypes()) &&
         llvm::equal(a->getResultTypes(), b->getResultTypes()) &&
         a->getName().compareOpProperties(a->getPropertiesStorage(),
                                          b->getPropertiesStorage());
}

ShardingRuleCache::Lookup ShardingRuleCache::get(Operation *op) {
  auto model = dyn_cast<ShardingRuleOpInterface>(op);
  if (!model || op->hasAttr(kShardingRuleAttr) ||
      !model.isRuleDeterminedBySignature() || !hasPropertiesOnly(op))
    return {getShardingRule(op)};
  auto [it, inserted] = rules.try_emplace(op);
  if (!inserted)
    return {it->second, /*shared=*/true};
  // The model may build attributes: hold no iterator across it.
  OpShardingRuleAttr rule = model.getShardingRule();
  rules[op] = rule;
  return {rule};
}
