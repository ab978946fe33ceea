//===- ShardingPropagation.cpp - mesh-sharding-propagation ----------------===//
//
// A worklist over ops. What is known of each tensor value is a mesh and the
// split axes of each dimension (`ValueInfo`); user annotations are fixed,
// everything else only grows. Visiting an op derives the sharding of its loops
// from its tensors and extends the tensors of the side the current phase may
// update; a value that changes re-queues its defining op and its users. At the
// fixpoint the function is annotated with mesh.shard ops.
//
// Ops and tensor values are numbered once, up front; the phases then work on
// arrays indexed by these numbers, which keeps the cost per op flat when a
// function outgrows the caches.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "ShardingPropagation.h"

#include "AddressOrderInfo.h"
#include "CarriedValues.h"
#include "Interner.h"
#include "LoopStructures.h"
#include "Prefetch.h"
#include "meshsdy/Dialect/Mesh/Transforms/ShardingAnnotations.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "meshsdy/Dialect/Mesh/IR/ShardNormalization.h"
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/PointerIntPair.h"

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

/// Whether `op` forwards values through its regions (a loop's carried
/// values, a branch's yields) rather than computing them.
bool carriesValues(Operation *op) {
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return carriesResults(loop);
  return isa<scf::ForOp, scf::IfOp, scf::IndexSwitchOp>(op);
}

size_t hashSplitAxes(const SplitAxes &axes) {
  llvm::hash_code hash = llvm::hash_value(axes.size());
  for (const DimSplitAxes &dim : axes)
    hash = llvm::hash_combine(hash, llvm::hash_combine_range(dim));
  return hash;
}

/// What propagation needs of an op's sharding model, queried once per op:
/// its loop structure and which of its loops may be split.
struct LoopModel : LoopStructure {
  SmallVector<bool> splittable;

  bool operator==(const LoopModel &rhs) const {
    return maps == rhs.maps && iterators == rhs.iterators &&
           splittable == rhs.splittable;
  }
};

size_t hashLoopSharding(const LoopSharding &loops) {
  return llvm::hash_combine(hashSplitAxes(loops.loopAxes),
                            llvm::hash_combine_range(loops.loopExtents));
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
  SplitAxes axes;

  bool operator==(const Known &rhs) const {
    return mesh == rhs.mesh && axes == rhs.axes;
  }
};

size_t hashKnown(const Known &known) {
  return llvm::hash_combine(known.mesh.getAsOpaquePointer(),
                            hashSplitAxes(known.axes));
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
    return data.getPointer() ? &data.getPointer()->axes : nullptr;
  }
  ArrayRef<DimSplitAxes> getAxes() const {
    const SplitAxes *axes = getSplitAxes();
    return axes ? ArrayRef<DimSplitAxes>(*axes) : ArrayRef<DimSplitAxes>();
  }
  bool isFixed() const { return data.getInt(); }

private:
  llvm::PointerIntPair<const Known *, 1, bool> data;
};

/// Annotates what a tensor `value` is, as its definer produces it, unless
/// it already is annotated or `sharding` is null.
void annotateValue(AnnotationBuilder &annotations, Value value,
                   const MeshSharding &sharding) {
  if (isa<RankedTensorType>(value.getType()) && sharding &&
      !hasResultAnnotation(value))
    annotations.annotateResult(value, sharding);
}

class Propagation {
public:
  Propagation(FunctionOpInterface func, bool recordOrigins)
      : func(func), recordOrigins(recordOrigins) {}

  /// Records the shardings of the user's mesh.shard annotations.
  LogicalResult absorbAnnotations();
  /// Runs one phase to its fixpoint.
  void run(Direction direction);
  /// Op visits after the first of each phase, over all phases run.
  unsigned getRevisits() const { return revisits; }
  /// Writes the result as mesh.shard annotations. Returns the number of
  /// annotations added and of ops replicated for lack of a model.
  std::pair<unsigned, unsigned> materialize();
  /// With recordOrigins: gives the annotations materialize added a
  /// location naming where their sharding came from.
  void locateOrigins();

private:
  /// What materialize decides for one op before the IR changes, from the
  /// phases' fixpoint.
  struct Decision {
    Operation *op;
    const LoopModel *model;    // null: no model, run on whole tensors
    const LoopSharding *loops; // interned: ops share a few
    FlatSymbolRefAttr mesh;
  };
  // The steps of materialize: decide every op in post-order, then annotate
  // each decided op by its kind.
  SmallVector<Decision> decide();
  /// Records the results of the decided op at `index` that the phases left
  /// unknown, as the op produces them.
  void completeResults(unsigned index, const Decision &decision);
  /// Annotates one decided op. Returns whether it was replicated for lack of
  /// a model.
  bool annotateDecided(const Decision &decision,
                       AnnotationBuilder &annotations);
  /// An scf.for or scf.if: the values its regions carry.
  void annotateCarried(Operation *op, AnnotationBuilder &annotations);
  /// An op without a model: its operands, whole. Returns whether it needed
  /// any.
  bool replicate(Operation *op, AnnotationBuilder &annotations);
  /// An op with a model on a mesh: its results as it produces them, its
  /// operands as it needs them.
  void annotateModeled(const Decision &decision,
                       AnnotationBuilder &annotations);
  /// What propagation knows of `value` as a sharding (null if nothing).
  MeshSharding knownSharding(Value value);

