//===- DebugInfo.cpp - why a value got its sharding -----------------------===//

#include "DebugInfo.h"

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardableValues.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::sdy;

namespace {
/// One end of an edge: operand or result `index` of the op.
struct Node {
  EdgeNodeType type;
  int64_t index;
};

/// An axis reaching `target` from `source` at `step`.
struct Edge {
  Node source, target;
  int64_t step;
};

using AxisEdges = llvm::MapVector<AxisRefAttr, SmallVector<Edge>>;
} // namespace

struct PropagationDebugInfo::State {
  /// Origin names ("input: 0", ...) of each axis of each shardable value.
  llvm::DenseMap<Value, llvm::MapVector<AxisRefAttr, std::string>> origins;
  llvm::MapVector<Operation *, AxisEdges> opEdges;
  /// The edges of each function result.
  llvm::MapVector<std::pair<Operation *, int64_t>, AxisEdges> resultEdges;
  /// The edges of each edge owner of a data-flow op without edge ops.
  llvm::MapVector<Value, AxisEdges> ownerEdges;
  int64_t step = 0;
};

PropagationDebugInfo::PropagationDebugInfo(bool origins, bool edges)
    : origins(origins), edges(edges), state(std::make_unique<State>()) {}
PropagationDebugInfo::~PropagationDebugInfo() = default;

/// Records `origin` for every axis of `sharding` on `value` (the first
/// origin of an axis wins).
static void addOrigins(PropagationDebugInfo::State &state,
                       TensorShardingAttr sharding, Value value,
                       const std::string &origin) {
  Value shardable = getShardableValue(value);
  if (!sharding || !shardable)
    return;
  for (DimensionShardingAttr dim : sharding.getDimShardings())
    for (AxisRefAttr axis : dim.getAxes())
      state.origins[shardable].insert({axis, origin});
}

static std::string mcOrigin(int64_t id, bool input, int64_t index) {
  return "mc_" + std::to_string(id) + (input ? "_input: " : "_output: ") +
         std::to_string(index);
}

void PropagationDebugInfo::prepare(ModuleOp module) {
  if (!enabled())
    return;
  // Steps continue those of an earlier propagation pass.
  module->walk([&](Operation *op) {
    if (auto edges =
            op->getAttrOfType<PropagationEdgesAttr>(kPropagationEdgesAttr))
      for (PropagationOneStepAttr step : edges.getValue())
        state->step = std::max(state->step, step.getStepIndex() + 1);
  });
  if (!origins)
    return;
  MLIRContext *ctx = module.getContext();
  int64_t id = 0;
  module.walk([&](ShardingConstraintOp constraint) {
    std::string name = "constraint_" + std::to_string(id++);
    addOrigins(*state, constraint.getSharding(), constraint.getResult(), name);
    addOrigins(*state, getValueSharding(constraint.getInput()),
               constraint.getInput(), name);
    constraint->setAttr(kShardingOriginNameAttr, StringAttr::get(ctx, name));
  });
  id = 0;
  module.walk([&](ManualComputationOp manual) {
    for (auto [i, sharding] :
         llvm::enumerate(manual.getInShardings().getShardings())) {
      if (i < manual.getBody().getNumArguments())
        addOrigins(*state, sharding, manual.getBody().getArgument(i),
                   mcOrigin(id, true, i));
      Value operand = manual->getOperand(i);
      addOrigins(*state, getValueSharding(operand), operand,
                 mcOrigin(id, true, i));
    }
    for (auto [i, sharding] :
         llvm::enumerate(manual.getOutShardings().getShardings()))
      addOrigins(*state, sharding, manual->getResult(i),
                 mcOrigin(id, false, i));
    manual->setAttr(kShardingOriginNameAttr,
                    StringAttr::get(ctx, "mc_" + std::to_string(id++)));
  });
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal())
      continue;
    for (BlockArgument arg : func.getArguments())
      addOrigins(*state, getValueSharding(arg), arg,
                 "input: " + std::to_string(arg.getArgNumber()));
    Operation *terminator = func.getFunctionBody().front().getTerminator();
    if (!terminator)
      continue;
    for (OpOperand &operand : terminator->getOpOperands()) {
      int64_t i = operand.getOperandNumber();
      if (i < func.getNumResults())
        addOrigins(*state,
                   func.getResultAttrOfType<TensorShardingAttr>(i,
                                                                kShardingAttr),
                   operand.get(), "output: " + std::to_string(i));
    }
  }
}

/// The first tensor of `tensors` whose axes for `factor` start with `axes`.
static std::optional<int64_t>
findSource(ArrayRef<AxisRefAttr> axes, int64_t factor,
           ArrayRef<TensorFactorShardings> tensors) {
  for (auto [index, tensor] : llvm::enumerate(tensors)) {
    const FactorSharding *sharding = tensor.find(factor);
    if (sharding && comparePrefix(axes, sharding->axes) != PrefixKind::NotPrefix)
      return index;
  }
  return std::nullopt;
}

