//===- ValueShardings.cpp - where a value's sharding lives ----------------===//

#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::sdy;

TensorShardingAttr mlir::sdy::getSharding(Value value) {
  if (!value)
    return {};
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (!owner)
      return {};
    if (auto dataFlowOp = dyn_cast<ShardableDataFlowOpInterface>(owner))
      return dataFlowOp.getEdgeOwnerSharding(arg);
    auto func = dyn_cast<FunctionOpInterface>(owner);
    if (func && arg.getOwner()->isEntryBlock() &&
        arg.getArgNumber() < func.getNumArguments())
      return func.getArgAttrOfType<TensorShardingAttr>(arg.getArgNumber(),
                                                       kShardingAttr);
    return {};
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  if (auto constraint = dyn_cast<ShardingConstraintOp>(op))
    return constraint.getSharding();
  if (auto reshard = dyn_cast<ReshardOp>(op))
    return reshard.getSharding();
  if (auto edge = dyn_cast<DataFlowEdgeOp>(op))
    return edge.getShardingAttr();
  if (auto collective = dyn_cast<CollectiveOpInterface>(op))
    return collective.getOutSharding();
  if (auto dataFlowOp = dyn_cast<ShardableDataFlowOpInterface>(op))
    return dataFlowOp.getEdgeOwnerSharding(result);
  if (auto shardings =
          op->getAttrOfType<TensorShardingPerValueAttr>(kShardingAttr))
    return shardings.getSharding(result.getResultNumber());
  return {};
}
