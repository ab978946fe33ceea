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
#include "meshsdy/Dialect/Sdy/Transforms/Export/ReshardToCollectives.h"
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

/// Lowers one reshard to collectives, as Shardy's CollectiveInserter does.
/// The layout the collectives emitted so far produce (`dims`, `unreduced`)
/// starts at the input's sharding; each step below is a phase of the state
/// machine: it emits at most one collective that brings that layout closer
/// to the target, and updates the layout to what the collective produces.
/// Once axes stop fitting the first phases, `plans` says what each
/// dimension still keeps, loses and gains, and the later phases work it off.
class ReshardLowering {
public:
  ReshardLowering(ReshardOp op, TensorShardingAttr source, MeshAttr mesh,
                  RankedTensorType type);

  /// Emits the collectives, phase by phase.
  void emitCollectives();

  /// The collectives emitted, in order.
  ArrayRef<Operation *> getEmitted() const { return emitted; }
  /// The value the last collective produces (the input if none).
  Value getCurrent() const { return current; }

private:
  // The phases, in the order they run.
  void allReduceDroppedUnreduced();
  bool sliceUnusedAxesThenPermute();
  void planDims();
  bool moveAxesAcrossDims();
  void sliceGainSurplus();
  void permuteSameSizeReplacements();
  void sliceWhere(llvm::function_ref<bool(const DimPlan &)> pick);
  void gatherLost();

  /// How the axes the target adds and nothing uses now fill the dimensions
  /// that must grow, exactly; none if they do not.
  std::optional<SmallVector<AxisList>> slicingOfUnusedAxes() const;
  /// The front of what `plan` gains that makes up the difference when it
  /// gains more devices than it loses, if those axes are free (not in
  /// `inUse`); empty otherwise.
  AxisList surplusFront(const DimPlan &plan,
                        ArrayRef<AxisRefAttr> inUse) const;

  /// The sharding of the current layout, as each collective's result.
  TensorShardingAttr currentSharding() const;
  /// The axes the current layout's dimensions use.
  AxisList axesInUse() const;
  /// The current layout from the plans: what each dimension keeps, then
  /// what it has yet to lose.
  void applyPlans();
  /// Makes `collective` the producer of the current value.
  void record(Operation *collective);

  TensorShardingAttr target;
  MeshAttr mesh;
  RankedTensorType type;
  Location loc;
  MLIRContext *ctx;
  int64_t rank;
  OpBuilder builder;

  SmallVector<AxisList> dims;
  AxisList unreduced;
  SmallVector<DimPlan> plans;
  Value current;
  SmallVector<Operation *> emitted;
};

ReshardLowering::ReshardLowering(ReshardOp op, TensorShardingAttr source,
                                 MeshAttr mesh, RankedTensorType type)
    : target(op.getSharding()), mesh(mesh), type(type), loc(op.getLoc()),
      ctx(op.getContext()), rank(type.getRank()), builder(op),
      dims(rank), current(op.getInput()) {
  if (!source)
    return;
  for (auto [d, dim] : llvm::enumerate(source.getDimShardings()))
    dims[d].assign(dim.getAxes().begin(), dim.getAxes().end());
  unreduced.assign(source.getUnreducedAxes().begin(),
                   source.getUnreducedAxes().end());
}

void ReshardLowering::emitCollectives() {
  allReduceDroppedUnreduced();
  if (sliceUnusedAxesThenPermute())
    return;
  planDims();
  while (moveAxesAcrossDims()) {
  }
  sliceGainSurplus();
  permuteSameSizeReplacements();
  // 6. Slice dimensions that lose nothing first (as Shardy does: the
  // tensors stay small), when the axes they gain are free; 7. gather what
  // is still lost; 8. slice what is still gained.
  AxisList inUse = axesInUse();
  sliceWhere([&](const DimPlan &plan) {
    return plan.lost.empty() && !anyOverlap(plan.gained, inUse);
  });
  gatherLost();
  sliceWhere([](const DimPlan &) { return true; });
}

