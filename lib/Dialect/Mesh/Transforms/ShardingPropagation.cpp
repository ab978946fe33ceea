//===- ShardingPropagation.cpp - mesh-sharding-propagation ----------------===//
//
// A worklist over ops. What is known of each tensor value is a mesh and the
// split axes of each dimension (`ValueInfo`); user annotations are fixed,
// everything else only grows. Visiting an op derives the sharding of its loops
// from its tensors and extends the tensors of the side the current phase may
// update; a value that changes re-queues its defining op and its users. At the
// fixpoint the function is annotated with mesh.shard ops.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "ShardingPropagation.h"

#include "AddressOrderInfo.h"
#include "Interner.h"
#include "ShardingAnnotations.h"
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PointerIntPair.h"

#include <deque>

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHSHARDINGPROPAGATION
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// Asks the cache for the memory of `op` that visiting it reads: its
/// results (stored before it), its fields and its first operands. The passes
/// read the ops of a large function from memory, not from the caches; the
/// sweeps over arrays of ops ask a few ops ahead, which hides that latency.
inline void prefetchOp(const Operation *op) {
#if defined(__GNUC__)
  const char *base = reinterpret_cast<const char *>(op);
  __builtin_prefetch(base - 64);
  __builtin_prefetch(base);
  __builtin_prefetch(base + 64);
  __builtin_prefetch(base + 128);
#else
  (void)op;
#endif
}

/// How many ops ahead a sweep prefetches.
constexpr size_t kPrefetchDistance = 8;

/// Which side of an op a propagation phase may update.
enum class Direction { Forward, Backward };

size_t hashSplitAxes(const SplitAxes &axes) {
  llvm::hash_code hash = llvm::hash_value(axes.size());
  for (const DimSplitAxes &dim : axes)
    hash = llvm::hash_combine(hash, llvm::hash_combine_range(dim));
  return hash;
}

/// What propagation needs of an op's sharding model, queried once per op
/// (linalg ops rebuild their indexing maps on every query).
struct LoopModel {
  SmallVector<AffineMap> maps;
  SmallVector<utils::IteratorType> iterators;
  SmallVector<bool> splittable;

  bool operator==(const LoopModel &rhs) const {
    return maps == rhs.maps && iterators == rhs.iterators &&
           splittable == rhs.splittable;
  }
};

size_t hashLoopSharding(const LoopSharding &loops) {
  return hashSplitAxes(loops.loopAxes);
}

size_t hashLoopModel(const LoopModel &model) {
  return llvm::hash_combine(llvm::hash_combine_range(model.maps),
                            llvm::hash_combine_range(model.iterators),
                            llvm::hash_combine_range(model.splittable));
}

/// A sharding as propagation sees it: a mesh and the split axes of each
/// dimension.
struct Known {
  FlatSymbolRefAttr mesh;
  const SplitAxes *axes; // interned

  bool operator==(const Known &rhs) const {
    return mesh == rhs.mesh && axes == rhs.axes;
  }
};

size_t hashKnown(const Known &known) {
  return llvm::hash_combine(known.mesh.getAsOpaquePointer(), known.axes);
}

/// What propagation knows of one tensor value: nothing yet, or an interned
/// Known. User annotations are fixed. One word per value: past the caches,
/// the cost of propagation grows with the size of its tables.
class ValueInfo {
public:
  ValueInfo() = default;
  ValueInfo(const Known *known, bool fixed) : data(known, fixed) {}

  FlatSymbolRefAttr getMesh() const {
    return data.getPointer() ? data.getPointer()->mesh : FlatSymbolRefAttr();
  }
  /// Null while nothing is known.
  const SplitAxes *getSplitAxes() const {
    return data.getPointer() ? data.getPointer()->axes : nullptr;
  }
  ArrayRef<DimSplitAxes> getAxes() const {
    const SplitAxes *axes = getSplitAxes();
    return axes ? ArrayRef<DimSplitAxes>(*axes) : ArrayRef<DimSplitAxes>();
  }
  bool isFixed() const { return data.getInt(); }

private:
  llvm::PointerIntPair<const Known *, 1, bool> data;
};

