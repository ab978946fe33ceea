//===- PropagationDriver.cpp - the propagation fixed point ----------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Propagation/PropagationDriver.h"

#include "DebugInfo.h"
#include "Worklist.h"
#include "meshsdy/Dialect/Sdy/IR/ShardingRules.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardableValues.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardingGroups.h"
#include "llvm/ADT/SmallBitVector.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::sdy;

PropagationDirection mlir::sdy::propagateAny(const PropagationSite &,
                                             int64_t) {
  return PropagationDirection::BOTH;
}

PropagationDirection mlir::sdy::unionOf(PropagationDirection a,
                                        PropagationDirection b) {
  return static_cast<PropagationDirection>(static_cast<uint32_t>(a) |
                                           static_cast<uint32_t>(b));
}

PropagationDirection mlir::sdy::intersectionOf(PropagationDirection a,
                                               PropagationDirection b) {
  return static_cast<PropagationDirection>(static_cast<uint32_t>(a) &
                                           static_cast<uint32_t>(b));
}

/// An identity rule over `type` for `numOperands` operands and one result,
/// or null if the type has no static shape.
static OpShardingRuleAttr identityRule(Type type, int64_t numOperands) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return {};
  MLIRContext *ctx = type.getContext();
  SmallVector<DimMappingAttr> dims;
  for (int64_t i = 0; i < shaped.getRank(); ++i)
    dims.push_back(DimMappingAttr::get(ctx, {i}));
  auto mapping = TensorMappingAttr::get(ctx, dims);
  SmallVector<TensorMappingAttr> operands(numOperands, mapping);
  return OpShardingRuleAttr::get(ctx, shaped.getShape(), operands, {mapping},
                                 {}, {}, {}, {}, false);
}

bool mlir::sdy::isSliceLike(Operation *op) {
  return op &&
         op->getName().hasInterface<OffsetSizeAndStrideOpInterface>();
}

bool Propagator::isElementwise(Operation *op, OpShardingRuleAttr rule,
                               bool isDataFlowEdge) {
  if (!op || isDataFlowEdge)
    return false;
  if (op->hasTrait<OpTrait::Elementwise>() ||
      isa<ShardingConstraintOp, ReshardOp, PropagationBarrierOp>(op))
    return true;
  // A custom rule (a user's, for an opaque op) says nothing about the op. A
  // slice is never elementwise, even one that keeps every element (its rule
  // then maps operand and result alike): Shardy's slices are not.
  if (!rule || rule.getIsCustomRule() || isSliceLike(op) ||
      rule.getResultMappings().empty())
    return false;
  TensorMappingAttr first = rule.getResultMappings().front();
  if (first.getRank() == 0)
    return false;
  for (DimMappingAttr dim : first.getDimMappings())
    if (dim.getFactorIndices().size() != 1 ||
        !rule.isPassThroughFactor(dim.getFactorIndices().front()))
      return false;
  return llvm::all_of(rule.getOperandMappings(),
                      [&](TensorMappingAttr m) { return m == first; }) &&
         llvm::all_of(rule.getResultMappings(),
                      [&](TensorMappingAttr m) { return m == first; });
}

namespace {
/// One tensor of a site: the value its users see, its current sharding in
/// the view the site uses, and how to store a new one.
struct SiteTensor {
  Value value;
  TensorShardingAttr sharding;
  /// Null: store with setValueSharding(value, ...).
  llvm::function_ref<bool(TensorShardingAttr)> store;
  /// A function result (no value, no group, no users to notify).
  bool isFuncResult = false;
};
} // namespace

struct Propagator::Impl {
  Impl(ModuleOp module, const PropagationOptions &options)
      : module(module), options(options), groups(module),
        debug(options.debugShardingOrigins,
              options.debugPropagationEdgeSharding) {}

