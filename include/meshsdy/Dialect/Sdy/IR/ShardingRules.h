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

namespace mlir {
class Operation;

namespace sdy {

/// The sharding rule of `op`: its `sdy.sharding_rule` attribute if it has
/// one, else what its ShardingRuleOpInterface returns, else null.
OpShardingRuleAttr getShardingRule(Operation *op);

} // namespace sdy
} // namespace mlir

#endif // MESHSDY_DIALECT_SDY_IR_SHARDINGRULES_H