  /// Per op: its model, once queried, and whether it is in the worklist.
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
  void push(unsigned index) {
    OpState &state = ops[index].state;
    // Not the op being visited (`visiting` is kNoOp for the ops this does
    // not hold for): a second visit would derive the same loop sharding from
    // what this one wrote, since every tensor the visit changes grows towards
    // what the op's other tensors say.
    if (state.isQueued() || index == visiting)
      return;
    state.setQueued(true);
    worklist.push_back(index);
  }
  /// Queues the ops that read or define the value numbered `number`.
  void changed(unsigned number) {
    if (definers[number] != kNoOp)
      push(definers[number]);
    for (unsigned user : ArrayRef(readers).slice(
             firstReader[number],
             firstReader[number + 1] - firstReader[number]))
      push(user);
  }
  void visit(unsigned index, Direction direction);
  /// Makes the values that carry one loop- or branch-carried value agree:
  /// each grows towards the first known one (fixed ones first).
  void unify(ArrayRef<Value> values);
  /// Grows what is known of a value (`current`) towards `axes` on `mesh`.
  void extend(ValueInfo &current, FlatSymbolRefAttr mesh,
              ArrayRef<DimSplitAxes> axes);
  void extend(Value value, FlatSymbolRefAttr mesh,
              ArrayRef<DimSplitAxes> axes) {
    if (ValueInfo *current = lookup(value))
      extend(*current, mesh, axes);
  }
  /// The model of `op`, or null if it has none that covers its operands and
  /// results.
  const LoopModel *modelOf(Operation *op, OpState &state);
  /// The loop sharding of the op at `index` from what is known of its
  /// tensors, and the mesh they share (null if none is known).
  std::pair<LoopSharding, FlatSymbolRefAttr>
  deriveForOp(unsigned index, const LoopModel &model);

  FunctionOpInterface func;
  /// Static axis sizes of the meshes used (empty: dynamic or unknown).
  DenseMap<Attribute, SmallVector<int64_t>> meshShapes;
  ArrayRef<int64_t> meshShape(FlatSymbolRefAttr mesh);

  /// Provenance (debug-sharding-origins), kept only when asked for: per
  /// value number, the value it last grew from and the op that carried it
  /// (kNoValue / kNoOp for user annotations and unknown values), and the
  /// user annotation of each fixed value.
  bool recordOrigins;
  SmallVector<unsigned> originValue, originOp;
  DenseMap<unsigned, ShardOp> annotationOf;
  /// What the visit in progress propagates from, for `extend`.
  struct Source {
    unsigned value, op;
  } source = {~0u, ~0u};
  /// The first known tensor of the op at `index`, fixed ones first.
  unsigned sourceOf(unsigned index);

  /// Lists the ops nested in `parent`, except those in the regions of ops
  /// with a model: those regions compute on elements, not tensors (in linalg
  /// code, half of all ops).
  void collect(Operation *parent, unsigned parentIndex);
  /// Reads ahead of `collect`, the one walk along the IR's op lists.
  StreamPrefetcher stream;
  /// Numbers the ops' tensor values and fills `slots`, `definers` and
  /// `readers`.
  void numberValues();
  size_t numValues = 0, numSlots = 0;
  /// The number of tensor value `value`, given one if it has none (then
  /// defined by the op at `definer`).
  unsigned number(Value value, unsigned definer);