  ModuleOp module;
  PropagationOptions options;
  PropagationCounters counters;
  ShardingGroups groups;
  PropagationDebugInfo debug;
  llvm::DenseMap<Attribute, MeshAttr> meshes;
  /// An op with a rule, and the directions of its factors in the current
  /// fixed point (computed once per fixed point, not per visit).
  struct OpSite {
    PropagationSite site;
    SmallVector<PropagationDirection, 4> directions;
  };
  /// The site of each op with a rule (the IR's structure doesn't change
  /// while propagating, only shardings do).
  llvm::DenseMap<Operation *, OpSite> sites;
  /// The ops implementing ShardableDataFlowOpInterface: a set lookup is
  /// much cheaper than an interface cast on every use.
  llvm::DenseSet<Operation *> dataFlowOps;
  /// Whether the worklist knows the program order of the sites.
  bool ordered = false;

  /// The shardable value of each value met (structure: kept throughout).
  llvm::DenseMap<Value, Value> shardableCache;
  /// The sharding of each shardable value met in the current fixed point
  /// (an entry goes when propagation stores a sharding; user priorities
  /// change shardings between fixed points).
  llvm::DenseMap<Value, TensorShardingAttr> shardingCache;

  // The worklist of the current fixed point (Worklist.h).
  Worklist worklist;
  const FactorPropagation *strategy = nullptr;
  const DirectionFn *direction = nullptr;

  MeshAttr resolveMesh(Attribute meshOrRef) const {
    if (auto mesh = dyn_cast<MeshAttr>(meshOrRef))
      return mesh;
    auto it = meshes.find(meshOrRef);
    return it == meshes.end() ? MeshAttr() : it->second;
  }

  void push(WorkItem item) { worklist.push(item); }

  /// The work item that propagates through the edge owned by `owner`.
  void pushEdge(ShardableDataFlowOpInterface op, Value owner) {
    if (DataFlowEdgeOp edge = lookupEdgeOp(owner))
      push({edge, Value()});
    else
      push({op, owner});
  }

  /// The entry of `key` in `cache`, computed the first time.
  template <typename T, typename Compute>
  static T cached(llvm::DenseMap<Value, T> &cache, Value key,
                  Compute compute) {
    auto [it, inserted] = cache.try_emplace(key);
    if (inserted)
      it->second = compute(key);
    return it->second;
  }
  Value shardableOf(Value value) {
    // Most values are results of ops that own no edge: their own shardable
    // value, no lookup needed.
    if (auto result = dyn_cast<OpResult>(value);
        result && !isDataFlowOp(result.getOwner()))
      return value;
    return cached(shardableCache, value,
                  [](Value v) { return getShardableValue(v); });
  }
  /// getValueSharding, through the caches.
  TensorShardingAttr shardingOf(Value value) {
    Value shardable = shardableOf(value);
    if (!shardable)
      return {};
    return cached(shardingCache, shardable,
                  [](Value v) { return getSharding(v); });
  }
  /// Drops the cached shardings a store to `value` can change: its own, and
  /// those of the values sharing its list of shardings (storing one result's
  /// sharding gives the op's other results open shardings where they had
  /// none). A function argument has a list of its own.
  void forgetSharding(Value value) {
    Value shardable = shardableOf(value);
    if (!shardable)
      return;
    ValueRange siblings = shardable;
    if (auto result = dyn_cast<OpResult>(shardable))
      siblings = result.getOwner()->getResults();
    else if (Block *block = cast<BlockArgument>(shardable).getOwner();
             isDataFlowOp(block->getParentOp()))
      siblings = block->getArguments();
    for (Value sibling : siblings)
      shardingCache.erase(sibling);
  }
  /// setValueSharding, keeping the cache in step.
  bool storeSharding(Value value, TensorShardingAttr sharding) {
    forgetSharding(value);
    return setValueSharding(value, sharding);
  }
  bool isDataFlowOp(Operation *op) const {
    return op && dataFlowOps.contains(op);
  }
  /// getOwningDataFlowOp, through the set of data-flow ops.
  ShardableDataFlowOpInterface owningDataFlowOp(Value target) const {
    Operation *owner = isa<BlockArgument>(target)
                           ? cast<BlockArgument>(target).getOwner()->getParentOp()
                           : target.getDefiningOp();
    return isDataFlowOp(owner) ? cast<ShardableDataFlowOpInterface>(owner)
                               : ShardableDataFlowOpInterface();
  }
  SmallVector<SiteTensor> siteTensors(ValueRange values);

