//===- RemoveSizeOneAxes.cpp - axes of size one shard nothing -------------===//

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/Transforms/Common/ModuleShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "mlir/IR/Builders.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVESIZEONEAXESPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// `axes` without those of size one in `mesh`; the sub-axes a removed axis
/// separated are merged ({"y":(1)2, "x", "y":(2)2} is {"y"}), as the
/// verifier wants them.
SmallVector<AxisRefAttr> withoutSizeOne(ArrayRef<AxisRefAttr> axes,
                                        MeshAttr mesh) {
  SmallVector<AxisRefAttr> kept;
  for (AxisRefAttr axis : axes)
    if (axis.getSize(mesh) != 1)
      appendOrMerge(kept, axis, mesh);
  return kept;
}

/// `sharding` without the axes of size one in `mesh`.
TensorShardingAttr withoutSizeOne(TensorShardingAttr sharding, MeshAttr mesh) {
  TensorShardingAttr filtered = filterAxes(
      sharding, [&](AxisRefAttr axis) { return axis.getSize(mesh) != 1; });
  SmallVector<DimensionShardingAttr> dims;
  for (DimensionShardingAttr dim : filtered.getDimShardings())
    dims.push_back(DimensionShardingAttr::get(
        dim.getContext(), withoutSizeOne(dim.getAxes(), mesh),
        dim.getIsClosed(), dim.getPriority()));
  return TensorShardingAttr::get(
      sharding.getContext(), sharding.getMeshOrRef(), dims,
      withoutSizeOne(filtered.getReplicatedAxes(), mesh),
      withoutSizeOne(filtered.getUnreducedAxes(), mesh));
}

ListOfAxisRefListsAttr withoutSizeOne(ListOfAxisRefListsAttr lists,
                                      MeshAttr mesh) {
  SmallVector<AxisRefListAttr> kept;
  for (AxisRefListAttr list : lists.getValue())
    kept.push_back(AxisRefListAttr::get(
        list.getContext(), withoutSizeOne(list.getValue(), mesh)));
  return ListOfAxisRefListsAttr::get(lists.getContext(), kept);
}

/// Removes the size-one axes a collective names itself (its shardings are
/// rewritten with every other sharding), so that it still matches them.
/// An all_to_all left moving nothing becomes a reshard to its out_sharding.
/// Returns true if anything changed.
bool removeFromCollective(Operation *op, MeshAttr mesh) {
  MLIRContext *ctx = op->getContext();
  auto update = [&](auto attr, auto set) {
    auto kept = withoutSizeOne(attr, mesh);
    if (kept == attr)
      return false;
    set(kept);
    return true;
  };
  if (auto gather = dyn_cast<AllGatherOp>(op))
    return update(gather.getGatheringAxes(),
                  [&](auto v) { gather.setGatheringAxesAttr(v); });
  if (auto slice = dyn_cast<AllSliceOp>(op))
    return update(slice.getSlicingAxes(),
                  [&](auto v) { slice.setSlicingAxesAttr(v); });
  if (auto scatter = dyn_cast<ReduceScatterOp>(op))
    return update(scatter.getReduceScatterAxes(),
                  [&](auto v) { scatter.setReduceScatterAxesAttr(v); });
  if (auto reduce = dyn_cast<AllReduceOp>(op)) {
    SmallVector<AxisRefAttr> kept =
        withoutSizeOne(reduce.getReductionAxes().getValue(), mesh);
    if (kept.size() == reduce.getReductionAxes().size())
      return false;
    reduce.setReductionAxesAttr(AxisRefListAttr::get(ctx, kept));
    return true;
  }
  auto allToAll = dyn_cast<AllToAllOp>(op);
  if (!allToAll)
    return false;
  SmallVector<AllToAllParamAttr> params;
  bool changed = false;
  for (AllToAllParamAttr param : allToAll.getParams().getValue()) {
    SmallVector<AxisRefAttr> axes = withoutSizeOne(param.getAxes(), mesh);
    changed |= axes.size() != param.getAxes().size();
    if (!axes.empty())
      params.push_back(AllToAllParamAttr::get(ctx, axes, param.getSrcDim(),
                                              param.getTgtDim()));
  }
  if (!changed)
    return false;
  if (!params.empty()) {
    allToAll.setParamsAttr(AllToAllParamListAttr::get(ctx, params));
    return true;
  }
  OpBuilder builder(op);
  auto reshard = ReshardOp::create(builder, op->getLoc(), allToAll.getType(),
                                   allToAll.getTensor(),
                                   allToAll.getOutSharding());
  allToAll.getResult().replaceAllUsesWith(reshard.getResult());
  op->erase();
  return true;
}

struct RemoveSizeOneAxesPass
    : sdy::impl::RemoveSizeOneAxesPassBase<RemoveSizeOneAxesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshTable meshes(module);

    bool changed = false;
    // Manual axes first: the mesh of a manual computation is the one of its
    // shardings, which keep their mesh reference below.
    module.walk([&](ManualComputationOp op) {
      TensorShardingAttr any;
      for (TensorShardingAttr sharding :
           llvm::concat<const TensorShardingAttr>(
               op.getInShardings().getShardings(),
               op.getOutShardings().getShardings()))
        any = any ? any : sharding;
      MeshAttr mesh = meshes.lookup(any);
      if (!mesh)
        return;
      SmallVector<StringAttr> kept;
      for (StringAttr axis : op.getManualAxes().getValue())
        if (!mesh.getAxis(axis.getValue()) ||
            mesh.getAxis(axis.getValue()).getSize() != 1)
          kept.push_back(axis);
      if (kept.size() != op.getManualAxes().size()) {
        op.setManualAxesAttr(ManualAxesAttr::get(op.getContext(), kept));
        changed = true;
      }
    });

    // The axes collectives name themselves (their shardings are rewritten
    // below, with every other sharding).
    SmallVector<Operation *> collectives;
    module.walk([&](CollectiveOpInterface op) {
      collectives.push_back(op);
    });
    for (Operation *op : collectives)
      if (MeshAttr mesh = meshes.lookup(
              cast<CollectiveOpInterface>(op).getOutSharding()))
        changed |= removeFromCollective(op, mesh);

    changed |= rewriteShardings(module, [&](TensorShardingAttr sharding) {
      MeshAttr mesh = meshes.lookup(sharding);
      if (!mesh)
        return sharding;
      return withoutSizeOne(sharding, mesh);
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
