//===- ReshardToCollectives.cpp - reshards as sdy collectives -------------===//
//
// A reshard is planned on per-dimension axis lists: what each dimension
// keeps (the common prefix), loses and gains. Moves between dimensions
// become all_to_alls, same-size replacements a collective_permute, and the
// rest one all_gather and one all_slice.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardingProjection.h"
#include "mlir/IR/Builders.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_RESHARDTOCOLLECTIVESPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// What a dimension keeps, loses and gains between two shardings.
struct DimPlan {
  AxisList kept, lost, gained;
};

/// Splits `from` and `to` at their longest common prefix; a sub-axis may be
/// split where the two part ("y" vs "y":(1)4 keeps "y":(1)4, loses
/// "y":(4)2).
DimPlan planDim(ArrayRef<AxisRefAttr> from, ArrayRef<AxisRefAttr> to,
                MeshAttr mesh) {
  DimPlan plan;
  size_t i = 0;
  while (i < from.size() && i < to.size() && from[i] == to[i])
    plan.kept.push_back(from[i++]);
  AxisList rest(from.drop_front(i)), wanted(to.drop_front(i));
  if (!rest.empty() && !wanted.empty()) {
    AxisRefAttr common = getGreatestCommonPrefix(rest.front(), wanted.front());
    if (common) {
      plan.kept.push_back(common);
      auto remainder = [&](AxisRefAttr axis) -> AxisRefAttr {
        int64_t pre = common.getNextPreSize(mesh);
        int64_t size = axis.getNextPreSize(mesh) / pre;
        return size > 1 ? makeAxisRef(mesh.getContext(), axis.getName(), pre,
                                      size, mesh)
                        : AxisRefAttr();
      };
      AxisRefAttr restHead = remainder(rest.front());
      AxisRefAttr wantedHead = remainder(wanted.front());
      rest.erase(rest.begin());
      wanted.erase(wanted.begin());
      if (restHead)
        rest.insert(rest.begin(), restHead);
      if (wantedHead)
        wanted.insert(wanted.begin(), wantedHead);
    }
  }
  plan.lost = std::move(rest);
  plan.gained = std::move(wanted);
  return plan;
}

/// mergedAxes as a list attribute, as collectives take them.
AxisRefListAttr mergedList(ArrayRef<AxisRefAttr> axes, MeshAttr mesh) {
  return AxisRefListAttr::get(mesh.getContext(), mergedAxes(axes, mesh));
}