  void notifyUsers(Value value);
  void notifyChanged(Value shardable);
  void valueChanged(Value value, TensorShardingAttr sharding);
  bool propagateSite(const PropagationSite &site,
                     MutableArrayRef<SiteTensor> operands,
                     MutableArrayRef<SiteTensor> results,
                     int64_t funcResult = -1,
                     ArrayRef<PropagationDirection> knownDirections = {});
  /// The direction of each factor of `site` (NONE for blocked factors).
  void computeDirections(const PropagationSite &site,
                         SmallVectorImpl<PropagationDirection> &directions);
  void visit(WorkItem item);
  void visitEdge(ShardableDataFlowOpInterface op, Value owner);
  void syncFuncResults();
  void fillWorklist(bool incremental);
  void computeInitialOrder();
  LogicalResult checkRule(Operation *op, OpShardingRuleAttr rule);
};

void Propagator::Impl::notifyUsers(Value value) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    bool isTerminator = user->hasTrait<OpTrait::IsTerminator>();
    Operation *dataFlowUser = isTerminator ? user->getParentOp() : user;
    if (isDataFlowOp(dataFlowUser)) {
      auto dataFlowOp = cast<ShardableDataFlowOpInterface>(dataFlowUser);
      if (Value owner = dataFlowOp.getEdgeOwnerFromSource(use)) {
        pushEdge(dataFlowOp, owner);
        continue;
      }
    }
    if (isTerminator) {
      // Function results are synced at the end of the fixed point; other
      // terminators (e.g. of a linalg body) belong to their parent op.
      Operation *parent = user->getParentOp();
      if (parent && !isa<FunctionOpInterface>(parent))
        push({parent, Value()});
      continue;
    }
    push({user, Value()});
  }
}

void Propagator::Impl::notifyChanged(Value shardable) {
  if (!shardable)
    return;
  // The other targets of an edge read the edge's sharding.
  Value owner = shardable;
  if (auto edge = shardable.getDefiningOp<DataFlowEdgeOp>())
    owner = edge.getInput();
  if (ShardableDataFlowOpInterface dataFlowOp = owningDataFlowOp(owner)) {
    if (dataFlowOp.getEdgeOwnerFromTarget(owner) == owner) {
      for (Value target : dataFlowOp.getNonEdgeOwnerTargets(owner))
        notifyUsers(target);
      if (owner == shardable)
        push({dataFlowOp, owner});
    }
  }
  if (auto result = dyn_cast<OpResult>(shardable))
    push({result.getOwner(), Value()});
  notifyUsers(shardable);
}

void Propagator::Impl::valueChanged(Value value, TensorShardingAttr sharding) {
  Value shardable = shardableOf(value);
  notifyChanged(shardable);
  for (Value member : groups.getMembers(shardable)) {
    if (member == shardable)
      continue;
    auto type = dyn_cast<ShapedType>(member.getType());
    if (!type || !type.hasRank() || type.getRank() != sharding.getRank())
      continue;
    if (shardingOf(member) == sharding || !storeSharding(member, sharding))
      continue;
    ++counters.shardingUpdates;
    notifyChanged(member);
  }
}

/// Whether `sharding` shards no dimension.
static bool hasNoDimAxes(TensorShardingAttr sharding) {
  return llvm::all_of(sharding.getDimShardings(),
                      [](DimensionShardingAttr dim) { return dim.emptyAxes(); });
}

/// Sets in `factors` each factor mapped to a dimension of size 0 of one of
/// `tensors` (a concatenation's empty piece): such a dimension can take no
/// axes, so, as in Shardy, its factors are not propagated.
static void setFactorsOnEmptyDims(ArrayRef<SiteTensor> tensors,
                                  ArrayRef<TensorMappingAttr> mappings,
                                  llvm::SmallBitVector &factors) {
  for (auto [tensor, mapping] : llvm::zip(tensors, mappings)) {
    auto type = tensor.value
                    ? dyn_cast<RankedTensorType>(tensor.value.getType())
                    : RankedTensorType();
    if (!type || !llvm::is_contained(type.getShape(), 0))
      continue;
    for (auto [size, dim] :
         llvm::zip(type.getShape(), mapping.getDimMappings()))
      if (size == 0)
        for (int64_t factor : dim.getFactorIndices())
          factors.set(factor);
  }
}

