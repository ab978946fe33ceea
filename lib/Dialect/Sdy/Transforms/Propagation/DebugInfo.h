//===- DebugInfo.h - why a value got its sharding ---------------*- C++ -*-===//
//
// With `debug-sharding-origins`, propagation records for every axis of every
// sharding where it came from: a function input or output, a sharding
// constraint or a manual computation, as the user wrote them before
// propagation. With `debug-propagation-edge-sharding`, it records for every
// op through which operand or result each axis reached each of its values,
// and at which step. Both are saved on the module at the end:
//   - `sdy.sharding_origins`: a dictionary from axis to origin ("self",
//     "input: 0", "output: 1", "constraint_2", "mc_0_input: 1", ...) on
//     function arguments and results, sharding constraints, data-flow edges,
//     and (one dictionary per result) on other ops;
//   - `sdy.propagation_edges`: a #sdy.propagation_edges<...> attribute on
//     each op and function result that gained axes.
// The edges of a data-flow op that has no `sdy.data_flow_edge` ops keep
// theirs in `sdy.{block_arg,result}_{sharding_origins,propagation_edges}` on
// the op, one entry per edge owner.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_SDY_TRANSFORMS_PROPAGATION_DEBUGINFO_H
#define MESHSDY_LIB_DIALECT_SDY_TRANSFORMS_PROPAGATION_DEBUGINFO_H

#include "meshsdy/Dialect/Sdy/Transforms/Propagation/DebugNames.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardingProjection.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace mlir::sdy {

class PropagationDebugInfo {
public:
  PropagationDebugInfo(bool origins, bool edges);
  ~PropagationDebugInfo();

  /// Whether anything is recorded.
  bool enabled() const { return origins || edges; }

  /// Records the user's shardings as origins and names the constraints and
  /// manual computations.
  void prepare(ModuleOp module);

  /// Records one propagation step through `op` that changed a sharding: the
  /// axes by which the factor shardings in `after` differ from `before`, and
  /// which operand or result each came from. When `op` is a function,
  /// `funcResult` is the index of the result synced with the returned value
  /// `operands[0]`; when `op` is a data-flow op propagating through the
  /// edge of `edgeOwner`, the edges are the owner's.
  void record(Operation *op, ArrayRef<Value> operands, ArrayRef<Value> results,
              const ShardingProjection &before,
              const ShardingProjection &after, OpShardingRuleAttr rule,
              MeshAttr mesh, int64_t funcResult = -1,
              Value edgeOwner = Value());

  /// Saves what was recorded as attributes on the module.
  void save(ModuleOp module);

  /// What is recorded (DebugInfo.cpp).
  struct State;

private:
  bool origins, edges;
  std::unique_ptr<State> state;
};

} // namespace mlir::sdy

#endif // MESHSDY_LIB_DIALECT_SDY_TRANSFORMS_PROPAGATION_DEBUGINFO_H