void PropagationDebugInfo::record(Operation *op, ArrayRef<Value> operands,
                                  ArrayRef<Value> results,
                                  const ShardingProjection &before,
                                  const ShardingProjection &after,
                                  OpShardingRuleAttr rule, MeshAttr mesh,
                                  int64_t funcResult, Value edgeOwner) {
  int64_t step = state->step++;
  auto lookUpOrigin = [&](Node node, AxisRefAttr axis) -> std::string {
    Value value = node.type == EdgeNodeType::OPERAND ? operands[node.index]
                                                     : results[node.index];
    auto it = state->origins.find(getShardableValue(value));
    if (it == state->origins.end())
      return {};
    if (auto found = it->second.find(axis); found != it->second.end())
      return found->second;
    // The axis may have been split or merged (e.g. by a reshape).
    for (auto &[other, origin] : it->second)
      if (contains(other, axis) || contains(axis, other))
        return origin;
    return {};
  };

  auto visit = [&](int64_t numBefore, bool isOperand, int64_t index,
                   TensorMappingAttr mapping) {
    const TensorFactorShardings &oldTensor =
        before.getTensors()[numBefore + index];
    const TensorFactorShardings &newTensor =
        after.getTensors()[numBefore + index];
    Node target{isOperand ? EdgeNodeType::OPERAND : EdgeNodeType::RESULT,
                index};
    llvm::MapVector<AxisRefAttr, Edge> axisEdges;
    for (DimMappingAttr dim : mapping.getDimMappings()) {
      AxisRefAttr previous;
      for (int64_t factor : dim.getFactorIndices()) {
        ArrayRef<AxisRefAttr> oldAxes = oldTensor.factors[factor].axes;
        ArrayRef<AxisRefAttr> newAxes = newTensor.factors[factor].axes;
        if (oldAxes == newAxes)
          continue;
        // Sub-axes meeting at a factor boundary are one axis of the dim.
        AxisList introduced(newAxes.begin(), newAxes.end());
        AxisRefAttr last = newAxes.back();
        if (previous && canMerge(previous, last)) {
          axisEdges.erase(previous);
          introduced.back() = merge(previous, last, mesh);
        }
        previous = newAxes.back();
        std::optional<Node> source;
        if (auto i = findSource(newAxes, factor, before.getOperands()))
          source = Node{EdgeNodeType::OPERAND, *i};
        else if (auto j = findSource(newAxes, factor, before.getResults()))
          source = Node{EdgeNodeType::RESULT, *j};
        if (!source)
          continue;
        Edge edge{*source, target, step};
        size_t kept = oldAxes.size();
        if (kept > 0 && oldAxes[kept - 1] != newAxes[kept - 1])
          axisEdges.insert({introduced[kept - 1], edge});
        for (AxisRefAttr axis : ArrayRef(introduced).drop_front(kept))
          axisEdges.insert({axis, edge});
      }
    }
    Value value = isOperand ? operands[index] : results[index];
    for (auto &[axis, edge] : axisEdges) {
      if (edges) {
        AxisEdges &map = funcResult >= 0 ? state->resultEdges[{op, funcResult}]
                         : edgeOwner      ? state->ownerEdges[edgeOwner]
                                          : state->opEdges[op];
        map[axis].push_back(edge);
      }
      if (origins) {
        std::string origin = lookUpOrigin(edge.source, axis);
        if (!origin.empty())
          state->origins[getShardableValue(value)].insert({axis, origin});
      }
    }
  };
  for (int64_t i = 0, e = before.getNumOperands(); i < e; ++i)
    visit(0, /*isOperand=*/true, i, rule.getOperandMappings()[i]);
  for (int64_t i = 0, e = before.getNumResults(); i < e; ++i)
    visit(before.getNumOperands(), /*isOperand=*/false, i,
          rule.getResultMappings()[i]);
}