void Propagator::Impl::computeDirections(
    const PropagationSite &site,
    SmallVectorImpl<PropagationDirection> &directions) {
  OpShardingRuleAttr rule = site.rule;
  int64_t numFactors = rule.getNumFactors();
  directions.assign(numFactors, PropagationDirection::NONE);
  // Blocked factors and conservative propagation don't cross padded, sliced
  // or concatenated dimensions (Shardy blocks them in its rules; ours come
  // from models).
  for (int64_t factor = 0; factor < numFactors; ++factor)
    if (!rule.isBlockedPropagationFactor(factor) &&
        !(options.conservativePropagation && rule.isPermutationFactor(factor)))
      directions[factor] = (*direction)(site, factor);
}

bool Propagator::Impl::propagateSite(
    const PropagationSite &site, MutableArrayRef<SiteTensor> operands,
    MutableArrayRef<SiteTensor> results, int64_t funcResult,
    ArrayRef<PropagationDirection> knownDirections) {
  OpShardingRuleAttr rule = site.rule;
  // Most visits find nothing to do; say so before building a projection.
  // Without an axis on any tensor there is nothing to propagate.
  if (llvm::all_of(llvm::concat<SiteTensor>(operands, results),
                   [](const SiteTensor &tensor) {
                     return !tensor.sharding || hasNoDimAxes(tensor.sharding);
                   }))
    return false;
  SmallVector<PropagationDirection, 8> computed;
  ArrayRef<PropagationDirection> directions = knownDirections;
  if (directions.empty() && rule.getNumFactors() > 0) {
    computeDirections(site, computed);
    directions = computed;
  }
  llvm::SmallBitVector empty(rule.getNumFactors());
  setFactorsOnEmptyDims(operands, rule.getOperandMappings(), empty);
  setFactorsOnEmptyDims(results, rule.getResultMappings(), empty);
  if (empty.any() && directions.size() == empty.size()) {
    SmallVector<PropagationDirection, 8> masked(directions);
    for (unsigned factor : empty.set_bits())
      masked[factor] = PropagationDirection::NONE;
    computed = std::move(masked);
    directions = computed;
  }
  if (llvm::all_of(directions, [](PropagationDirection direction) {
        return direction == PropagationDirection::NONE;
      }))
    return false;
  // All shardings must be bound to one mesh; shardings on an empty mesh
  // (`<[]>`, a placeholder) take the mesh of the others.
  Attribute meshOrRef;
  MeshAttr mesh;
  for (const SiteTensor &tensor : llvm::concat<SiteTensor>(operands, results)) {
    if (!tensor.sharding)
      continue;
    MeshAttr other = resolveMesh(tensor.sharding.getMeshOrRef());
    if (!other)
      return false;
    if (other.isEmpty())
      continue;
    if (!mesh) {
      mesh = other;
      meshOrRef = tensor.sharding.getMeshOrRef();
    } else if (other != mesh) {
      return false;
    }
  }
  // Maximal shardings are placeholders for special ops: never propagated.
  if (!mesh || mesh.getAxes().empty())
    return false;
  SmallVector<TensorShardingAttr> operandShardings, resultShardings;
  for (const SiteTensor &tensor : operands)
    operandShardings.push_back(tensor.sharding);
  for (const SiteTensor &tensor : results)
    resultShardings.push_back(tensor.sharding);
  auto rankMatches = [](ArrayRef<TensorShardingAttr> shardings,
                        ArrayRef<TensorMappingAttr> mappings) {
    return llvm::all_of(llvm::zip(shardings, mappings), [](auto pair) {
      auto [sharding, mapping] = pair;
      return !sharding || sharding.getRank() == mapping.getRank();
    });
  };
  if (!rankMatches(operandShardings, rule.getOperandMappings()) ||
      !rankMatches(resultShardings, rule.getResultMappings()))
    return false;

  ShardingProjection projection = ShardingProjection::build(
      operandShardings, resultShardings, rule, mesh);
  std::optional<ShardingProjection> before;
  if (debug.enabled())
    before = projection;
  FactorPropagationParams params{rule.getFactorSizes(), mesh,
                                 options.conservativePropagation,
                                 site.elementwise};
  auto directionOf = [&](int64_t factor) { return directions[factor]; };
  UpdatedTensors updated = strategy->propagate(projection, directionOf, params);
  if (!updated.any())
    return false;

  MLIRContext *ctx = module.getContext();
  auto update = [&](SiteTensor &tensor, const TensorFactorShardings &factors,
                    TensorMappingAttr mapping) {
    TensorShardingAttr sharding = factors.toSharding(
        ctx, mapping, rule.getFactorSizes(), meshOrRef, mesh);
    if (sharding == tensor.sharding ||
        (!tensor.sharding && hasNoDimAxes(sharding)))
      return false;
    forgetSharding(tensor.value);
    bool stored = tensor.store ? tensor.store(sharding)
                               : setValueSharding(tensor.value, sharding);
    if (!stored)
      return false;
    ++counters.shardingUpdates;
    if (!tensor.isFuncResult)
      valueChanged(tensor.value, sharding);
    return true;
  };
  BitVector changedOperands(operands.size()), changedResults(results.size());
  for (unsigned i : updated.operands.set_bits())
    if (update(operands[i], projection.getOperands()[i],
               rule.getOperandMappings()[i]))
      changedOperands.set(i);
  for (unsigned i : updated.results.set_bits())
    if (update(results[i], projection.getResults()[i],
               rule.getResultMappings()[i]))
      changedResults.set(i);
  bool anyUpdated = changedOperands.any() || changedResults.any();
  if (anyUpdated && before) {
    SmallVector<Value> operandValues, resultValues;
    for (const SiteTensor &tensor : operands)
      operandValues.push_back(tensor.value);
    for (const SiteTensor &tensor : results)
      resultValues.push_back(tensor.value);
    // A data-flow op without edge ops: its single result tensor is the
    // owner of the edge.
    Value owner = site.isDataFlowEdge && !isa<DataFlowEdgeOp>(site.op)
                      ? results.front().value
                      : Value();
    debug.record(site.op, operandValues, resultValues, *before, projection,
                 rule, mesh, funcResult, owner);
  }
  return anyUpdated;
}