  /// Per op, in program order (pre-order). The phases sweep this array, not
  /// the IR's linked lists, and reach an op's tensors through `slots`, not
  /// through hash lookups: past the caches, each lookup costs a miss.
  struct OpEntry {
    Operation *op;
    OpState state;
    unsigned firstSlot; // the op's operands, then its results, in `slots`
    unsigned parent;    // the index of the op it is nested in, or kNoOp
  };
  static constexpr unsigned kNoOp = ~0u;
  SmallVector<OpEntry> ops;
  /// Indices into `ops`, in post-order (nested ops before their parent).
  SmallVector<unsigned> postOrder;
  /// For each operand and result of each op: the number of its value in
  /// `values`, or kNoValue for a non-tensor.
  static constexpr unsigned kNoValue = ~0u;
  SmallVector<unsigned> slots;
  /// What is known of each tensor value, by number.
  SmallVector<ValueInfo> values;
  ValueInfo *slot(unsigned index, unsigned operandOrResult) {
    unsigned n = slots[ops[index].firstSlot + operandOrResult];
    return n == kNoValue ? nullptr : &values[n];
  }
  /// For what the op entries do not reach (region forwarding, annotations).
  ValueInfo *lookup(Value value) {
    auto it = valueNumbers.find(value);
    return it == valueNumbers.end() ? nullptr : &values[it->second];
  }
  DenseMap<Value, unsigned, ValueAddressInfo> valueNumbers;
  /// Per value number, the ops a change of the value queues, found once so
  /// that a change costs no lookup: `definers[v]` (the defining op, or the
  /// scf.for of a loop-carried block argument; kNoOp otherwise), and
  /// `readers[firstReader[v] .. firstReader[v + 1]]` (its users; for a
  /// yield, the op that yields).
  SmallVector<unsigned> definers;
  SmallVector<unsigned> firstReader;
  SmallVector<unsigned> readers;
  SmallVector<ShardOp> shardOps;
  /// In post-order.
  SmallVector<scf::ForOp> forOps;
  SmallVector<scf::WhileOp> whileOps;
  Interner<Known, hashKnown> knownPool;
  const Known *intern(FlatSymbolRefAttr mesh, SplitAxes axes) {
    return knownPool.intern({mesh, std::move(axes)});
  }
  Interner<LoopModel, hashLoopModel> modelPool;
  LoopStructures loopStructures;
  Interner<LoopSharding, hashLoopSharding> loopShardings;
  std::deque<unsigned> worklist;
  /// The op `run` is visiting, if its visit reaches its own fixpoint.
  unsigned visiting = kNoOp;
  void startVisit(unsigned index) {
    // Region forwarding unifies one group of carried values after another:
    // a later group may change a value an earlier one read (the same init
    // twice, crossed yields), and the loop or branch must be visited again.
    visiting = carriesValues(ops[index].op) ? kNoOp : index;
  }
  unsigned revisits = 0;
};

unsigned Propagation::number(Value value, unsigned definer) {
  if (!isa<RankedTensorType>(value.getType()))
    return kNoValue;
  auto [it, inserted] = valueNumbers.try_emplace(value, values.size());
  if (inserted) {
    values.emplace_back();
    definers.push_back(definer);
  } else if (definer != kNoOp) {
    // Used before defined: a block placed before one that dominates it.
    definers[it->second] = definer;
  }
  return it->second;
}

void Propagation::collect(Operation *parent, unsigned parentIndex) {
  for (Region &region : parent->getRegions())
    for (Block &block : region) {
      numValues += block.getNumArguments();
      for (Operation &op : block) {
        stream.at(&op);
        unsigned index = ops.size();
        ops.push_back({&op, OpState(), 0, parentIndex});
        numValues += op.getNumResults();
        numSlots += op.getNumOperands() + op.getNumResults();
        if (auto shard = dyn_cast<ShardOp>(op))
          shardOps.push_back(shard);
        if (!isa<ShardingInterface>(op))
          collect(&op, index);
        if (auto loop = dyn_cast<scf::ForOp>(op))
          forOps.push_back(loop);
        if (auto loop = dyn_cast<scf::WhileOp>(op);
            loop && carriesResults(loop))
          whileOps.push_back(loop);
        postOrder.push_back(index);
      }
    }
}