/// The edges of `axisEdges` as an attribute: for each axis, source and
/// target the earliest step, grouped by step, axes sorted by name, targets by
/// kind then index.
static PropagationEdgesAttr edgesAttr(MLIRContext *ctx,
                                      const AxisEdges &axisEdges) {
  using Key = std::tuple<int64_t, int64_t, int64_t, int64_t>;
  std::map<int64_t, std::map<std::string, std::pair<AxisRefAttr,
                                                    std::map<std::pair<int64_t,
                                                                       int64_t>,
                                                             std::set<std::pair<
                                                                 int64_t,
                                                                 int64_t>>>>>>
      byStep;
  for (auto &[axis, list] : axisEdges) {
    std::map<Key, int64_t> earliest;
    for (const Edge &edge : list) {
      Key key{static_cast<int64_t>(edge.source.type), edge.source.index,
              static_cast<int64_t>(edge.target.type), edge.target.index};
      auto [it, inserted] = earliest.try_emplace(key, edge.step);
      if (!inserted)
        it->second = std::min(it->second, edge.step);
    }
    for (auto &[key, step] : earliest) {
      auto &[sourceType, sourceIndex, targetType, targetIndex] = key;
      auto &entry = byStep[step][axisRefToString(axis)];
      entry.first = axis;
      entry.second[{sourceType, sourceIndex}].insert({targetType, targetIndex});
    }
  }
  SmallVector<PropagationOneStepAttr> steps;
  for (auto &[step, axes] : byStep) {
    SmallVector<AxisToPropagationDetailsAttr> entries;
    for (auto &[name, entry] : axes) {
      for (auto &[source, targets] : entry.second) {
        SmallVector<EdgeValueRefAttr> targetRefs;
        for (auto [type, index] : targets)
          targetRefs.push_back(EdgeValueRefAttr::get(
              ctx, static_cast<EdgeNodeType>(type), index));
        entries.push_back(AxisToPropagationDetailsAttr::get(
            ctx, entry.first,
            EdgeValueRefAttr::get(ctx, static_cast<EdgeNodeType>(source.first),
                                  source.second),
            targetRefs));
      }
    }
    steps.push_back(PropagationOneStepAttr::get(ctx, step, entries));
  }
  return PropagationEdgesAttr::get(ctx, steps);
}

/// The origins of one value as a dictionary (axis names without quotes).
static DictionaryAttr originsDict(
    MLIRContext *ctx, const llvm::MapVector<AxisRefAttr, std::string> &map) {
  SmallVector<NamedAttribute> entries;
  for (auto &[axis, origin] : map) {
    std::string name = axisRefToString(axis);
    llvm::erase(name, '"');
    entries.emplace_back(StringAttr::get(ctx, name),
                         StringAttr::get(ctx, origin));
  }
  return DictionaryAttr::get(ctx, entries);
}

/// `dict` with the entries equal to `name` replaced by "self".
static DictionaryAttr toSelf(DictionaryAttr dict, StringRef name) {
  if (!dict)
    return dict;
  MLIRContext *ctx = dict.getContext();
  SmallVector<NamedAttribute> entries;
  for (NamedAttribute entry : dict) {
    auto value = dyn_cast<StringAttr>(entry.getValue());
    entries.emplace_back(entry.getName(), value && value.getValue() == name
                                              ? StringAttr::get(ctx, "self")
                                              : entry.getValue());
  }
  return DictionaryAttr::get(ctx, entries);
}

/// Sets the entry of edge owner `owner` in the per-owner array `blockArgName`
/// or `resultName` of `op` (other entries default to `empty`).
static void setOwnerEntry(ShardableDataFlowOpInterface op, Value owner,
                          Attribute entry, StringRef blockArgName,
                          StringRef resultName, Attribute empty) {
  SmallVector<Value> owners;
  StringRef name = resultName;
  if (isa<BlockArgument>(owner)) {
    name = blockArgName;
    llvm::append_range(owners, op.getBlockArgumentEdgeOwners());
  } else {
    llvm::append_range(owners, op.getOpResultEdgeOwners());
  }
  auto it = llvm::find(owners, owner);
  if (it == owners.end())
    return;
  SmallVector<Attribute> entries(owners.size(), empty);
  if (auto existing = op->getAttrOfType<ArrayAttr>(name);
      existing && existing.size() == entries.size())
    entries.assign(existing.begin(), existing.end());
  entries[it - owners.begin()] = entry;
  op->setAttr(name, ArrayAttr::get(op->getContext(), entries));
}