/// The sharding of each of `values` as their users see it.
SmallVector<SiteTensor> Propagator::Impl::siteTensors(ValueRange values) {
  SmallVector<SiteTensor> tensors;
  tensors.reserve(values.size());
  for (Value value : values)
    tensors.push_back({value, shardingOf(value), nullptr});
  return tensors;
}

void Propagator::Impl::visitEdge(ShardableDataFlowOpInterface op,
                                 Value owner) {
  OpShardingRuleAttr rule;
  SmallVector<OpOperand *> sourceOperands = op.getEdgeSources(owner);
  rule = identityRule(owner.getType(), sourceOperands.size());
  if (!rule)
    return;
  SmallVector<Value> sources;
  for (OpOperand *source : sourceOperands)
    sources.push_back(source->get());
  SmallVector<SiteTensor> operands = siteTensors(sources);
  // The target side of a manual computation's edge is seen with the manual
  // axes of the op's global side: added to a block argument (local), removed
  // from a result (global).
  SiteTensor target{owner, shardingOf(owner), nullptr};
  auto manual = dyn_cast<ManualComputationOp>(op.getOperation());
  TensorShardingAttr outer;
  auto storeLocal = [&](TensorShardingAttr sharding) {
    return setValueSharding(
        owner, eraseManualAxes(sharding, manual.getManualAxes()));
  };
  auto storeGlobal = [&](TensorShardingAttr sharding) {
    return setValueSharding(owner, addManualAxes(outer, sharding, manual));
  };
  if (manual) {
    outer = manual.getEdgeOwnerSharding(owner);
    if (isa<BlockArgument>(owner)) {
      target.sharding = addManualAxes(outer, target.sharding, manual);
      target.store = storeLocal;
    } else {
      target.sharding =
          eraseManualAxes(target.sharding, manual.getManualAxes());
      target.store = storeGlobal;
    }
  }
  Operation *siteOp = op;
  if (DataFlowEdgeOp edge = lookupEdgeOp(owner))
    siteOp = edge;
  PropagationSite site{siteOp, rule, /*isDataFlowEdge=*/true,
                       /*elementwise=*/false};
  SmallVector<SiteTensor> results{target};
  propagateSite(site, operands, results);
}

