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

#include <deque>

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHSHARDINGPROPAGATION
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;
using namespace mlir::mesh;

namespace {

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

/// What propagation knows of one tensor value: a mesh (null while nothing is
/// known) and the split axes of each dimension (interned; set with the
/// mesh). User annotations are fixed.
struct ValueInfo {
  FlatSymbolRefAttr mesh;
  const SplitAxes *axes = nullptr;
  bool fixed = false;

  ArrayRef<DimSplitAxes> getAxes() const {
    return axes ? ArrayRef<DimSplitAxes>(*axes) : ArrayRef<DimSplitAxes>();
  }
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
  struct OpState {
    const LoopModel *model = nullptr;
    bool modelKnown = false;
    bool queued = false;
  };
  void push(Operation *op) {
    auto it = states.find(op);
    if (it != states.end())
      push(op, it->second);
  }
  void push(Operation *op, OpState &state) {
    if (state.queued)
      return;
    state.queued = true;
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
  const LoopModel *modelOf(Operation *op) { return modelOf(op, states[op]); }
  /// The loop sharding of `op` from what is known of its tensors, and the
  /// mesh they share (null if none is known).
  std::pair<LoopSharding, FlatSymbolRefAttr>
  deriveForOp(Operation *op, const LoopModel &model);

  FunctionOpInterface func;
  DenseMap<Value, ValueInfo, ValueAddressInfo> info;
  DenseMap<Operation *, OpState, OpAddressInfo> states;
  /// The ops of the function, in program order (pre-order).
  SmallVector<std::pair<Operation *, OpState *>> order;
  Interner<SplitAxes, hashSplitAxes> splitAxesPool;
  Interner<LoopModel, hashLoopModel> modelPool;
  Interner<LoopSharding, hashLoopSharding> loopShardings;
  std::deque<std::pair<Operation *, OpState *>> worklist;
};

LogicalResult Propagation::absorbAnnotations() {
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != func.getOperation())
      order.emplace_back(op, nullptr);
  });
  states.reserve(order.size());
  for (auto &[op, state] : order)
    state = &states[op];
  WalkResult result = func.walk([&](ShardOp shard) {
    MeshSharding sharding = MeshSharding::get(shard.getSharding());
    if (!sharding) {
      shard.emitOpError("unsupported by mesh-sharding-propagation: the "
                        "sharding must be defined by a mesh.sharding op");
      return WalkResult::interrupt();
    }
    SplitAxes axes;
    for (ArrayRef<MeshAxis> dim : sharding.getSplitAxes())
      axes.push_back(DimSplitAxes(dim));
    ValueInfo fixed{sharding.getMeshAttr(),
                    splitAxesPool.intern(std::move(axes)), /*fixed=*/true};
    info[shard.getResult()] = fixed;
    // A result annotation fixes the sharding of the annotated value itself.
    if (!shard.getAnnotateForUsers())
      info.try_emplace(shard.getSrc(), fixed);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void Propagation::extend(Value value, FlatSymbolRefAttr mesh,
                         ArrayRef<DimSplitAxes> axes) {
  if (!isa<RankedTensorType>(value.getType()) || !mesh)
    return;
  ValueInfo &current = info[value];
  if (current.fixed || (current.mesh && current.mesh != mesh))
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
  current.axes = splitAxesPool.intern(std::move(grown));
  current.mesh = mesh;
  changed(value);
}

const LoopModel *Propagation::modelOf(Operation *op, OpState &state) {
  if (state.modelKnown)
    return state.model;
  const LoopModel *model = nullptr;
  if (auto sharded = dyn_cast<ShardingInterface>(op)) {
    LoopModel candidate{sharded.getIndexingMaps(),
                        sharded.getLoopIteratorTypes(), {}};
    if (candidate.maps.size() == op->getNumOperands() + op->getNumResults()) {
      candidate.splittable = getSplittableLoops(sharded);
      model = modelPool.intern(std::move(candidate));
    }
  }
  state.model = model;
  state.modelKnown = true;
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
    auto it = info.find(value);
    if (it == info.end() || !it->second.mesh)
      continue;
    if (!mesh)
      mesh = it->second.mesh;
    if (it->second.mesh != mesh)
      continue; // Tensors on another mesh say nothing about this one.
    axes[i] = it->second.axes;
    (it->second.fixed ? fixedFirst : others).push_back(i);
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
    if (it == info.end() || !it->second.mesh)
      continue;
    if (!known || (it->second.fixed && !known->fixed))
      known = &it->second;
  }
  if (!known)
    return;
  ValueInfo copy = *known; // `extend` may grow the map.
  for (Value value : values)
    extend(value, copy.mesh, copy.getAxes());
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
    if (it != info.end() && it->second.mesh) {
      ValueInfo known = it->second;
      extend(to, known.mesh, known.getAxes());
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
  // Program order first, so that the result does not depend on hashing.
  worklist.clear();
  for (auto [op, state] : order)
    push(op, *state);
  while (!worklist.empty()) {
    auto [op, state] = worklist.front();
    worklist.pop_front();
    state->queued = false;
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
    if (it != info.end() && it->second.mesh)
      annotateValue(arg, MeshSharding(it->second.mesh, it->second.getAxes()));
  }

  // Region forwarding: the loop-carried or branch-carried value has the
  // sharding propagation gave the op's result; its other places are read so.
  auto annotateCarried = [&](Operation *op) {
    auto yieldOf = [](Region &region) {
      return cast<scf::YieldOp>(region.front().getTerminator());
    };
    for (OpResult result : op->getResults()) {
      auto it = info.find(result);
      if (it == info.end() || !it->second.mesh)
        continue;
      MeshSharding sharding(it->second.mesh, it->second.getAxes());
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
  func.walk([&](Operation *op) {
    if (op == func.getOperation() || isa<ShardOp, ShardingOp>(op))
      return;
    Decision decision{op, modelOf(op), nullptr, {}};
    if (decision.model) {
      auto [loops, mesh] = deriveForOp(op, *decision.model);
      decision.loops = loopShardings.intern(std::move(loops));
      decision.mesh = mesh;
    }
    else if (op->hasTrait<OpTrait::IsTerminator>())
      return;
    decisions.push_back(std::move(decision));
  });

  // Loop-carried block arguments first, like function arguments: the ops
  // of the body then see them annotated.
  func.walk([&](scf::ForOp loop) {
    for (auto [arg, result] :
         llvm::zip(loop.getRegionIterArgs(), loop.getResults())) {
      auto it = info.find(result);
      if (it != info.end() && it->second.mesh)
        annotateValue(arg, MeshSharding(it->second.mesh, it->second.getAxes()));
    }
  });

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
