//===- ShardingGroups.h - values that must be sharded alike -----*- C++ -*-===//
//
// The members of an `sdy.sharding_group` (the inputs of the sharding_group
// ops with one group id) get one sharding: when propagation changes the
// sharding of a member, every other member gets the same sharding. Groups
// sharing a value are merged (the import stage normally does that already).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_SHARDINGGROUPS_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_SHARDINGGROUPS_H

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::sdy {

class ShardingGroups {
public:
  /// Collects the groups of `module`, keyed by the values whose shardings
  /// the members read and write (see ShardableValues.h).
  explicit ShardingGroups(ModuleOp module);

  /// Gives all members of each group one sharding before propagation: the
  /// sharding of the members that have one, if they agree. If they don't,
  /// warns and puts an open `sdy.sharding_constraint` after each member,
  /// which becomes the member instead (so propagation can still shard the
  /// group alike). Returns the number of groups with conflicting members.
  int64_t sync(ModuleOp module);

  /// The members of the group of `shardable` (empty if none).
  ArrayRef<Value> getMembers(Value shardable) const;

private:
  SmallVector<SmallVector<Value>> groups;
  llvm::DenseMap<Value, int64_t> groupOf;
};

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_SHARDINGGROUPS_H
