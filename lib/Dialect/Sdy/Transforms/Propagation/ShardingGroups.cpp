//===- ShardingGroups.cpp - values that must be sharded alike -------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardingGroups.h"

#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardableValues.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::sdy;

ShardingGroups::ShardingGroups(ModuleOp module) {
  // Union of group ids sharing a value, then one list per class.
  llvm::EquivalenceClasses<int64_t> ids;
  llvm::MapVector<Value, int64_t> firstId;
  SmallVector<std::pair<int64_t, Value>> members;
  module.walk([&](ShardingGroupOp op) {
    int64_t id = op.getGroupId();
    ids.insert(id);
    Value shardable = getShardableValue(op.getInput());
    if (!shardable)
      return;
    auto [it, inserted] = firstId.try_emplace(shardable, id);
    if (!inserted)
      ids.unionSets(it->second, id);
    else
      members.emplace_back(id, shardable);
  });
  llvm::DenseMap<int64_t, int64_t> indexOfLeader;
  for (auto [id, value] : members) {
    int64_t leader = ids.getLeaderValue(id);
    auto [it, inserted] = indexOfLeader.try_emplace(leader, groups.size());
    if (inserted)
      groups.emplace_back();
    groups[it->second].push_back(value);
    groupOf[value] = it->second;
  }
}

ArrayRef<Value> ShardingGroups::getMembers(Value shardable) const {
  auto it = groupOf.find(shardable);
  if (it == groupOf.end())
    return {};
  return groups[it->second];
}

/// Whether `sharding` says nothing: no axes, all dimensions open.
static bool isEmptyAndOpen(TensorShardingAttr sharding) {
  return sharding.getReplicatedAxes().empty() &&
         sharding.getUnreducedAxes().empty() &&
         llvm::all_of(sharding.getDimShardings(),
                      [](DimensionShardingAttr dim) {
                        return dim.emptyAxes() && dim.isOpen();
                      });
}

int64_t ShardingGroups::sync(ModuleOp module) {
  int64_t conflicts = 0;
  for (SmallVector<Value> &group : groups) {
    TensorShardingAttr common;
    bool conflict = false;
    for (Value member : group) {
      TensorShardingAttr sharding = getValueSharding(member);
      if (!sharding || isEmptyAndOpen(sharding))
        continue;
      if (!common)
        common = sharding;
      else if (sharding != common)
        conflict = true;
    }
    if (!common)
      continue;
    if (!conflict) {
      for (Value member : group)
        if (auto type = dyn_cast<ShapedType>(member.getType());
            type && type.hasRank() && type.getRank() == common.getRank())
          setValueSharding(member, common);
      continue;
    }
    ++conflicts;
    Operation *first = group.front().getDefiningOp();
    Location loc = group.front().getLoc();
    (first ? first->emitWarning() : emitWarning(loc))
        << "the shardings of the members of a sharding group don't match; "
           "each member gets an open sharding constraint instead";
    for (Value &member : group) {
      OpBuilder builder(module.getContext());
      builder.setInsertionPointAfterValue(member);
      auto type = cast<ShapedType>(member.getType());
      auto constraint = ShardingConstraintOp::create(
          builder, member.getLoc(), member,
          TensorShardingAttr::getFullyOpen(module.getContext(),
                                           type.getRank(),
                                           common.getMeshOrRef()));
      member.replaceAllUsesExcept(constraint.getResult(), constraint);
      groupOf.erase(member);
      int64_t index = &group - groups.data();
      member = constraint.getResult();
      groupOf[member] = index;
    }
  }
  return conflicts;
}
