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
