//===- ShardableValues.cpp - where propagation reads and writes -----------===//

#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardableValues.h"

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::sdy;

ShardableDataFlowOpInterface mlir::sdy::getOwningDataFlowOp(Value target) {
  Operation *owner = nullptr;
  if (auto arg = dyn_cast<BlockArgument>(target))
    owner = arg.getOwner()->getParentOp();
  else
    owner = target.getDefiningOp();
  return dyn_cast_or_null<ShardableDataFlowOpInterface>(owner);
}

DataFlowEdgeOp mlir::sdy::lookupEdgeOp(Value owner) {
  if (!owner || !owner.hasOneUse())
    return {};
  return dyn_cast<DataFlowEdgeOp>(*owner.user_begin());
}

Value mlir::sdy::getShardableValue(Value value) {
  if (!value)
    return {};
  if (ShardableDataFlowOpInterface dataFlowOp = getOwningDataFlowOp(value)) {
    Value owner = dataFlowOp.getEdgeOwnerFromTarget(value);
    if (!owner)
      return isa<OpResult>(value) ? value : Value();
    if (DataFlowEdgeOp edge = lookupEdgeOp(owner))
      return edge.getResult();
    return owner;
  }
  if (isa<OpResult>(value))
    return value;
  auto arg = cast<BlockArgument>(value);
  auto func = dyn_cast_or_null<FunctionOpInterface>(
      arg.getOwner()->getParentOp());
  if (func && arg.getOwner()->isEntryBlock())
    return value;
  return {};
}

TensorShardingAttr mlir::sdy::getValueSharding(Value value) {
  Value shardable = getShardableValue(value);
  if (!shardable)
    return {};
  // getSharding knows every place a sharding lives, including the
  // manual-axes-free view of a manual_computation block argument.
  return getSharding(shardable);
}

TensorShardingAttr mlir::sdy::addManualAxes(TensorShardingAttr outer,
                                            TensorShardingAttr local,
                                            ManualComputationOp manual) {
  if (!outer)
    return local;
  if (!local || local.getRank() != outer.getRank())
    return outer;
  ManualAxesAttr manualAxes = manual.getManualAxes();
  auto isManual = [&](AxisRefAttr axis) {
    return manualAxes && manualAxes.contains(axis.getName());
  };
  MLIRContext *ctx = outer.getContext();
  SmallVector<DimensionShardingAttr> dims;
  for (auto [outerDim, localDim] :
       llvm::zip(outer.getDimShardings(), local.getDimShardings())) {
    SmallVector<AxisRefAttr> axes;
    llvm::copy_if(outerDim.getAxes(), std::back_inserter(axes), isManual);
    llvm::append_range(axes, localDim.getAxes());
    dims.push_back(DimensionShardingAttr::get(ctx, axes, localDim.getIsClosed(),
                                              localDim.getPriority()));
  }
  // The free axes `local` keeps replicated or unreduced stay so: dropping
  // them would let propagation put an axis the user replicated on a
  // dimension.
  MeshAttr mesh = outer.getMesh(manual);
  auto merged = [&](ArrayRef<AxisRefAttr> outerAxes,
                    ArrayRef<AxisRefAttr> localAxes) {
    SmallVector<AxisRefAttr> axes;
    llvm::copy_if(outerAxes, std::back_inserter(axes), isManual);
    for (AxisRefAttr axis : localAxes)
      if (!llvm::is_contained(axes, axis))
        axes.push_back(axis);
    if (mesh)
      llvm::sort(axes, getMeshComparator(mesh));
    return axes;
  };
  return TensorShardingAttr::get(
      ctx, outer.getMeshOrRef(), dims,
      merged(outer.getReplicatedAxes(), local.getReplicatedAxes()),
      merged(outer.getUnreducedAxes(), local.getUnreducedAxes()));
}

/// A fully open sharding of `type` on `meshOrRef` (rank 0 if not shaped).
static TensorShardingAttr openShardingFor(Type type, Attribute meshOrRef) {
  auto shaped = dyn_cast<ShapedType>(type);
  int64_t rank = shaped && shaped.hasRank() ? shaped.getRank() : 0;
  return TensorShardingAttr::getFullyOpen(meshOrRef.getContext(), rank,
                                          meshOrRef);
}

/// Replaces entry `index` of a per-value list of shardings, filling missing
/// entries with fully open shardings of `types`.
static SmallVector<TensorShardingAttr>
replaceAt(ArrayRef<TensorShardingAttr> current, TypeRange types, size_t index,
          TensorShardingAttr sharding) {
  SmallVector<TensorShardingAttr> result(current);
  if (result.size() != types.size())
    result.assign(types.size(), TensorShardingAttr());
  for (auto [i, entry] : llvm::enumerate(result))
    if (!entry && i != index)
      entry = openShardingFor(types[i], sharding.getMeshOrRef());
  result[index] = sharding;
  return result;
}

bool mlir::sdy::setValueSharding(Value value, TensorShardingAttr sharding) {
  Value shardable = getShardableValue(value);
  if (!shardable || !sharding)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(shardable)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto func = dyn_cast<FunctionOpInterface>(parent)) {
      func.setArgAttr(arg.getArgNumber(), kShardingAttr, sharding);
      return true;
    }
    auto dataFlowOp = cast<ShardableDataFlowOpInterface>(parent);
    ArrayRef<BlockArgument> owners = dataFlowOp.getBlockArgumentEdgeOwners();
    auto it = llvm::find(owners, arg);
    if (it == owners.end())
      return false;
    if (auto manual = dyn_cast<ManualComputationOp>(parent))
      sharding = addManualAxes(manual.getEdgeOwnerSharding(arg), sharding,
                               manual);
    SmallVector<Type> types;
    for (BlockArgument owner : owners)
      types.push_back(owner.getType());
    dataFlowOp.setBlockArgumentEdgeOwnerShardings(
        replaceAt(dataFlowOp.getBlockArgumentEdgeOwnerShardings(), types,
                  it - owners.begin(), sharding));
    return true;
  }
  auto result = cast<OpResult>(shardable);
  Operation *op = result.getOwner();
  if (auto constraint = dyn_cast<ShardingConstraintOp>(op)) {
    constraint.setShardingAttr(sharding);
    return true;
  }
  if (auto reshard = dyn_cast<ReshardOp>(op)) {
    reshard.setShardingAttr(sharding);
    return true;
  }
  if (auto edge = dyn_cast<DataFlowEdgeOp>(op)) {
    edge.setShardingAttr(sharding);
    return true;
  }
  if (auto collective = dyn_cast<CollectiveOpInterface>(op)) {
    collective.setOutShardingAttr(sharding);
    return true;
  }
  if (auto dataFlowOp = dyn_cast<ShardableDataFlowOpInterface>(op)) {
    ResultRange owners = dataFlowOp.getOpResultEdgeOwners();
    auto it = llvm::find(owners, result);
    if (it == owners.end())
      return false;
    dataFlowOp.setOpResultEdgeOwnerShardings(
        replaceAt(dataFlowOp.getOpResultEdgeOwnerShardings(),
                  owners.getTypes(), std::distance(owners.begin(), it),
                  sharding));
    return true;
  }
  auto current = op->getAttrOfType<TensorShardingPerValueAttr>(kShardingAttr);
  op->setAttr(kShardingAttr,
              TensorShardingPerValueAttr::get(
                  op->getContext(),
                  replaceAt(current ? current.getShardings()
                                    : ArrayRef<TensorShardingAttr>(),
                            op->getResultTypes(), result.getResultNumber(),
                            sharding)));
  return true;
}
