//===- ValueShardings.h - where a value's sharding lives --------*- C++ -*-===//
//
// A value's sharding is stored by whoever defines it: `sdy.sharding` on a
// foreign op (one #sdy.sharding_per_value entry per result), the sharding of
// an sdy op (sharding_constraint, reshard, data_flow_edge, collectives), the
// in/out shardings of region ops, or `sdy.sharding` on a function argument.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_IR_VALUESHARDINGS_H
#define MESHSDY_DIALECT_SDY_IR_VALUESHARDINGS_H

#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "mlir/IR/Value.h"

namespace mlir::sdy {

/// The name of the discardable attribute holding shardings (`sdy.sharding`).
inline constexpr StringLiteral kShardingAttr = "sdy.sharding";
/// The name of the discardable attribute holding a sharding rule.
inline constexpr StringLiteral kShardingRuleAttr = "sdy.sharding_rule";

/// The sharding of `value`, or null if it has none (fully open). A block
/// argument of a manual_computation gets its in-sharding without the manual
/// axes (the body is local w.r.t. them).
TensorShardingAttr getSharding(Value value);

/// `sharding` without the axes named in `manualAxes`: the view from inside a
/// manual_computation body. A closed dimension left without axes loses its
/// priority.
TensorShardingAttr eraseManualAxes(TensorShardingAttr sharding,
                                   ManualAxesAttr manualAxes);

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_IR_VALUESHARDINGS_H