void Propagation::numberValues() {
  // Sized up front: growing the table would rehash it several times.
  valueNumbers.reserve(numValues);
  values.reserve(numValues);
  definers.reserve(numValues);
  slots.reserve(numSlots);
  auto numberBlockArguments = [&](Operation *op, unsigned index) {
    // A loop-carried block argument changes with its loop.
    unsigned definer = isa<scf::ForOp, scf::WhileOp>(op) ? index : kNoOp;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          number(arg, definer);
  };
  numberBlockArguments(func, kNoOp);
  // (value, reader) for every tensor operand.
  SmallVector<std::pair<unsigned, unsigned>> reads;
  for (size_t i = 0, e = ops.size(); i < e; ++i) {
    if (i + kPrefetchDistance < e)
      prefetchOp(ops[i + kPrefetchDistance].op);
    Operation *op = ops[i].op;
    ops[i].firstSlot = slots.size();
    // A yielded value is read by the op that yields it.
    unsigned reader = isa<scf::YieldOp>(op) ? ops[i].parent : unsigned(i);
    for (Value operand : op->getOperands()) {
      unsigned n = number(operand, kNoOp);
      slots.push_back(n);
      if (n != kNoValue && reader != kNoOp)
        reads.emplace_back(n, reader);
    }
    for (Value result : op->getResults())
      slots.push_back(number(result, i));
    // Pre-order: the arguments of a region's blocks get their numbers
    // before the ops that use them. Skipped regions have no ops in `ops`.
    if (op->getNumRegions() && !isa<ShardingInterface>(op))
      numberBlockArguments(op, i);
  }
  // Readers grouped by value, each group latest reader first (the order of
  // a use list).
  firstReader.assign(values.size() + 1, 0);
  for (auto [value, reader] : reads)
    ++firstReader[value + 1];
  for (size_t v = 0; v < values.size(); ++v)
    firstReader[v + 1] += firstReader[v];
  readers.resize(reads.size());
  SmallVector<unsigned> end(firstReader.begin() + 1, firstReader.end());
  for (auto [value, reader] : reads)
    readers[--end[value]] = reader;
}

LogicalResult Propagation::absorbAnnotations() {
  collect(func, kNoOp);
  numberValues();
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
    ValueInfo *result = lookup(shard.getResult());
    ValueInfo *src = lookup(shard.getSrc());
    if (!result || !src)
      continue; // Not tensors: the verifier reports it.
    *result = fixed;
    if (recordOrigins)
      annotationOf[result - values.data()] = shard;
    // A result annotation fixes the sharding of the annotated value itself,
    // unless an earlier one did.
    if (!shard.getAnnotateForUsers() && !src->getMesh()) {
      *src = fixed;
      if (recordOrigins)
        annotationOf[src - values.data()] = shard;
    }
  }
  if (recordOrigins) {
    originValue.assign(values.size(), kNoValue);
    originOp.assign(values.size(), kNoOp);
  }
  return success();
}

unsigned Propagation::sourceOf(unsigned index) {
  Operation *op = ops[index].op;
  unsigned numTensors = op->getNumOperands() + op->getNumResults();
  unsigned firstKnown = kNoValue;
  for (unsigned i = 0; i < numTensors; ++i) {
    unsigned n = slots[ops[index].firstSlot + i];
    if (n == kNoValue || !values[n].getMesh())
      continue;
    if (values[n].isFixed())
      return n;
    if (firstKnown == kNoValue)
      firstKnown = n;
  }
  return firstKnown;
}

void Propagation::extend(ValueInfo &current, FlatSymbolRefAttr mesh,
                         ArrayRef<DimSplitAxes> axes) {
  if (!mesh)
    return;
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
  unsigned number = &current - values.data();
  if (recordOrigins && source.value != number) {
    originValue[number] = source.value;
    originOp[number] = source.op;
  }
  changed(number);
}

const LoopModel *Propagation::modelOf(Operation *op, OpState &state) {
  if (state.isModelKnown())
    return state.getModel();
  const LoopModel *model = nullptr;
  if (auto sharded = dyn_cast<ShardingInterface>(op)) {
    LoopModel candidate{loopStructures.get(sharded), {}};
    if (candidate.maps.size() == op->getNumOperands() + op->getNumResults()) {
      SmallVector<RankedTensorType, 4> types;
      for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                          op->getResultTypes()))
        types.push_back(dyn_cast<RankedTensorType>(type));
      candidate.splittable = getSplittableLoops(sharded, candidate.maps,
                                                candidate.iterators, types);
      model = modelPool.intern(std::move(candidate));
    }
  }
  state.setModel(model);
  return model;
}

std::pair<LoopSharding, FlatSymbolRefAttr>
Propagation::deriveForOp(unsigned index, const LoopModel &model) {
  Operation *operation = ops[index].op;
  unsigned numTensors =
      operation->getNumOperands() + operation->getNumResults();
  FlatSymbolRefAttr mesh;
  SmallVector<const SplitAxes *> axes(numTensors, nullptr);
  SmallVector<unsigned> fixedFirst, others;
  for (unsigned i = 0; i < numTensors; ++i) {
    ValueInfo *known = slot(index, i);
    if (!known || !known->getMesh())
      continue;
    if (!mesh)
      mesh = known->getMesh();
    if (known->getMesh() != mesh)
      continue; // Tensors on another mesh say nothing about this one.
    axes[i] = known->getSplitAxes();
    (known->isFixed() ? fixedFirst : others).push_back(i);
  }
  llvm::append_range(fixedFirst, others);
  SmallVector<RankedTensorType, 4> types;
  for (Type type : llvm::concat<Type>(operation->getOperandTypes(),
                                      operation->getResultTypes()))
    types.push_back(dyn_cast<RankedTensorType>(type));
  LoopSharding loops =
      deriveLoopSharding(model.iterators.size(), model.maps, axes, fixedFirst,
                         model.splittable, types, meshShape(mesh));
  return {std::move(loops), mesh};
}