void Propagator::Impl::visit(WorkItem item) {
  ++counters.siteVisits;
  if (item.owner) {
    visitEdge(cast<ShardableDataFlowOpInterface>(item.op), item.owner);
    return;
  }
  Operation *op = item.op;
  if (auto edge = dyn_cast<DataFlowEdgeOp>(op)) {
    if (ShardableDataFlowOpInterface dataFlowOp =
            owningDataFlowOp(edge.getInput()))
      visitEdge(dataFlowOp, edge.getInput());
    return;
  }
  if (auto barrier = dyn_cast<PropagationBarrierOp>(op)) {
    OpShardingRuleAttr rule = identityRule(barrier.getType(), 1);
    if (!rule)
      return;
    PropagationDirection allowed = barrier.getAllowedDirection();
    DirectionFn fixed = [allowed](const PropagationSite &, int64_t) {
      return allowed;
    };
    const DirectionFn *saved = direction;
    direction = &fixed;
    SmallVector<SiteTensor> operands = siteTensors(op->getOperands());
    SmallVector<SiteTensor> results = siteTensors(op->getResults());
    propagateSite({op, rule, false, /*elementwise=*/true}, operands, results);
    direction = saved;
    return;
  }
  auto it = sites.find(op);
  if (it == sites.end())
    return;
  SmallVector<SiteTensor> operands = siteTensors(op->getOperands());
  SmallVector<SiteTensor> results = siteTensors(op->getResults());
  propagateSite(it->second.site, operands, results, /*funcResult=*/-1,
                it->second.directions);
}

void Propagator::Impl::syncFuncResults() {
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal())
      continue;
    for (Block &block : func.getFunctionBody()) {
      Operation *terminator = block.getTerminator();
      if (!terminator || !terminator->hasTrait<OpTrait::IsTerminator>() ||
          terminator->getNumOperands() != func.getNumResults())
        continue;
      for (OpOperand &operand : terminator->getOpOperands()) {
        int64_t index = operand.getOperandNumber();
        OpShardingRuleAttr rule = identityRule(operand.get().getType(), 1);
        if (!rule)
          continue;
        SmallVector<SiteTensor> operands = siteTensors(operand.get());
        auto store = [&](TensorShardingAttr sharding) {
          func.setResultAttr(index, kShardingAttr, sharding);
          return true;
        };
        SmallVector<SiteTensor> results{SiteTensor{
            operand.get(),
            func.getResultAttrOfType<TensorShardingAttr>(index,
                                                         kShardingAttr),
            store, /*isFuncResult=*/true}};
        const DirectionFn *saved = direction;
        DirectionFn any = propagateAny;
        direction = &any;
        propagateSite({func, rule, false,
                       Propagator::isElementwise(func, rule, false)},
                      operands, results, index);
        direction = saved;
      }
    }
  }
}

void Propagator::Impl::fillWorklist(bool incremental) {
  SmallVector<PropagationDirection, 4> directions;
  for (auto [position, item] : llvm::enumerate(worklist.order())) {
    auto it = item.owner ? sites.end() : sites.find(item.op);
    if (it == sites.end()) {
      if (!incremental)
        worklist.markDue(position);
      continue;
    }
    computeDirections(it->second.site, directions);
    // A site that was stable with the same directions is still stable: the
    // module hasn't changed since (the caller's promise), and anything that
    // changes what it reads before its turn queues it (Worklist.h).
    bool changed = directions != it->second.directions;
    if (changed)
      it->second.directions.assign(directions.begin(), directions.end());
    if (!incremental || changed)
      worklist.markDue(position);
  }
}