void PropagationDebugInfo::save(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  if (origins) {
    for (auto &[value, map] : state->origins) {
      DictionaryAttr dict = originsDict(ctx, map);
      // A returned value also tells the origins of the function result.
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        auto func = dyn_cast_or_null<FunctionOpInterface>(user->getParentOp());
        if (func && user->hasTrait<OpTrait::IsTerminator>() &&
            use.getOperandNumber() < func.getNumResults())
          func.setResultAttr(use.getOperandNumber(), kShardingOriginsAttr,
                             dict);
      }
      if (ShardableDataFlowOpInterface dataFlowOp = getOwningDataFlowOp(value);
          dataFlowOp && dataFlowOp.getEdgeOwnerFromTarget(value) == value) {
        setOwnerEntry(dataFlowOp, value, dict, kBlockArgShardingOriginsAttr,
                      kResultShardingOriginsAttr, DictionaryAttr::get(ctx, {}));
        continue;
      }
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        if (auto func = dyn_cast<FunctionOpInterface>(
                arg.getOwner()->getParentOp()))
          func.setArgAttr(arg.getArgNumber(), kShardingOriginsAttr, dict);
        continue;
      }
      Operation *op = value.getDefiningOp();
      if (isa<ShardingConstraintOp, DataFlowEdgeOp>(op)) {
        op->setAttr(kShardingOriginsAttr, dict);
        continue;
      }
      SmallVector<Attribute> dicts(op->getNumResults(),
                                   DictionaryAttr::get(ctx, {}));
      if (auto existing = op->getAttrOfType<ArrayAttr>(kShardingOriginsAttr);
          existing && existing.size() == dicts.size())
        dicts.assign(existing.begin(), existing.end());
      dicts[cast<OpResult>(value).getResultNumber()] = dict;
      op->setAttr(kShardingOriginsAttr, ArrayAttr::get(ctx, dicts));
    }
    // What a user wrote came from itself.
    module.walk([&](ShardingConstraintOp constraint) {
      auto name =
          constraint->getAttrOfType<StringAttr>(kShardingOriginNameAttr);
      if (auto dict =
              constraint->getAttrOfType<DictionaryAttr>(kShardingOriginsAttr))
        constraint->setAttr(kShardingOriginsAttr,
                            toSelf(dict, name ? name.getValue() : ""));
    });
    module.walk([&](ManualComputationOp manual) {
      auto name = manual->getAttrOfType<StringAttr>(kShardingOriginNameAttr);
      if (!name)
        return;
      // On the owner's edge op, else in the op's per-owner array.
      auto toSelfOnEdge = [&](Value owner, StringRef origin) {
        if (DataFlowEdgeOp edge = lookupEdgeOp(owner)) {
          if (auto dict =
                  edge->getAttrOfType<DictionaryAttr>(kShardingOriginsAttr))
            edge->setAttr(kShardingOriginsAttr, toSelf(dict, origin));
          return;
        }
        auto arg = dyn_cast<BlockArgument>(owner);
        StringRef name =
            arg ? kBlockArgShardingOriginsAttr : kResultShardingOriginsAttr;
        int64_t index = arg ? arg.getArgNumber()
                            : cast<OpResult>(owner).getResultNumber();
        auto dicts = manual->getAttrOfType<ArrayAttr>(name);
        if (!dicts || index >= static_cast<int64_t>(dicts.size()))
          return;
        SmallVector<Attribute> entries(dicts.begin(), dicts.end());
        entries[index] =
            toSelf(dyn_cast<DictionaryAttr>(entries[index]), origin);
        if (entries[index])
          manual->setAttr(name, ArrayAttr::get(ctx, entries));
      };
      for (BlockArgument arg : manual.getBody().getArguments())
        toSelfOnEdge(arg, (name.getValue() + "_input: " +
                           Twine(arg.getArgNumber())).str());
      for (OpResult result : manual->getResults())
        toSelfOnEdge(result, (name.getValue() + "_output: " +
                              Twine(result.getResultNumber())).str());
    });
    for (auto func : module.getOps<FunctionOpInterface>()) {
      for (int64_t i = 0, e = func.getNumArguments(); i < e; ++i)
        if (auto dict =
                func.getArgAttrOfType<DictionaryAttr>(i, kShardingOriginsAttr))
          func.setArgAttr(i, kShardingOriginsAttr,
                          toSelf(dict, "input: " + std::to_string(i)));
      for (int64_t i = 0, e = func.getNumResults(); i < e; ++i)
        if (auto dict = func.getResultAttrOfType<DictionaryAttr>(
                i, kShardingOriginsAttr))
          func.setResultAttr(i, kShardingOriginsAttr,
                             toSelf(dict, "output: " + std::to_string(i)));
    }
  }
  if (edges) {
    for (auto &[op, axisEdges] : state->opEdges) {
      PropagationEdgesAttr attr = edgesAttr(ctx, axisEdges);
      if (!attr.getValue().empty())
        op->setAttr(kPropagationEdgesAttr, attr);
    }
    for (auto &[owner, axisEdges] : state->ownerEdges) {
      PropagationEdgesAttr attr = edgesAttr(ctx, axisEdges);
      if (!attr.getValue().empty())
        setOwnerEntry(getOwningDataFlowOp(owner), owner, attr,
                      kBlockArgPropagationEdgesAttr,
                      kResultPropagationEdgesAttr,
                      PropagationEdgesAttr::get(ctx, {}));
    }
    for (auto &[key, axisEdges] : state->resultEdges) {
      auto func = cast<FunctionOpInterface>(key.first);
      PropagationEdgesAttr attr = edgesAttr(ctx, axisEdges);
      if (!attr.getValue().empty())
        func.setResultAttr(key.second, kPropagationEdgesAttr, attr);
    }
  }
}