TensorShardingAttr ReshardLowering::currentSharding() const {
  SmallVector<DimensionShardingAttr> dimShardings;
  for (const AxisList &axes : dims)
    dimShardings.push_back(DimensionShardingAttr::get(
        ctx, mergedAxes(axes, mesh), /*isClosed=*/true, {}));
  return TensorShardingAttr::get(ctx, target.getMeshOrRef(), dimShardings, {},
                                 unreduced);
}

AxisList ReshardLowering::axesInUse() const {
  AxisList inUse;
  for (const AxisList &axes : dims)
    inUse.append(axes.begin(), axes.end());
  return inUse;
}

void ReshardLowering::applyPlans() {
  for (int64_t d = 0; d < rank; ++d) {
    dims[d] = plans[d].kept;
    dims[d].append(plans[d].lost.begin(), plans[d].lost.end());
  }
}

void ReshardLowering::record(Operation *collective) {
  emitted.push_back(collective);
  current = collective->getResult(0);
}

/// 1. Unreduced axes the target drops are all-reduced.
void ReshardLowering::allReduceDroppedUnreduced() {
  AxisList reduced;
  for (AxisRefAttr axis : unreduced)
    if (!llvm::is_contained(target.getUnreducedAxes(), axis))
      reduced.push_back(axis);
  if (reduced.empty())
    return;
  llvm::erase_if(unreduced,
                 [&](AxisRefAttr a) { return llvm::is_contained(reduced, a); });
  record(AllReduceOp::create(builder, loc, type, current,
                             AxisRefListAttr::get(ctx, reduced),
                             currentSharding()));
}

/// 2. When the axes the target adds and nothing uses now fit the
/// dimensions that must grow, exactly, slice them there and let one
/// permute put every axis in place (as Shardy does: all_slice, then
/// collective_permute, rather than moving axes between dimensions).
/// Returns whether that finished the reshard.
bool ReshardLowering::sliceUnusedAxesThenPermute() {
  std::optional<SmallVector<AxisList>> slicing = slicingOfUnusedAxes();
  if (!slicing)
    return false;
  SmallVector<AxisRefListAttr> lists;
  for (int64_t d = 0; d < rank; ++d) {
    lists.push_back(mergedList((*slicing)[d], mesh));
    dims[d].append((*slicing)[d].begin(), (*slicing)[d].end());
  }
  record(AllSliceOp::create(builder, loc, type, current,
                            ListOfAxisRefListsAttr::get(ctx, lists),
                            currentSharding()));
  bool placed = true;
  for (auto [d, dim] : llvm::enumerate(target.getDimShardings()))
    placed &= ArrayRef(mergedAxes(dims[d], mesh)) == dim.getAxes();
  if (!placed)
    record(CollectivePermuteOp::create(builder, loc, type, current,
                                       currentSharding()));
  return true;
}

std::optional<SmallVector<AxisList>>
ReshardLowering::slicingOfUnusedAxes() const {
  AxisList inUse = axesInUse(), unused;
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
  if (!fits)
    return std::nullopt;
  return slicing;
}

void ReshardLowering::planDims() {
  for (int64_t d = 0; d < rank; ++d)
    plans.push_back(
        planDim(dims[d], target.getDimShardings()[d].getAxes(), mesh));
}

/// 3. What one dimension loses and another gains first moves across; the
/// caller repeats this until nothing moves (a move can make the next one
/// possible). Returns whether an all_to_all was emitted.
bool ReshardLowering::moveAxesAcrossDims() {
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
        record(CollectivePermuteOp::create(builder, loc, type, current,
                                           currentSharding()));
      }
      to.kept.append(lost.begin(), lost.end());
      to.gained.erase(to.gained.begin(), to.gained.begin() + lost.size());
      AxisList axes = std::move(lost);
      lost.clear();
      applyPlans();
      auto param = AllToAllParamAttr::get(
          ctx, mergedList(axes, mesh).getValue(), src, tgt);
      record(AllToAllOp::create(builder, loc, type, current,
                                AllToAllParamListAttr::get(ctx, {param}),
                                currentSharding()));
      return true;
    }
  }
  return false;
}

