//===- ApplyShardingConstraints.cpp - constraints that dictate shardings --===//

#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardableValues.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_APPLYSHARDINGCONSTRAINTSPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// The sharding `user` asks `value` to have, if it is a constraint or a
/// manual computation (a constraint on each of its operands), else null.
TensorShardingAttr constraintOf(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto constraint = dyn_cast<ShardingConstraintOp>(user))
    return constraint.getSharding();
  if (auto manual = dyn_cast<ManualComputationOp>(user))
    return manual.getInShardings().getSharding(use.getOperandNumber());
  return {};
}

/// Whether `value` gets its sharding through a data-flow edge (a loop
/// result, a named computation's block argument, ...).
bool isDataFlowTarget(Value value) {
  return getOwningDataFlowOp(value) ||
         isa_and_nonnull<DataFlowEdgeOp>(value.getDefiningOp());
}

/// Whether `use` dictates the sharding of its value: the value has none,
/// the sharding is fully closed, and no other constraint-like user asks for
/// a different one.
bool dictatesSharding(OpOperand &use, TensorShardingAttr sharding) {
  Value value = use.get();
  if (!sharding || !sharding.isFullyClosed() || getValueSharding(value))
    return false;
  return llvm::all_of(value.getUses(), [&](OpOperand &other) {
    TensorShardingAttr asked = constraintOf(other);
    return !asked || asked == sharding;
  });
}

/// Applies the constraint `use` to its value.
void apply(OpOperand &use, TensorShardingAttr sharding) {
  Value value = use.get();
  if (!isDataFlowTarget(value)) {
    setValueSharding(value, sharding);
    return;
  }
  // Setting the sharding on a data-flow target would set it on every target
  // of the edge; the constraint's own result carries it instead, for every
  // use: the constraint moves up to right after the value, so that it
  // dominates the uses before it too.
  auto constraint = dyn_cast<ShardingConstraintOp>(use.getOwner());
  if (!constraint)
    return;
  if (Operation *def = value.getDefiningOp())
    constraint->moveAfter(def);
  else
    constraint->moveBefore(&cast<BlockArgument>(value).getOwner()->front());
  value.replaceAllUsesExcept(constraint.getResult(), constraint);
}

/// For a chain `x -> c1 -> ... -> cn` (n >= 2) starting at `first`,
/// redirects the uses of `x` after `cn` in its block (except returns) to
/// `cn`: the chain dictates the sharding of what comes after it.
void applyChain(ShardingConstraintOp first) {
  Value input = first.getInput();
  if (isa_and_nonnull<ShardingConstraintOp>(input.getDefiningOp()) ||
      getValueSharding(input))
    return;
  for (Operation *user : input.getUsers())
    if (isa<ShardingConstraintOp>(user) && user != first)
      return;
  ShardingConstraintOp last = first;
  while (last.getResult().hasOneUse()) {
    auto next = dyn_cast<ShardingConstraintOp>(*last->user_begin());
    if (!next)
      break;
    last = next;
  }
  if (last == first ||
      llvm::any_of(last->getUsers(), llvm::IsaPred<ShardingConstraintOp>))
    return;
  Block *block = last->getBlock();
  input.replaceUsesWithIf(last.getResult(), [&](OpOperand &use) {
    Operation *owner = use.getOwner();
    return owner != first && owner->getBlock() == block &&
           last->isBeforeInBlock(owner) &&
           !owner->hasTrait<OpTrait::ReturnLike>();
  });
}

struct ApplyShardingConstraintsPass
    : sdy::impl::ApplyShardingConstraintsPassBase<
          ApplyShardingConstraintsPass> {
  using ApplyShardingConstraintsPassBase::ApplyShardingConstraintsPassBase;

  void runOnOperation() override {
    // In program order, as Shardy does: a chain redirects uses first, then
    // the constraint may apply to its input.
    bool any = false;
    getOperation().walk([&](Operation *op) {
      any |= isa<ShardingConstraintOp, ManualComputationOp>(op);
      if (auto constraint = dyn_cast<ShardingConstraintOp>(op)) {
        applyChain(constraint);
        OpOperand &use = constraint.getInputMutable();
        if (dictatesSharding(use, constraint.getSharding()))
          apply(use, constraint.getSharding());
      } else if (auto manual = dyn_cast<ManualComputationOp>(op)) {
        for (OpOperand &use : manual->getOpOperands()) {
          TensorShardingAttr sharding = constraintOf(use);
          if (!isDataFlowTarget(use.get()) && dictatesSharding(use, sharding))
            apply(use, sharding);
        }
      }
    });
    if (!any)
      markAllAnalysesPreserved();
  }
};

} // namespace