struct ReshardToCollectivesPass
    : sdy::impl::ReshardToCollectivesPassBase<ReshardToCollectivesPass> {
  using ReshardToCollectivesPassBase::ReshardToCollectivesPassBase;

  void runOnOperation() override {
    SmallVector<ReshardOp> reshards;
    getOperation().walk([&](ReshardOp op) { reshards.push_back(op); });
    for (ReshardOp op : reshards)
      lower(op);
  }

  void lower(ReshardOp op) {
    TensorShardingAttr target = op.getSharding();
    MeshAttr mesh = target.getMesh(op);
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!mesh || !type || target.getRank() != type.getRank())
      return;
    TensorShardingAttr source = getSharding(op.getInput());
    if (source && source.getMeshOrRef() != target.getMeshOrRef())
      return; // across meshes: Shardy keeps these too
    if (source && source.getRank() != type.getRank())
      return;
    MLIRContext *ctx = op.getContext();
    int64_t rank = type.getRank();

    // The current layout, updated by each collective.
    SmallVector<AxisList> dims(rank);
    AxisList unreduced;
    if (source) {
      for (auto [d, dim] : llvm::enumerate(source.getDimShardings()))
        dims[d].assign(dim.getAxes().begin(), dim.getAxes().end());
      unreduced.assign(source.getUnreducedAxes().begin(),
                       source.getUnreducedAxes().end());
    }
    auto shardingOf = [&]() {
      SmallVector<DimensionShardingAttr> dimShardings;
      for (const AxisList &axes : dims)
        dimShardings.push_back(DimensionShardingAttr::get(
            ctx, mergedAxes(axes, mesh), /*isClosed=*/true, {}));
      return TensorShardingAttr::get(ctx, target.getMeshOrRef(), dimShardings,
                                     {}, unreduced);
    };

    OpBuilder builder(op);
    Value current = op.getInput();
    SmallVector<Operation *> emitted;
    auto record = [&](Operation *collective) {
      emitted.push_back(collective);
      current = collective->getResult(0);
    };

    // 1. Unreduced axes the target drops are all-reduced.
    AxisList reduced;
    for (AxisRefAttr axis : unreduced)
      if (!llvm::is_contained(target.getUnreducedAxes(), axis))
        reduced.push_back(axis);
    if (!reduced.empty()) {
      llvm::erase_if(unreduced, [&](AxisRefAttr a) {
        return llvm::is_contained(reduced, a);
      });
      record(AllReduceOp::create(builder, op.getLoc(), type, current,
                                 AxisRefListAttr::get(ctx, reduced),
                                 shardingOf()));
    }

    // 2. When the axes the target adds and nothing uses now fit the
    // dimensions that must grow, exactly, slice them there and let one
    // permute put every axis in place (as Shardy does: all_slice, then
    // collective_permute, rather than moving axes between dimensions).
    {
      AxisList inUse, unused;
      for (const AxisList &axes : dims)
        inUse.append(axes.begin(), axes.end());
      SmallVector<int64_t> room;
      bool fits = true;
      for (auto [d, dim] : llvm::enumerate(target.getDimShardings())) {
        int64_t want = getTotalSize(dim.getAxes(), mesh);
        int64_t have = getTotalSize(dims[d], mesh);
        fits &= want % have == 0;
        room.push_back(want / have);
        for (AxisRefAttr axis : dim.getAxes())
          if (!anyOverlap(axis, inUse))
            unused.push_back(axis);
      }
      SmallVector<AxisList> slicing(rank);
      ArrayRef<AxisRefAttr> next = unused;
      for (int64_t d = 0; d < rank && fits; ++d)
        while (!next.empty() && room[d] > 1 &&
               room[d] % axisSize(next.front(), mesh) == 0) {
          room[d] /= axisSize(next.front(), mesh);
          slicing[d].push_back(next.front());
          next = next.drop_front();
        }
      fits &= !unused.empty() && next.empty() &&
              llvm::all_of(room, [](int64_t r) { return r == 1; });
      if (fits) {
        SmallVector<AxisRefListAttr> lists;
        for (int64_t d = 0; d < rank; ++d) {
          lists.push_back(mergedList(slicing[d], mesh));
          dims[d].append(slicing[d].begin(), slicing[d].end());
        }
        record(AllSliceOp::create(builder, op.getLoc(), type, current,
                                  ListOfAxisRefListsAttr::get(ctx, lists),
                                  shardingOf()));
        bool placed = true;
        for (auto [d, dim] : llvm::enumerate(target.getDimShardings()))
          placed &= ArrayRef(mergedAxes(dims[d], mesh)) == dim.getAxes();
        if (!placed)
          record(CollectivePermuteOp::create(builder, op.getLoc(), type,
                                             current, shardingOf()));
        return finish(op, emitted, current, target);
      }
    }

    SmallVector<DimPlan> plans;
    for (int64_t d = 0; d < rank; ++d)
      plans.push_back(
          planDim(dims[d], target.getDimShardings()[d].getAxes(), mesh));
    auto applyPlans = [&]() {
      for (int64_t d = 0; d < rank; ++d) {
        dims[d] = plans[d].kept;
        dims[d].append(plans[d].lost.begin(), plans[d].lost.end());
      }
    };

    // 3. What one dimension loses and another gains first moves across
    // (until nothing moves: a move can make the next one possible).
    auto moveOnce = [&]() {
      for (int64_t src = 0; src < rank; ++src) {
        AxisList &lost = plans[src].lost;
        for (int64_t tgt = 0; tgt < rank && !lost.empty(); ++tgt) {
          DimPlan &to = plans[tgt];
          if (tgt == src || !to.lost.empty() || to.gained.size() < lost.size())
            continue;
          ArrayRef<AxisRefAttr> wanted =
              ArrayRef(to.gained).take_front(lost.size());
          if (!llvm::equal(lost, wanted)) {
            // The same axes in another order: a permute reorders them in
            // place first (as Shardy does), then they move.
            if (!std::is_permutation(lost.begin(), lost.end(), wanted.begin(),
                                     wanted.end()))
              continue;
            lost.assign(wanted.begin(), wanted.end());
            applyPlans();
            record(CollectivePermuteOp::create(builder, op.getLoc(), type,
                                               current, shardingOf()));
          }
          to.kept.append(lost.begin(), lost.end());
          to.gained.erase(to.gained.begin(), to.gained.begin() + lost.size());
          AxisList axes = std::move(lost);
          lost.clear();
          applyPlans();
          auto param = AllToAllParamAttr::get(ctx, mergedList(axes, mesh).getValue(), src, tgt);
          record(AllToAllOp::create(builder, op.getLoc(), type, current,
                                    AllToAllParamListAttr::get(ctx, {param}),
                                    shardingOf()));
          return true;
        }
      }
      return false;
    };
    while (moveOnce()) {
    }

    // 4. A dimension that gains more devices than it loses first slices
    // the difference off the front of what it gains, when those axes are
    // free, so that a permute replaces the rest (Shardy does the same).
    {
      AxisList inUseNow;
      for (const AxisList &axes : dims)
        inUseNow.append(axes.begin(), axes.end());
      SmallVector<AxisRefListAttr> slicing;
      bool any = false;
      for (int64_t d = 0; d < rank; ++d) {
        DimPlan &plan = plans[d];
        AxisList front;
        if (!plan.lost.empty() && !plan.gained.empty()) {
          int64_t lost = getTotalSize(plan.lost, mesh);
          int64_t gained = getTotalSize(plan.gained, mesh);
          if (gained > lost && gained % lost == 0) {
            for (AxisRefAttr axis : plan.gained) {
              int64_t need = gained / lost / getTotalSize(front, mesh);
              if (need <= 1)
                break;
              int64_t size = axisSize(axis, mesh);
              if (size > need && size % need == 0) {
                // The major part of this axis completes the difference.
                front.push_back(makeAxisRef(ctx, axis.getName(),
                                            axis.getPreSize(), need, mesh));
                break;
              }
              front.push_back(axis);
            }
            if (getTotalSize(front, mesh) != gained / lost ||
                anyOverlap(front, inUseNow))
              front.clear();
          }
        }
        slicing.push_back(mergedList(front, mesh));
        if (front.empty())
          continue;
        any = true;
        plan.lost.append(front.begin(), front.end());
        dims[d].append(front.begin(), front.end());
        inUseNow.append(front.begin(), front.end());
      }
      if (any)
        record(AllSliceOp::create(builder, op.getLoc(), type, current,
                                  ListOfAxisRefListsAttr::get(ctx, slicing),
                                  shardingOf()));
    }

    // 5. Same-size replacements: one collective_permute.
    SmallVector<int64_t> permuted;
    for (int64_t d = 0; d < rank; ++d) {
      DimPlan &plan = plans[d];
      if (plan.lost.empty() || plan.gained.empty() ||
          getTotalSize(plan.lost, mesh) != getTotalSize(plan.gained, mesh))
        continue;
      AxisList othersNow;
      for (int64_t e = 0; e < rank; ++e)
        if (e != d)
          othersNow.append(dims[e].begin(), dims[e].end());
      if (anyOverlap(plan.gained, othersNow))
        continue;
      dims[d] = plan.kept;
      dims[d].append(plan.gained.begin(), plan.gained.end());
      plan.kept = dims[d];
      plan.lost.clear();
      plan.gained.clear();
      permuted.push_back(d);
    }
    if (!permuted.empty())
      record(CollectivePermuteOp::create(builder, op.getLoc(), type, current,
                                         shardingOf()));

    // 6. Slice dimensions that lose nothing first (as Shardy does: the
    // tensors stay small), when the axes they gain are free; 7. gather what
    // is still lost; 8. slice what is still gained.
    AxisList inUse;
    for (const AxisList &axes : dims)
      inUse.append(axes.begin(), axes.end());
    auto sliceWhere = [&](llvm::function_ref<bool(const DimPlan &)> pick) {
      SmallVector<AxisRefListAttr> slicing;
      bool any = false;
      for (int64_t d = 0; d < rank; ++d) {
        DimPlan &plan = plans[d];
        bool now = !plan.gained.empty() && pick(plan);
        slicing.push_back(mergedList(now ? plan.gained : AxisList(), mesh));
        if (!now)
          continue;
        any = true;
        plan.kept.append(plan.gained.begin(), plan.gained.end());
        plan.gained.clear();
      }
      if (!any)
        return;
      applyPlans();
      record(AllSliceOp::create(builder, op.getLoc(), type, current,
                                ListOfAxisRefListsAttr::get(ctx, slicing),
                                shardingOf()));
    };
    sliceWhere([&](const DimPlan &plan) {
      return plan.lost.empty() && !anyOverlap(plan.gained, inUse);
    });
    SmallVector<AxisRefListAttr> gathering;
    bool gather = false;
    for (DimPlan &plan : plans) {
      gathering.push_back(mergedList(plan.lost, mesh));
      gather |= !plan.lost.empty();
      plan.lost.clear();
    }
    if (gather) {
      applyPlans();
      record(AllGatherOp::create(builder, op.getLoc(), type, current,
                                 ListOfAxisRefListsAttr::get(ctx, gathering),
                                 shardingOf()));
    }
    sliceWhere([](const DimPlan &) { return true; });

    finish(op, emitted, current, target);
  }

  /// Whether `op` (changing nothing) is the only place its input's sharding
  /// is written for a collective that reads it: an input without one (an
  /// unannotated argument, a loop result) would leave that collective
  /// reading a value of no sharding, which its verifier rejects.
  static bool givesCollectiveItsSharding(ReshardOp op) {
    if (getSharding(op.getInput()))
      return false;
    return llvm::any_of(op->getUsers(), [](Operation *user) {
      auto collective = dyn_cast<CollectiveOpInterface>(user);
      return collective && !collective.allowMissingInputSharding();
    });
  }

  /// Replaces `op` by the last of `emitted` (or its input if none).
  void finish(ReshardOp op, ArrayRef<Operation *> emitted, Value current,
              TensorShardingAttr target) {
    if (emitted.empty()) {
      if (keepRedundantReshards || givesCollectiveItsSharding(op))
        return;
      op.getResult().replaceAllUsesWith(op.getInput());
      op.erase();
      return;
    }
    // The last collective produces exactly what the reshard did.
    cast<CollectiveOpInterface>(emitted.back()).setOutShardingAttr(target);
    op.getResult().replaceAllUsesWith(current);
    op.erase();
  }


};

} // namespace