class Propagation {
public:
  Propagation(FunctionOpInterface func) : func(func) {}

  /// Records the shardings of the user's mesh.shard annotations.
  LogicalResult absorbAnnotations();
  /// Runs one phase to its fixpoint.
  void run(Direction direction);
  /// Writes the result as mesh.shard annotations. Returns the number of
  /// annotations added and of ops replicated for lack of a model.
  std::pair<unsigned, unsigned> materialize();

private:
  /// Per op: its model, once queried, and whether it is in the worklist.
  /// One entry per op, all made up front, so that pointers to them stay.
  /// One word, like ValueInfo.
  class OpState {
  public:
    bool isModelKnown() const { return data.getInt() & ModelKnown; }
    const LoopModel *getModel() const { return data.getPointer(); }
    void setModel(const LoopModel *model) {
      data.setPointerAndInt(model, data.getInt() | ModelKnown);
    }
    bool isQueued() const { return data.getInt() & Queued; }
    void setQueued(bool queued) {
      data.setInt(queued ? data.getInt() | Queued : data.getInt() & ~Queued);
    }

  private:
    enum : unsigned { ModelKnown = 1, Queued = 2 };
    llvm::PointerIntPair<const LoopModel *, 2, unsigned> data;
  };
  void push(Operation *op) {
    auto it = states.find(op);
    if (it != states.end())
      push(op, it->second);
  }
  void push(Operation *op, OpState &state) {
    if (state.isQueued())
      return;
    state.setQueued(true);
    worklist.emplace_back(op, &state);
  }
  void changed(Value value) {
    if (Operation *def = value.getDefiningOp())
      push(def);
    else if (Operation *parent = value.getParentBlock()->getParentOp();
             parent && isa<scf::ForOp>(parent))
      push(parent); // A loop-carried block argument.
    for (Operation *user : value.getUsers())
      push(isa<scf::YieldOp>(user) ? user->getParentOp() : user);
  }
  void visit(Operation *op, OpState &state, Direction direction);
  /// Makes the values that carry one loop- or branch-carried value agree:
  /// each grows towards the first known one (fixed ones first).
  void unify(ArrayRef<Value> values);
  /// Grows what is known of `value` towards `axes` on `mesh`.
  void extend(Value value, FlatSymbolRefAttr mesh,
              ArrayRef<DimSplitAxes> axes);
  /// The model of `op`, or null if it has none that covers its operands and
  /// results.
  const LoopModel *modelOf(Operation *op, OpState &state);
  /// The loop sharding of `op` from what is known of its tensors, and the
  /// mesh they share (null if none is known).
  std::pair<LoopSharding, FlatSymbolRefAttr>
  deriveForOp(Operation *op, const LoopModel &model);

  FunctionOpInterface func;
  DenseMap<Value, ValueInfo, ValueAddressInfo> info;
  DenseMap<Operation *, OpState, OpAddressInfo> states;
  /// Collects the ops nested in `parent`, except those in the regions of ops
  /// with a sharding model: those regions compute on elements, not tensors
  /// (in linalg code, half of all ops).
  void collect(Operation *parent);
  /// The ops of the function, in program order (pre-order), collected once:
  /// the passes then sweep arrays, not the IR's linked lists.
  SmallVector<std::pair<Operation *, OpState *>> order;
  /// Indices into `order`, in post-order (nested ops before their parent).
  SmallVector<unsigned> postOrder;
  SmallVector<ShardOp> shardOps;
  size_t numResults = 0;
  /// In post-order.
  SmallVector<scf::ForOp> forOps;
  Interner<SplitAxes, hashSplitAxes> splitAxesPool;
  Interner<Known, hashKnown> knownPool;
  const Known *intern(FlatSymbolRefAttr mesh, SplitAxes axes) {
    return knownPool.intern({mesh, splitAxesPool.intern(std::move(axes))});
  }
  Interner<LoopModel, hashLoopModel> modelPool;
  Interner<LoopSharding, hashLoopSharding> loopShardings;
  std::deque<std::pair<Operation *, OpState *>> worklist;
};

