//===- ConstrainCollectiveOperands.cpp - collectives keep their input -----===//
//
// A collective's verifier checks it against its operand's sharding, which
// propagation decides: a collective written before propagation (the user's
// own) would be made invalid by whatever reaches its operand. Each such
// operand is pinned, at the collective's use only, to the sharding the
// collective was written against.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_CONSTRAINCOLLECTIVEOPERANDSPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// `sharding` with every dimension closed (the same axes: what a verifier
/// compares), without priorities.
TensorShardingAttr closed(TensorShardingAttr sharding) {
  MLIRContext *ctx = sharding.getContext();
  SmallVector<DimensionShardingAttr> dims;
  for (DimensionShardingAttr dim : sharding.getDimShardings())
    dims.push_back(DimensionShardingAttr::get(ctx, dim.getAxes(),
                                              /*is_closed=*/true,
                                              /*priority=*/std::nullopt));
  return TensorShardingAttr::get(ctx, sharding.getMeshOrRef(), dims,
                                 sharding.getReplicatedAxes(),
                                 sharding.getUnreducedAxes());
}

/// Whether `value` is a function argument, whose sharding the export may
/// rewrite even when closed (sdy-update-non-divisible-input-output-shardings).
bool isFunctionArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

/// The sharding `collective` was written against: its operand's, or, when
/// the operand has none, replicated on the mesh of `out_sharding` (as the
/// verifier reads a missing one). Null if nothing can change it (already
/// fully closed, and not a function argument).
TensorShardingAttr pinnedOperandSharding(CollectiveOpInterface collective) {
  TensorShardingAttr current = getSharding(collective.getTensor());
  if (!current)
    return TensorShardingAttr::getFullyClosed(
        collective->getContext(), collective.getOutSharding().getRank(),
        collective.getOutSharding().getMeshOrRef());
  if (current.isFullyClosed() && !isFunctionArgument(collective.getTensor()))
    return {};
  return closed(current);
}

struct ConstrainCollectiveOperandsPass
    : sdy::impl::ConstrainCollectiveOperandsPassBase<
          ConstrainCollectiveOperandsPass> {
  void runOnOperation() override {
    int64_t constrained = 0;
    getOperation().walk([&](CollectiveOpInterface collective) {
      // Its result is fixed too: an axis propagation added to an open
      // dimension of out_sharding would not follow from the operand.
      TensorShardingAttr out = collective.getOutSharding();
      if (!out.isFullyClosed())
        collective.setOutShardingAttr(closed(out));
      TensorShardingAttr pinned = pinnedOperandSharding(collective);
      if (!pinned)
        return;
      Value tensor = collective.getTensor();
      OpBuilder builder(collective);
      auto constraint = ShardingConstraintOp::create(
          builder, collective->getLoc(), tensor, pinned);
      collective->replaceUsesOfWith(tensor, constraint.getResult());
      ++constrained;
    });
    numConstrained += constrained;
    if (constrained == 0)
      markAllAnalysesPreserved();
  }
};

} // namespace