void Propagator::Impl::computeInitialOrder() {
  SmallVector<WorkItem> order;
  module->walk([&](Operation *op, const WalkStage &stage) {
    auto dataFlowOp = isDataFlowOp(op)
                          ? cast<ShardableDataFlowOpInterface>(op)
                          : ShardableDataFlowOpInterface();
    if (stage.isBeforeAllRegions()) {
      // Only what visit() does something for (not, e.g., the scalar ops in
      // a linalg body).
      if (sites.contains(op) || isa<DataFlowEdgeOp, PropagationBarrierOp>(op))
        order.push_back({op, Value()});
      if (dataFlowOp)
        for (BlockArgument owner : dataFlowOp.getBlockArgumentEdgeOwners())
          if (!lookupEdgeOp(owner))
            order.push_back({op, owner});
    }
    if (stage.isAfterAllRegions() && dataFlowOp)
      for (Value owner : dataFlowOp.getOpResultEdgeOwners())
        if (!lookupEdgeOp(owner))
          order.push_back({op, owner});
  });
  worklist.setOrder(order);
  ordered = true;
}

LogicalResult Propagator::Impl::checkRule(Operation *op,
                                          OpShardingRuleAttr rule) {
  auto check = [&](ArrayRef<TensorMappingAttr> mappings, TypeRange types,
                   StringRef kind) -> LogicalResult {
    if (mappings.size() != types.size())
      return op->emitOpError("sharding rule has ")
             << mappings.size() << " " << kind << " mappings but the op has "
             << types.size() << " " << kind << "s";
    for (auto [index, mapping, type] : llvm::enumerate(mappings, types)) {
      auto shaped = dyn_cast<ShapedType>(type);
      int64_t rank = shaped && shaped.hasRank() ? shaped.getRank() : 0;
      if (mapping.getRank() != rank)
        return op->emitOpError("sharding rule ")
               << kind << " " << index
               << " - mapping rank doesn't match tensor rank: "
               << mapping.getRank() << " != " << rank;
      for (auto [dim, dimMapping] : llvm::enumerate(mapping.getDimMappings())) {
        ArrayRef<int64_t> factors = dimMapping.getFactorIndices();
        if (factors.empty() || shaped.isDynamicDim(dim))
          continue;
        int64_t product = 1;
        bool passThrough = true;
        for (int64_t factor : factors) {
          if (factor < 0 || factor >= rule.getNumFactors())
            return op->emitOpError("sharding rule ")
                   << kind << " " << index << " - dim " << dim
                   << " maps to unknown factor " << factor;
          product *= rule.getFactorSizes()[factor];
          passThrough &= rule.isPassThroughFactor(factor);
        }
        // Only permutation and need-replication factors (slices, pads) may
        // differ in size from their dimension.
        if (passThrough && product != shaped.getDimSize(dim))
          return op->emitOpError("sharding rule ")
                 << kind << " " << index << " - dim " << dim
                 << " doesn't match the product of its factor sizes: "
                 << shaped.getDimSize(dim) << " != " << product;
      }
    }
    return success();
  };
  if (llvm::any_of(rule.getFactorSizes(), [](int64_t s) { return s < 0; }))
    return op->emitOpError("sharding rule has a factor of negative size");
  return failure(
      failed(check(rule.getOperandMappings(), op->getOperandTypes(),
                   "operand")) ||
      failed(check(rule.getResultMappings(), op->getResultTypes(), "result")));
}