ArrayRef<int64_t> Propagation::meshShape(FlatSymbolRefAttr mesh) {
  if (!mesh)
    return {};
  auto [it, inserted] = meshShapes.try_emplace(mesh);
  if (inserted) {
    auto meshOp = SymbolTable::lookupNearestSymbolFrom<MeshOp>(func, mesh);
    if (meshOp && meshOp.isStatic())
      it->second.assign(meshOp.getShape().begin(), meshOp.getShape().end());
  }
  return it->second;
}

void Propagation::unify(ArrayRef<Value> values) {
  const ValueInfo *known = nullptr;
  for (Value value : values) {
    const ValueInfo *candidate = lookup(value);
    if (!candidate || !candidate->getMesh())
      continue;
    if (!known || (candidate->isFixed() && !known->isFixed()))
      known = candidate;
  }
  if (!known)
    return;
  if (recordOrigins)
    source.value = known - this->values.data();
  ValueInfo copy = *known; // `extend` changes what `known` points to.
  for (Value value : values)
    extend(value, copy.getMesh(), copy.getAxes());
}

void Propagation::visit(unsigned index, Direction direction) {
  Operation *op = ops[index].op;
  source.op = index;
  // Region forwarding: a loop's init, block argument, yielded value and
  // result are one value over time; an if's results are its yields.
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (unsigned i = 0, e = loop.getNumResults(); i < e; ++i)
      unify({loop.getInitArgs()[i], loop.getRegionIterArgs()[i],
             yield.getOperand(i), loop.getResult(i)});
    return;
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    if (!carriesResults(loop))
      return; // Runs whole.
    scf::ConditionOp condition = loop.getConditionOp();
    for (unsigned i = 0, e = loop.getNumResults(); i < e; ++i)
      unify({loop.getInits()[i], loop.getBeforeArguments()[i],
             condition.getArgs()[i], loop.getResult(i),
             loop.getAfterArguments()[i], loop.getYieldOp().getOperand(i)});
    return;
  }
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
    // A branch (if, index_switch): each result is what every region yields.
    for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
      SmallVector<Value> values{op->getResult(i)};
      for (Region &region : op->getRegions())
        if (!region.empty())
          values.push_back(region.front().getTerminator()->getOperand(i));
      unify(values);
    }
    return;
  }
  if (auto shard = dyn_cast<ShardOp>(op)) {
    // An annotation passes its sharding through unchanged.
    unsigned resultSlot = op->getNumOperands();
    bool forward = direction == Direction::Forward;
    Value to = forward ? shard.getResult() : shard.getSrc();
    ValueInfo *from = slot(index, forward ? 0 : resultSlot);
    ValueInfo *into = slot(index, forward ? resultSlot : 0);
    if (from && into && from->getMesh()) {
      source.value = from - values.data();
      extend(*into, from->getMesh(), from->getAxes());
    }
    return;
  }
  const LoopModel *model = modelOf(op, ops[index].state);
  if (!model)
    return; // No model: the op stays replicated.
  ArrayRef<AffineMap> maps = model->maps;
  unsigned first = direction == Direction::Forward ? op->getNumOperands() : 0;
  unsigned last = direction == Direction::Forward
                      ? maps.size()
                      : op->getNumOperands();
  // Nothing this phase may update can grow (user annotations are fixed):
  // skip deriving the loops. In a program annotated throughout (an sdy
  // program after the bridge) this is most visits.
  if (llvm::none_of(llvm::seq(first, last), [&](unsigned i) {
        ValueInfo *current = slot(index, i);
        return current && !current->isFixed();
      }))
    return;
  auto [loops, mesh] = deriveForOp(index, *model);
  if (!mesh)
    return;
  if (recordOrigins)
    source.value = sourceOf(index);
  for (unsigned i = first; i < last; ++i) {
    ValueInfo *current = slot(index, i);
    if (current)
      extend(*current, mesh, loops.project(maps[i]));
  }
}