void Propagation::collect(Operation *parent) {
  for (Region &region : parent->getRegions())
    for (Block &block : region)
      for (Operation &op : block) {
        unsigned index = order.size();
        order.emplace_back(&op, nullptr);
        numResults += op.getNumResults();
        if (auto shard = dyn_cast<ShardOp>(op))
          shardOps.push_back(shard);
        if (!isa<ShardingInterface>(op))
          collect(&op);
        if (auto loop = dyn_cast<scf::ForOp>(op))
          forOps.push_back(loop);
        postOrder.push_back(index);
      }
}

LogicalResult Propagation::absorbAnnotations() {
  collect(func);
  states.reserve(order.size());
  for (auto &[op, state] : order)
    state = &states[op];
  // Every value gets an entry, most of them in the first phase: growing the
  // table meanwhile would rehash it several times.
  info.reserve(func.getNumArguments() + numResults);
  // Annotations repeat a few shardings: each distinct (mesh, split_axes)
  // pair is read once.
  DenseMap<std::pair<Attribute, Attribute>, const Known *> knownByAttrs;
  for (ShardOp shard : shardOps) {
    auto shardingOp = shard.getSharding().getDefiningOp<ShardingOp>();
    std::pair<Attribute, Attribute> key;
    if (shardingOp)
      key = {shardingOp.getProperties().mesh,
             shardingOp.getProperties().split_axes};
    const Known *&known = knownByAttrs[key];
    if (!known) {
      MeshSharding sharding = MeshSharding::get(shardingOp);
      if (!sharding)
        return shard.emitOpError("unsupported by mesh-sharding-propagation: "
                                 "the sharding must be defined by a "
                                 "mesh.sharding op");
      SplitAxes axes;
      for (ArrayRef<MeshAxis> dim : sharding.getSplitAxes())
        axes.push_back(DimSplitAxes(dim));
      known = intern(sharding.getMeshAttr(), std::move(axes));
    }
    ValueInfo fixed(known, /*fixed=*/true);
    info[shard.getResult()] = fixed;
    // A result annotation fixes the sharding of the annotated value itself.
    if (!shard.getAnnotateForUsers())
      info.try_emplace(shard.getSrc(), fixed);
  }
  return success();
}

void Propagation::extend(Value value, FlatSymbolRefAttr mesh,
                         ArrayRef<DimSplitAxes> axes) {
  if (!isa<RankedTensorType>(value.getType()) || !mesh)
    return;
  ValueInfo &current = info[value];
  if (current.isFixed() || (current.getMesh() && current.getMesh() != mesh))
    return;
  // A dimension can grow if `axes` lists more axes there, starting with the
  // ones it has. Most visits change nothing: check before copying.
  ArrayRef<DimSplitAxes> known = current.getAxes();
  auto canGrow = [&](ArrayRef<MeshAxis> have, unsigned dim) {
    ArrayRef<MeshAxis> wanted = axes[dim];
    return wanted.size() > have.size() &&
           wanted.take_front(have.size()) == have;
  };
  if (llvm::none_of(llvm::seq<unsigned>(0, axes.size()), [&](unsigned dim) {
        return canGrow(dim < known.size() ? ArrayRef<MeshAxis>(known[dim])
                                          : ArrayRef<MeshAxis>(),
                       dim);
      }))
    return;
  SplitAxes grown(known.begin(), known.end());
  auto usesAxis = [&](MeshAxis axis) {
    return llvm::any_of(grown, [&](const DimSplitAxes &dim) {
      return llvm::is_contained(dim, axis);
    });
  };
  bool grew = false;
  for (auto [dim, wanted] : llvm::enumerate(axes)) {
    if (grown.size() <= dim)
      grown.resize(dim + 1);
    if (!canGrow(grown[dim], dim))
      continue;
    for (MeshAxis axis : ArrayRef(wanted).drop_front(grown[dim].size())) {
      if (usesAxis(axis))
        break;
      grown[dim].push_back(axis);
      grew = true;
    }
  }
  if (!grew)
    return;
  while (!grown.empty() && grown.back().empty())
    grown.pop_back();
  current = ValueInfo(intern(mesh, std::move(grown)), /*fixed=*/false);
  changed(value);
}