/// 4. A dimension that gains more devices than it loses first slices
/// the difference off the front of what it gains, when those axes are
/// free, so that a permute replaces the rest (Shardy does the same).
void ReshardLowering::sliceGainSurplus() {
  AxisList inUseNow = axesInUse();
  SmallVector<AxisRefListAttr> slicing;
  bool any = false;
  for (int64_t d = 0; d < rank; ++d) {
    DimPlan &plan = plans[d];
    AxisList front = surplusFront(plan, inUseNow);
    slicing.push_back(mergedList(front, mesh));
    if (front.empty())
      continue;
    any = true;
    plan.lost.append(front.begin(), front.end());
    dims[d].append(front.begin(), front.end());
    inUseNow.append(front.begin(), front.end());
  }
  if (any)
    record(AllSliceOp::create(builder, loc, type, current,
                              ListOfAxisRefListsAttr::get(ctx, slicing),
                              currentSharding()));
}

AxisList ReshardLowering::surplusFront(const DimPlan &plan,
                                       ArrayRef<AxisRefAttr> inUse) const {
  AxisList front;
  if (plan.lost.empty() || plan.gained.empty())
    return front;
  int64_t lost = getTotalSize(plan.lost, mesh);
  int64_t gained = getTotalSize(plan.gained, mesh);
  if (gained <= lost || gained % lost != 0)
    return front;
  for (AxisRefAttr axis : plan.gained) {
    int64_t need = gained / lost / getTotalSize(front, mesh);
    if (need <= 1)
      break;
    int64_t size = axisSize(axis, mesh);
    if (size > need && size % need == 0) {
      // The major part of this axis completes the difference.
      front.push_back(
          makeAxisRef(ctx, axis.getName(), axis.getPreSize(), need, mesh));
      break;
    }
    front.push_back(axis);
  }
  if (getTotalSize(front, mesh) != gained / lost || anyOverlap(front, inUse))
    front.clear();
  return front;
}

/// 5. Same-size replacements: one collective_permute.
void ReshardLowering::permuteSameSizeReplacements() {
  bool any = false;
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
    any = true;
  }
  if (any)
    record(CollectivePermuteOp::create(builder, loc, type, current,
                                       currentSharding()));
}

/// 6. and 8. One all_slice of what the dimensions `pick` chooses gain.
void ReshardLowering::sliceWhere(
    llvm::function_ref<bool(const DimPlan &)> pick) {
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
  record(AllSliceOp::create(builder, loc, type, current,
                            ListOfAxisRefListsAttr::get(ctx, slicing),
                            currentSharding()));
}

/// 7. One all_gather of what the dimensions still lose.
void ReshardLowering::gatherLost() {
  SmallVector<AxisRefListAttr> gathering;
  bool any = false;
  for (DimPlan &plan : plans) {
    gathering.push_back(mergedList(plan.lost, mesh));
    any |= !plan.lost.empty();
    plan.lost.clear();
  }
  if (!any)
    return;
  applyPlans();
  record(AllGatherOp::create(builder, loc, type, current,
                             ListOfAxisRefListsAttr::get(ctx, gathering),
                             currentSharding()));
}

/// Rewrites reshards one by one (see lowerReshardsToCollectives).
class ReshardsToCollectives {
public:
  explicit ReshardsToCollectives(bool keepRedundantReshards)
      : keepRedundantReshards(keepRedundantReshards) {}

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
    ReshardLowering lowering(op, source, mesh, type);
    lowering.emitCollectives();
    finish(op, lowering.getEmitted(), lowering.getCurrent(), target);
  }

private:
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

  bool keepRedundantReshards;
};

struct ReshardToCollectivesPass
    : sdy::impl::ReshardToCollectivesPassBase<ReshardToCollectivesPass> {
  using ReshardToCollectivesPassBase::ReshardToCollectivesPassBase;

  void runOnOperation() override {
    lowerReshardsToCollectives(getOperation(), keepRedundantReshards);
  }
};

} // namespace

void mlir::sdy::lowerReshardsToCollectives(Operation *root,
                                           bool keepRedundantReshards) {
  SmallVector<ReshardOp> reshards;
  root->walk([&](ReshardOp op) { reshards.push_back(op); });
  ReshardsToCollectives lowering(keepRedundantReshards);
  for (ReshardOp op : reshards)
    lowering.lower(op);
}
