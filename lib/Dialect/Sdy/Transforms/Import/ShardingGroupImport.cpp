//===- ShardingGroupImport.cpp - merge and validate sharding groups -------===//

#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_SHARDINGGROUPIMPORTPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct ShardingGroupImportPass
    : sdy::impl::ShardingGroupImportPassBase<ShardingGroupImportPass> {
  void runOnOperation() override {
    llvm::MapVector<Value, SmallVector<ShardingGroupOp>> groupsOfValue;
    // Validation on the groups as written (before merging): each group's
    // members live in one manual computation body (or none). (The verifier
    // already checks that they have one shape.)
    llvm::DenseMap<int64_t, Operation *> manualOf;
    WalkResult result = getOperation().walk([&](ShardingGroupOp op) {
      groupsOfValue[op.getInput()].push_back(op);
      auto manual = op->getParentOfType<ManualComputationOp>();
      auto [it, inserted] = manualOf.try_emplace(op.getGroupId(), manual);
      if (!inserted && it->second != manual) {
        op.emitOpError("sharding group ")
            << op.getGroupId()
            << " crosses a manual computation boundary: all members must be "
               "defined in the same manual computation body or outside any";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (groupsOfValue.empty())
      return markAllAnalysesPreserved();

    // A value in several groups merges them.
    llvm::EquivalenceClasses<int64_t> classes;
    for (auto &[value, ops] : groupsOfValue)
      for (ShardingGroupOp op : ops)
        classes.unionSets(ops.front().getGroupId(), op.getGroupId());
    // Renumber the classes 0..N-1 in the order of their smallest id.
    SmallVector<int64_t> leaders;
    for (const auto *member : classes)
      if (member->isLeader())
        leaders.push_back(*classes.findLeader(member->getData()));
    llvm::DenseMap<int64_t, int64_t> smallest;
    for (int64_t leader : leaders) {
      int64_t minId = leader;
      for (auto it = classes.findLeader(leader); it != classes.member_end();
           ++it)
        minId = std::min(minId, *it);
      smallest[leader] = minId;
    }
    llvm::sort(leaders, [&](int64_t a, int64_t b) {
      return smallest[a] < smallest[b];
    });
    llvm::DenseMap<int64_t, int64_t> newId;
    for (auto [index, leader] : llvm::enumerate(leaders))
      newId[leader] = index;

    for (auto &[value, ops] : groupsOfValue) {
      int64_t id = newId[classes.getLeaderValue(ops.front().getGroupId())];
      // One group op per value is enough.
      for (ShardingGroupOp op : llvm::drop_begin(ops))
        op->erase();
      ops.front().setGroupId(id);
    }
  }
};

} // namespace