const LoopModel *Propagation::modelOf(Operation *op, OpState &state) {
  if (state.isModelKnown())
    return state.getModel();
  const LoopModel *model = nullptr;
  if (auto sharded = dyn_cast<ShardingInterface>(op)) {
    LoopModel candidate{sharded.getIndexingMaps(),
                        sharded.getLoopIteratorTypes(), {}};
    if (candidate.maps.size() == op->getNumOperands() + op->getNumResults()) {
      candidate.splittable = getSplittableLoops(sharded);
      model = modelPool.intern(std::move(candidate));
    }
  }
  state.setModel(model);
  return model;
}

std::pair<LoopSharding, FlatSymbolRefAttr>
Propagation::deriveForOp(Operation *operation, const LoopModel &model) {
  SmallVector<Value> tensors(operation->getOperands());
  llvm::append_range(tensors, operation->getResults());

  FlatSymbolRefAttr mesh;
  SmallVector<const SplitAxes *> axes(tensors.size(), nullptr);
  SmallVector<unsigned> fixedFirst, others;
  for (auto [i, value] : llvm::enumerate(tensors)) {
    // Only tensors have entries; a lookup that misses costs most.
    if (!isa<RankedTensorType>(value.getType()))
      continue;
    auto it = info.find(value);
    if (it == info.end() || !it->second.getMesh())
      continue;
    if (!mesh)
      mesh = it->second.getMesh();
    if (it->second.getMesh() != mesh)
      continue; // Tensors on another mesh say nothing about this one.
    axes[i] = it->second.getSplitAxes();
    (it->second.isFixed() ? fixedFirst : others).push_back(i);
  }
  llvm::append_range(fixedFirst, others);
  LoopSharding loops = deriveLoopSharding(model.iterators.size(), model.maps,
                                          axes, fixedFirst, model.splittable);
  return {std::move(loops), mesh};
}

void Propagation::unify(ArrayRef<Value> values) {
  const ValueInfo *known = nullptr;
  for (Value value : values) {
    auto it = info.find(value);
    if (it == info.end() || !it->second.getMesh())
      continue;
    if (!known || (it->second.isFixed() && !known->isFixed()))
      known = &it->second;
  }
  if (!known)
    return;
  ValueInfo copy = *known; // `extend` may grow the map.
  for (Value value : values)
    extend(value, copy.getMesh(), copy.getAxes());
}

void Propagation::visit(Operation *op, OpState &state, Direction direction) {
  // Region forwarding: a loop's init, block argument, yielded value and
  // result are one value over time; an if's results are its yields.
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (unsigned i = 0, e = loop.getNumResults(); i < e; ++i)
      unify({loop.getInitArgs()[i], loop.getRegionIterArgs()[i],
             yield.getOperand(i), loop.getResult(i)});
    return;
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    for (unsigned i = 0, e = branch.getNumResults(); i < e; ++i) {
      SmallVector<Value> values{branch.getResult(i),
                                branch.thenYield().getOperand(i)};
      if (!branch.getElseRegion().empty())
        values.push_back(branch.elseYield().getOperand(i));
      unify(values);
    }
    return;
  }
  if (auto shard = dyn_cast<ShardOp>(op)) {
    // An annotation passes its sharding through unchanged.
    Value from = direction == Direction::Forward ? shard.getSrc()
                                                 : shard.getResult();
    Value to = direction == Direction::Forward ? shard.getResult()
                                               : shard.getSrc();
    auto it = info.find(from);
    if (it != info.end() && it->second.getMesh()) {
      ValueInfo known = it->second;
      extend(to, known.getMesh(), known.getAxes());
    }
    return;
  }
  const LoopModel *model = modelOf(op, state);
  if (!model)
    return; // No model: the op stays replicated.
  ArrayRef<AffineMap> maps = model->maps;
  auto [loops, mesh] = deriveForOp(op, *model);
  if (!mesh)
    return;
  unsigned first = direction == Direction::Forward ? op->getNumOperands() : 0;
  unsigned last = direction == Direction::Forward
                      ? maps.size()
                      : op->getNumOperands();
  for (unsigned i = first; i < last; ++i) {
    Value value = i < op->getNumOperands()
                      ? op->getOperand(i)
                      : op->getResult(i - op->getNumOperands());
    extend(value, mesh, loops.project(maps[i]));
  }
}