/// Whether an op with no rule is worth reporting as a barrier: it takes or
/// produces a tensor and is not structure (functions, terminators, data-flow
/// ops, sdy bookkeeping ops).
static bool isReportableBarrier(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>() ||
      isa<FunctionOpInterface, ModuleOp, ShardableDataFlowOpInterface,
          ShardingGroupOp, MeshOp, DataFlowEdgeOp, PropagationBarrierOp>(op))
    return false;
  auto isTensor = [](Type type) { return isa<RankedTensorType>(type); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

Propagator::Propagator(ModuleOp module, const PropagationOptions &options)
    : impl(std::make_unique<Impl>(module, options)) {}
Propagator::~Propagator() = default;

ModuleOp Propagator::getModule() const { return impl->module; }
const PropagationOptions &Propagator::getOptions() const {
  return impl->options;
}
const PropagationCounters &Propagator::getCounters() const {
  return impl->counters;
}
MeshAttr Propagator::getMesh(Attribute meshOrRef) const {
  return impl->resolveMesh(meshOrRef);
}
OpShardingRuleAttr Propagator::getRule(Operation *op) {
  auto it = impl->sites.find(op);
  return it == impl->sites.end() ? OpShardingRuleAttr()
                                 : it->second.site.rule;
}

LogicalResult Propagator::initialize() {
  ModuleOp module = impl->module;
  for (auto mesh : module.getOps<MeshOp>())
    impl->meshes[FlatSymbolRefAttr::get(mesh.getSymNameAttr())] =
        mesh.getMesh();
  // Conflicting groups get new sharding constraints: sync before collecting
  // the rules so that they get theirs.
  impl->counters.conflictingGroups = impl->groups.sync(module);
  ShardingRuleCache rules;
  WalkResult walk = module->walk([&](Operation *op) {
    if (isa<ShardableDataFlowOpInterface>(op))
      impl->dataFlowOps.insert(op);
    ShardingRuleCache::Lookup lookup;
    if (auto constraint = dyn_cast<ShardingConstraintOp>(op))
      lookup.rule = identityRule(constraint.getType(), 1);
    else if (!isa<ShardableDataFlowOpInterface, DataFlowEdgeOp,
                  PropagationBarrierOp>(op))
      lookup = rules.get(op);
    OpShardingRuleAttr rule = lookup.rule;
    if (!rule) {
      if (isReportableBarrier(op)) {
        ++impl->counters.barrierOps;
        if (impl->options.reportBarriers)
          op->emitRemark("no sharding rule: '")
              << op->getName() << "' is a propagation barrier";
      }
      return WalkResult::advance();
    }
    // A shared rule was checked against an op of the same types.
    impl->counters.sharedRules += lookup.shared;
    if (!lookup.shared && failed(impl->checkRule(op, rule)))
      return WalkResult::interrupt();
    impl->sites[op] = {
        {op, rule, /*isDataFlowEdge=*/false,
         isElementwise(op, rule, /*isDataFlowEdge=*/false)},
        {}};
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  impl->debug.prepare(module);
  return success();
}

LogicalResult Propagator::propagate(const FactorPropagation &strategy,
                                    const DirectionFn &direction,
                                    bool incremental) {
  impl->strategy = &strategy;
  impl->direction = &direction;
  impl->shardingCache.clear();
  if (!impl->ordered)
    impl->computeInitialOrder();
  // Function results are synced first; what that changes is visited at its
  // turn (as in Shardy, whose driver visits every op).
  impl->worklist.start();
  impl->syncFuncResults();
  impl->fillWorklist(incremental);
  WorkItem item;
  while (impl->worklist.pop(item))
    impl->visit(item);
  impl->worklist.finish();
  impl->syncFuncResults();
  return success();
}

void Propagator::finalize() {
  ModuleOp module = impl->module;
  if (impl->options.keepShardingRules) {
    for (auto &[op, site] : impl->sites)
      if (!isa<ShardingConstraintOp>(op))
        op->setAttr(kShardingRuleAttr, site.site.rule);
  } else {
    module->walk([](Operation *op) {
      if (auto rule = op->getAttrOfType<OpShardingRuleAttr>(kShardingRuleAttr))
        if (!rule.getIsCustomRule())
          op->removeAttr(kShardingRuleAttr);
    });
  }
  impl->debug.save(module);
}

void Propagator::dumpModule(StringRef name) {
  StringRef dir = impl->options.moduleDumpDirectory;
  if (dir.empty())
    return;
  if (llvm::sys::fs::create_directories(dir)) {
    impl->module.emitWarning("cannot create module dump directory '")
        << dir << "'";
    return;
  }
  SmallString<128> path(dir);
  llvm::sys::path::append(path, name + ".mlir");
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error) {
    impl->module.emitWarning("cannot write '") << path << "': "
                                                << error.message();
    return;
  }
  impl->module->print(os);
}