void Propagation::run(Direction direction) {
  // Every op once in program order, so that the result does not depend on
  // hashing, then the ones whose tensors changed after their visit. All are
  // queued for the first sweep: pushing an op it has yet to visit does
  // nothing.
  worklist.clear();
  for (OpEntry &entry : ops)
    entry.state.setQueued(true);
  bool reverse = direction == Direction::Backward;
  for (size_t i = 0, e = ops.size(); i < e; ++i) {
    if (i + kPrefetchDistance < e)
      prefetchOp(ops[reverse ? e - 1 - i - kPrefetchDistance
                             : i + kPrefetchDistance]
                     .op);
    unsigned index = reverse ? e - 1 - i : i;
    ops[index].state.setQueued(false);
    startVisit(index);
    visit(index, direction);
  }
  while (!worklist.empty()) {
    ++revisits;
    unsigned index = worklist.front();
    worklist.pop_front();
    ops[index].state.setQueued(false);
    startVisit(index);
    visit(index, direction);
  }
  visiting = kNoOp;
}

std::pair<unsigned, unsigned> Propagation::materialize() {
  AnnotationBuilder annotations(func);
  for (BlockArgument arg : func.getArguments())
    annotateValue(annotations, arg, knownSharding(arg));
  // Decide everything before the IR changes: annotations replace operands
  // with values propagation knows nothing about.
  SmallVector<Decision> decisions = decide();
  // Loop-carried block arguments first, like function arguments: the ops
  // of the body then see them annotated.
  for (scf::ForOp loop : forOps)
    for (auto [arg, result] :
         llvm::zip(loop.getRegionIterArgs(), loop.getResults()))
      annotateValue(annotations, arg, knownSharding(result));
  for (scf::WhileOp loop : whileOps)
    for (auto [before, after, result] :
         llvm::zip(loop.getBeforeArguments(), loop.getAfterArguments(),
                   loop.getResults())) {
      annotateValue(annotations, before, knownSharding(result));
      annotateValue(annotations, after, knownSharding(result));
    }
  unsigned replicatedOps = 0;
  for (size_t i = 0, e = decisions.size(); i < e; ++i) {
    if (i + kPrefetchDistance < e)
      prefetchOp(decisions[i + kPrefetchDistance].op);
    replicatedOps += annotateDecided(decisions[i], annotations);
  }
  return {annotations.count(), replicatedOps};
}

MeshSharding Propagation::knownSharding(Value value) {
  ValueInfo *known = lookup(value);
  if (!known || !known->getMesh())
    return {};
  return MeshSharding(known->getMesh(), known->getAxes());
}

SmallVector<Propagation::Decision> Propagation::decide() {
  SmallVector<Decision> decisions;
  for (size_t i = 0, e = postOrder.size(); i < e; ++i) {
    if (i + kPrefetchDistance < e)
      prefetchOp(ops[postOrder[i + kPrefetchDistance]].op);
    unsigned index = postOrder[i];
    Operation *op = ops[index].op;
    if (isa<ShardOp, ShardingOp>(op))
      continue;
    Decision decision{op, modelOf(op, ops[index].state), nullptr, {}};
    if (decision.model) {
      auto [loops, mesh] = deriveForOp(index, *decision.model);
      decision.loops = loopShardings.intern(std::move(loops));
      decision.mesh = mesh;
      completeResults(index, decision);
    } else if (op->hasTrait<OpTrait::IsTerminator>()) {
      continue;
    }
    decisions.push_back(std::move(decision));
  }
  return decisions;
}

void Propagation::completeResults(unsigned index, const Decision &decision) {
  // The results get annotated as the op produces them. A result the
  // phases left unknown (going backward, results are never updated) is
  // read so by the ops decided later, like any annotated value.
  Operation *op = decision.op;
  unsigned numOperands = op->getNumOperands();
  for (unsigned r = 0, e = op->getNumResults(); decision.mesh && r < e; ++r) {
    ValueInfo *known = slot(index, numOperands + r);
    if (!known || known->getMesh())
      continue;
    SplitAxes axes =
        decision.loops->project(decision.model->maps[numOperands + r]);
    if (axes.empty()) // The phases never record a replicated value.
      continue;
    *known = ValueInfo(intern(decision.mesh, std::move(axes)), /*fixed=*/false);
    if (recordOrigins) {
      unsigned number = known - values.data();
      originValue[number] = sourceOf(index);
      originOp[number] = index;
    }
  }
}

bool Propagation::annotateDecided(const Decision &decision,
                                  AnnotationBuilder &annotations) {
  Operation *op = decision.op;
  if (carriesValues(op)) {
    annotateCarried(op, annotations);
    return false;
  }
  // A manual region's boundary takes its operand as annotated.
  if (op->hasAttr(kManualBoundaryAttr))
    return false;
  if (!decision.model)
    return replicate(op, annotations);
  if (decision.mesh)
    annotateModeled(decision, annotations);
  return false;
}

