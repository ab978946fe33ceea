//===- ValueShardings.cpp - where a value's sharding lives ----------------===//

#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::sdy;

TensorShardingAttr mlir::sdy::eraseManualAxes(TensorShardingAttr sharding,
                                              ManualAxesAttr manualAxes) {
  if (!sharding || !manualAxes || manualAxes.empty())
    return sharding;
  auto keep = [&](ArrayRef<AxisRefAttr> axes) {
    SmallVector<AxisRefAttr> kept;
    for (AxisRefAttr axis : axes)
      if (!manualAxes.contains(axis.getName()))
        kept.push_back(axis);
    return kept;
  };
  MLIRContext *ctx = sharding.getContext();
  SmallVector<DimensionShardingAttr> dims;
  for (DimensionShardingAttr dim : sharding.getDimShardings()) {
    SmallVector<AxisRefAttr> axes = keep(dim.getAxes());
    // A closed dimension left without axes has nothing a priority could
    // rank (and such a sharding is invalid).
    std::optional<int64_t> priority = dim.getPriority();
    if (axes.empty() && dim.getIsClosed())
      priority = std::nullopt;
    dims.push_back(
        DimensionShardingAttr::get(ctx, axes, dim.getIsClosed(), priority));
  }
  return TensorShardingAttr::get(ctx, sharding.getMeshOrRef(), dims,
                                 keep(sharding.getReplicatedAxes()),
                                 keep(sharding.getUnreducedAxes()));
}

TensorShardingAttr mlir::sdy::getSharding(Value value) {
  if (!value)
    return {};
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (!owner)
      return {};
    // Inside a manual computation, values are local w.r.t. the manual axes.
    if (auto manual = dyn_cast<ManualComputationOp>(owner))
      return eraseManualAxes(manual.getEdgeOwnerSharding(arg),
                             manual.getManualAxes());
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