void Propagation::run(Direction direction) {
  // Every op once in program order, so that the result does not depend on
  // hashing, then the ones whose tensors changed after their visit. All are
  // queued for the first sweep: pushing an op it has yet to visit does
  // nothing.
  worklist.clear();
  for (auto [op, state] : order)
    state->setQueued(true);
  bool reverse = direction == Direction::Backward;
  for (size_t i = 0, e = order.size(); i < e; ++i) {
    if (i + kPrefetchDistance < e)
      prefetchOp(order[reverse ? e - 1 - i - kPrefetchDistance
                               : i + kPrefetchDistance]
                     .first);
    auto [op, state] = order[reverse ? e - 1 - i : i];
    state->setQueued(false);
    visit(op, *state, direction);
  }
  while (!worklist.empty()) {
    auto [op, state] = worklist.front();
    worklist.pop_front();
    state->setQueued(false);
    visit(op, *state, direction);
  }
}

std::pair<unsigned, unsigned> Propagation::materialize() {
  AnnotationBuilder annotations(func);
  unsigned replicatedOps = 0;

  // Result annotations say what each value is, as its definer produces it.
  auto annotateValue = [&](Value value, const MeshSharding &sharding) {
    if (isa<RankedTensorType>(value.getType()) && sharding &&
        !hasResultAnnotation(value))
      annotations.annotateResult(value, sharding);
  };
  for (BlockArgument arg : func.getArguments()) {
    auto it = info.find(arg);
    if (it != info.end() && it->second.getMesh())
      annotateValue(arg,
                    MeshSharding(it->second.getMesh(), it->second.getAxes()));
  }

  // Region forwarding: the loop-carried or branch-carried value has the
  // sharding propagation gave the op's result; its other places are read so.
  auto annotateCarried = [&](Operation *op) {
    auto yieldOf = [](Region &region) {
      return cast<scf::YieldOp>(region.front().getTerminator());
    };
    for (OpResult result : op->getResults()) {
      auto it = info.find(result);
      if (it == info.end() || !it->second.getMesh())
        continue;
      MeshSharding sharding(it->second.getMesh(), it->second.getAxes());
      unsigned i = result.getResultNumber();
      SmallVector<OpOperand *> readers;
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        readers.push_back(&loop.getInitArgsMutable()[i]);
        readers.push_back(&yieldOf(loop.getRegion())->getOpOperand(i));
      } else {
        for (Region &region : op->getRegions())
          if (!region.empty())
            readers.push_back(&yieldOf(region)->getOpOperand(i));
      }
      annotateValue(result, sharding);
      for (OpOperand *reader : readers)
        annotations.requireOperand(*reader, sharding);
    }
  };

  // Decide everything before the IR changes: annotations replace operands
  // with values propagation knows nothing about.
  struct Decision {
    Operation *op;
    const LoopModel *model; // null: no model, run on whole tensors
    const LoopSharding *loops; // interned: ops share a few
    FlatSymbolRefAttr mesh;
  };
  SmallVector<Decision> decisions;
  for (size_t i = 0, e = postOrder.size(); i < e; ++i) {
    if (i + kPrefetchDistance < e)
      prefetchOp(order[postOrder[i + kPrefetchDistance]].first);
    auto [op, state] = order[postOrder[i]];
    if (isa<ShardOp, ShardingOp>(op))
      continue;
    Decision decision{op, modelOf(op, *state), nullptr, {}};
    if (decision.model) {
      auto [loops, mesh] = deriveForOp(op, *decision.model);
      decision.loops = loopShardings.intern(std::move(loops));
      decision.mesh = mesh;
    } else if (op->hasTrait<OpTrait::IsTerminator>()) {
      continue;
    }
    decisions.push_back(std::move(decision));
  }

  // Loop-carried block arguments first, like function arguments: the ops
  // of the body then see them annotated.
  for (scf::ForOp loop : forOps) {
    for (auto [arg, result] :
         llvm::zip(loop.getRegionIterArgs(), loop.getResults())) {
      auto it = info.find(result);
      if (it != info.end() && it->second.getMesh())
        annotateValue(arg, MeshSharding(it->second.getMesh(),
                                        it->second.getAxes()));
    }
  }

  for (Decision &decision : decisions) {
    Operation *op = decision.op;
    if (isa<scf::ForOp, scf::IfOp>(op)) {
      annotateCarried(op);
      continue;
    }
    if (!decision.model) {
      // No model: the op computes on whole tensors.
      bool any = false;
      for (OpOperand &operand : op->getOpOperands()) {
        MeshSharding current = getAnnotatedSharding(operand.get());
        if (current)
          any |= annotations.requireOperand(
              operand, MeshSharding(current.getMeshAttr(), {}));
      }
      replicatedOps += any;
      continue;
    }
    FlatSymbolRefAttr mesh = decision.mesh;
    if (!mesh)
      continue;
    const LoopSharding &loops = *decision.loops;
    ArrayRef<AffineMap> maps = decision.model->maps;
    // Results: what the op produces, partial over its split reductions.
    ArrayRef<utils::IteratorType> iterators = decision.model->iterators;
    DimSplitAxes partialAxes = loops.reductionAxes(iterators);
    ReductionKind partialType = getPartialReductionKind(
        ShardingInterface(decision.op), loops, iterators);
    for (OpResult result : op->getResults()) {
      AffineMap map = maps[op->getNumOperands() + result.getResultNumber()];
      annotateValue(result, MeshSharding(mesh, loops.project(map), partialAxes,
                                         partialType));
    }
    // Operands: what the op needs, where it differs from what the value is.
    for (OpOperand &operand : op->getOpOperands())
      annotations.requireOperand(
          operand,
          MeshSharding(mesh, loops.project(maps[operand.getOperandNumber()])));
  }
  return {annotations.count(), replicatedOps};
}

} // namespace

FailureOr<PropagationCounts>
mlir::mesh::propagateShardings(FunctionOpInterface func,
                               TraversalOrder traversal) {
  if (func.isExternal())
    return PropagationCounts();
  Propagation propagation(func);
  if (failed(propagation.absorbAnnotations()))
    return failure();
  switch (traversal) {
  case TraversalOrder::Forward:
    propagation.run(Direction::Forward);
    break;
  case TraversalOrder::Backward:
    propagation.run(Direction::Backward);
    break;
  case TraversalOrder::ForwardBackward:
    propagation.run(Direction::Forward);
    propagation.run(Direction::Backward);
    break;
  case TraversalOrder::BackwardForward:
    propagation.run(Direction::Backward);
    propagation.run(Direction::Forward);
    break;
  }
  auto [added, replicated] = propagation.materialize();
  return PropagationCounts{added, replicated};
}

namespace {
struct MeshShardingPropagationPass
    : mesh::impl::MeshShardingPropagationBase<MeshShardingPropagationPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<PropagationCounts> counts =
        propagateShardings(getOperation(), traversal);
    if (failed(counts))
      return signalPassFailure();
    numAnnotations += counts->annotations;
    numReplicatedOps += counts->replicatedOps;
  }
};
} // namespace