void Propagation::annotateCarried(Operation *op,
                                  AnnotationBuilder &annotations) {
  // Region forwarding: the loop-carried or branch-carried value has the
  // sharding propagation gave the op's result; its other places are read so.
  auto yieldOf = [](Region &region) {
    return cast<scf::YieldOp>(region.front().getTerminator());
  };
  for (OpResult result : op->getResults()) {
    MeshSharding sharding = knownSharding(result);
    if (!sharding)
      continue;
    unsigned i = result.getResultNumber();
    SmallVector<OpOperand *> readers;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      readers.push_back(&loop.getInitArgsMutable()[i]);
      readers.push_back(&yieldOf(loop.getRegion())->getOpOperand(i));
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      readers.push_back(&loop.getInitsMutable()[i]);
      readers.push_back(&loop.getYieldOp()->getOpOperand(i));
      readers.push_back(&loop.getConditionOp().getArgsMutable()[i]);
    } else {
      for (Region &region : op->getRegions())
        if (!region.empty())
          readers.push_back(&yieldOf(region)->getOpOperand(i));
    }
    annotateValue(annotations, result, sharding);
    for (OpOperand *reader : readers)
      annotations.requireOperand(*reader, sharding);
  }
}

bool Propagation::replicate(Operation *op, AnnotationBuilder &annotations) {
  // No model: the op computes on whole tensors.
  bool any = false;
  for (OpOperand &operand : op->getOpOperands()) {
    MeshSharding current = getAnnotatedSharding(operand.get());
    if (current)
      any |= annotations.requireOperand(
          operand, MeshSharding(current.getMeshAttr(), {}));
  }
  if (!any)
    return false;
  // Visible, so the user can add a model or an annotation: running an op
  // whole on every device is correct but can be costly.
  op->emitRemark() << "'" << op->getName()
                   << "' has no sharding model: it runs replicated";
  return true;
}

void Propagation::annotateModeled(const Decision &decision,
                                  AnnotationBuilder &annotations) {
  Operation *op = decision.op;
  FlatSymbolRefAttr mesh = decision.mesh;
  const LoopSharding &loops = *decision.loops;
  ArrayRef<AffineMap> maps = decision.model->maps;
  // Results: what the op produces, partial over its split reductions.
  ArrayRef<utils::IteratorType> iterators = decision.model->iterators;
  DimSplitAxes partialAxes = loops.reductionAxes(iterators);
  ReductionKind partialType =
      getPartialReductionKind(ShardingInterface(op), loops, iterators);
  for (OpResult result : op->getResults()) {
    AffineMap map = maps[op->getNumOperands() + result.getResultNumber()];
    annotateValue(annotations, result,
                  MeshSharding(mesh, loops.project(map), partialAxes,
                               partialType));
  }
  // Operands: what the op needs, where it differs from what the value is.
  for (OpOperand &operand : op->getOpOperands())
    annotations.requireOperand(
        operand,
        MeshSharding(mesh, loops.project(maps[operand.getOperandNumber()])));
}

void Propagation::locateOrigins() {
  DenseSet<Operation *> userAnnotations;
  for (ShardOp shard : shardOps)
    userAnnotations.insert(shard);
  DenseMap<Operation *, unsigned> indexOf;
  for (auto [i, entry] : llvm::enumerate(ops))
    indexOf[entry.op] = i;

  // Per value number, the user annotation its sharding came from and how
  // many ops it went through, each found once (chains share their tails).
  SmallVector<Operation *> root(values.size(), nullptr);
  SmallVector<unsigned> hops(values.size(), 0);
  SmallVector<char> state(values.size(), 0); // 0 new, 1 on stack, 2 done
  auto resolve = [&](unsigned start) {
    SmallVector<unsigned> stack;
    unsigned v = start;
    while (v != kNoValue && state[v] == 0) {
      if (auto it = annotationOf.find(v); it != annotationOf.end()) {
        root[v] = it->second;
        state[v] = 2;
        break;
      }
      state[v] = 1;
      stack.push_back(v);
      v = originValue[v];
    }
    Operation *found = v != kNoValue && state[v] == 2 ? root[v] : nullptr;
    unsigned count = v != kNoValue && state[v] == 2 ? hops[v] : 0;
    while (!stack.empty()) {
      unsigned w = stack.pop_back_val();
      root[w] = found;
      hops[w] = ++count;
      state[w] = 2;
    }
  };

  MLIRContext *ctx = func.getContext();
  func.walk([&](ShardOp shard) {
    if (userAnnotations.contains(shard))
      return;
    SmallVector<StringRef> through;
    unsigned start;
    if (shard.getAnnotateForUsers()) {
      // Read by its user as the user's loops need it.
      if (shard->use_empty())
        return;
      auto it = indexOf.find(*shard->getUsers().begin());
      if (it == indexOf.end())
        return;
      through.push_back(it->first->getName().getStringRef());
      start = sourceOf(it->second);
    } else {
      ValueInfo *known = lookup(shard.getSrc());
      if (!known)
        return;
      start = known - values.data();
    }
    if (start == kNoValue)
      return;
    resolve(start);
    if (!root[start])
      return;
    unsigned total = hops[start] + through.size();
    for (unsigned v = start; v != kNoValue && through.size() < 6 &&
                             originOp[v] != kNoOp;
         v = originValue[v])
      through.push_back(ops[originOp[v]].op->getName().getStringRef());
    std::string text =
        "sharding from the annotation through " + std::to_string(total) +
        (total == 1 ? " op" : " ops");
    if (!through.empty())
      text += ": " + llvm::join(through, ", ");
    if (through.size() < total)
      text += ", ...";
    shard->setLoc(FusedLoc::get(ctx, {root[start]->getLoc(), shard.getLoc()},
                                StringAttr::get(ctx, text)));
  });
}

} // namespace

FailureOr<PropagationCounts>
mlir::mesh::propagateShardings(FunctionOpInterface func,
                               TraversalOrder traversal, bool recordOrigins) {
  if (func.isExternal())
    return PropagationCounts();
  // As in JAX, a result of the program (a public function) is partial only
  // if the user annotated it so: remember which returned values already are.
  // (A private callee may return partial values: its callers, seen by the
  // same module propagation, complete them.)
  SmallVector<std::pair<OpOperand *, bool>> returned;
  auto symbol = dyn_cast<SymbolOpInterface>(func.getOperation());
  func.walk([&](func::ReturnOp ret) {
    if (ret->getParentOp() != func.getOperation() ||
        (symbol && !symbol.isPublic()))
      return;
    for (OpOperand &operand : ret->getOpOperands()) {
      MeshSharding sharding = getAnnotatedSharding(operand.get());
      returned.emplace_back(&operand,
                            sharding && !sharding.getPartialAxes().empty());
    }
  });
  Propagation propagation(func, recordOrigins);
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
  if (recordOrigins)
    propagation.locateOrigins();
  // A result propagation made partial is reduced before it is returned
  // (a caller would otherwise get each device's partial value).
  AnnotationBuilder annotations(func);
  for (auto [operand, userPartial] : returned) {
    MeshSharding sharding = getAnnotatedSharding(operand->get());
    if (userPartial || !sharding || sharding.getPartialAxes().empty())
      continue;
    annotations.annotateOperand(
        *operand, MeshSharding(sharding.getMeshAttr(), sharding.getSplitAxes(),
                               /*partialAxes=*/{}));
  }
  added += annotations.count();
  return PropagationCounts{added, replicated, propagation.getRevisits()};
}

namespace {
struct MeshShardingPropagationPass
    : mesh::impl::MeshShardingPropagationBase<MeshShardingPropagationPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(checkNoCallsToDefinedFunctions()))
      return signalPassFailure();
    // Chains left by canonicalize or CSE, in defined form.
    normalizeResultAnnotations(getOperation());
    FailureOr<PropagationCounts> counts =
        propagateShardings(getOperation(), traversal, debugShardingOrigins);
    if (failed(counts))
      return signalPassFailure();
    numAnnotations += counts->annotations;
    numReplicatedOps += counts->replicatedOps;
    numRevisits += counts->revisits;
  }

  /// A call site and its callee's boundary must agree on shardings, and a
  /// per-function pass sees only one side: mesh-spmdization would then
  /// retype the callee without its call sites. Only calls with tensors to a
  /// function with a body need the other side; a declaration keeps whole
  /// tensors.
  LogicalResult checkNoCallsToDefinedFunctions() {
    SymbolTableCollection symbolTables;
    WalkResult result = getOperation()->walk([&](CallOpInterface call) {
      auto hasTensor = [](TypeRange types) {
        return llvm::any_of(types, llvm::IsaPred<RankedTensorType>);
      };
      if (!hasTensor(call->getOperandTypes()) &&
          !hasTensor(call->getResultTypes()))
        return WalkResult::advance();
      auto symbol = dyn_cast<SymbolRefAttr>(call.getCallableForCallee());
      auto callee = dyn_cast_or_null<FunctionOpInterface>(
          symbol ? symbolTables.lookupNearestSymbolFrom(call, symbol)
                 : nullptr);
      if (!callee || callee.isExternal())
        return WalkResult::advance();
      call->emitOpError("unsupported by mesh-sharding-propagation: a call to ")
          << symbol << ", a function with a body (the call site and the "
          << "callee must agree on shardings, which a per-function pass "
          << "cannot see); run mesh-module-sharding-propagation instead";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }
};
} // namespace
