//===- ScfDataFlowModels.cpp - scf ops as sdy data-flow ops ---------------===//
//
// ShardableDataFlowOpInterface models for scf.for, scf.while, scf.if and
// scf.index_switch:
// each result owns one edge linking the values that must share its sharding
// (what flows into the result and the block arguments that carry it). The
// sharding of an edge owner lives in the op's `sdy.sharding` (one entry per
// result), or on the owner's `sdy.data_flow_edge` when the import stage adds
// one.
//
//   %r = scf.for ... iter_args(%c = %init) { ...; scf.yield %next }
//     edge of %r: sources %init, %next; targets %r (owner), %c
//   %r = scf.while (%b = %init) { scf.condition(%p) %v } do { ^(%a): yield %n }
//     edge of %r: sources %init, %n, %v; targets %r (owner), %b, %a
//     (if the before-arguments and results differ in types, only %v -> %r,
//     %a; %b then has no edge and no sharding)
//   %r = scf.if %p { yield %x } else { yield %y }
//     edge of %r: sources %x, %y; target %r
//   %r = scf.index_switch %i case 0 { yield %x } ... default { yield %y }
//     edge of %r: sources the yield of every case and the default; target %r
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Interfaces/ExternalModels.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::sdy;

namespace {
/// What all the models share: result owners, shardings in `sdy.sharding`,
/// no block-argument owners.
template <typename Model, typename OpTy>
struct ResultOwnerModel
    : public ShardableDataFlowOpInterface::ExternalModel<Model, OpTy> {
  ArrayRef<TensorShardingAttr>
  getBlockArgumentEdgeOwnerShardings(Operation *) const {
    return {};
  }
  void setBlockArgumentEdgeOwnerShardings(
      Operation *, ArrayRef<TensorShardingAttr>) const {}
  ArrayRef<BlockArgument> getBlockArgumentEdgeOwners(Operation *) const {
    return {};
  }
  ArrayRef<TensorShardingAttr>
  getOpResultEdgeOwnerShardings(Operation *op) const {
    if (auto shardings =
            op->getAttrOfType<TensorShardingPerValueAttr>(kShardingAttr))
      return shardings.getShardings();
    return {};
  }
  void setOpResultEdgeOwnerShardings(
      Operation *op, ArrayRef<TensorShardingAttr> shardings) const {
    op->setAttr(kShardingAttr,
                TensorShardingPerValueAttr::get(op->getContext(), shardings));
  }
  // The interface's default reaches the shardings through methods of the op
  // class, which an external model does not add.
  TensorShardingAttr getEdgeOwnerSharding(Operation *op, Value owner) const {
    auto result = dyn_cast<OpResult>(owner);
    ArrayRef<TensorShardingAttr> shardings =
        getOpResultEdgeOwnerShardings(op);
    if (!result || result.getOwner() != op ||
        result.getResultNumber() >= shardings.size())
      return {};
    return shardings[result.getResultNumber()];
  }
};

/// The result `index` of `op` if in range.
static Value resultAt(Operation *op, int64_t index) {
  return index >= 0 && index < op->getNumResults() ? op->getResult(index)
                                                   : Value();
}

struct ForModel : ResultOwnerModel<ForModel, scf::ForOp> {
  SmallVector<OpOperand *> getEdgeSources(Operation *op, Value owner) const {
    auto forOp = cast<scf::ForOp>(op);
    auto result = dyn_cast<OpResult>(owner);
    if (!result || result.getOwner() != op)
      return {};
    unsigned i = result.getResultNumber();
    SmallVector<OpOperand *> sources{&forOp.getInitArgsMutable()[i]};
    if (auto yielded = forOp.getYieldedValuesMutable())
      if (i < yielded->size())
        sources.push_back(&(*yielded)[i]);
    return sources;
  }
  Value getEdgeOwnerFromTarget(Operation *op, Value target) const {
    if (auto result = dyn_cast<OpResult>(target))
      return result.getOwner() == op ? target : Value();
    auto arg = dyn_cast<BlockArgument>(target);
    auto forOp = cast<scf::ForOp>(op);
    if (!arg || arg.getOwner()->getParentOp() != op ||
        arg == forOp.getInductionVar())
      return {};
    return forOp.getTiedLoopResult(arg);
  }
  Value getEdgeOwnerFromSource(Operation *op, OpOperand &source) const {
    auto forOp = cast<scf::ForOp>(op);
    if (source.getOwner() == op) {
      int64_t index = static_cast<int64_t>(source.getOperandNumber()) -
                      forOp.getNumControlOperands();
      return resultAt(op, index);
    }
    if (source.getOwner()->getParentOp() == op &&
        isa<scf::YieldOp>(source.getOwner()))
      return resultAt(op, source.getOperandNumber());
    return {};
  }
  SmallVector<Value> getNonEdgeOwnerTargets(Operation *op, Value owner) const {
    auto forOp = cast<scf::ForOp>(op);
    auto result = dyn_cast<OpResult>(owner);
    if (!result || result.getOwner() != op)
      return {};
    return {forOp.getRegionIterArgs()[result.getResultNumber()]};
  }
};

struct WhileModel : ResultOwnerModel<WhileModel, scf::WhileOp> {
  /// Whether the before-arguments carry the results (same count and types),
  /// so one edge per position links all of them.
  static bool isAligned(scf::WhileOp op) {
    return ValueRange(op.getBeforeArguments()).getTypes() ==
           op.getResultTypes();
  }
  SmallVector<OpOperand *> getEdgeSources(Operation *op, Value owner) const {
    auto whileOp = cast<scf::WhileOp>(op);
    auto result = dyn_cast<OpResult>(owner);
    if (!result || result.getOwner() != op)
      return {};
    unsigned i = result.getResultNumber();
    SmallVector<OpOperand *> sources;
    if (isAligned(whileOp)) {
      sources.push_back(&whileOp.getInitsMutable()[i]);
      sources.push_back(&whileOp.getYieldOp()->getOpOperand(i));
    }
    sources.push_back(&whileOp.getConditionOp().getArgsMutable()[i]);
    return sources;
  }
  Value getEdgeOwnerFromTarget(Operation *op, Value target) const {
    auto whileOp = cast<scf::WhileOp>(op);
    if (auto result = dyn_cast<OpResult>(target))
      return result.getOwner() == op ? target : Value();
    auto arg = dyn_cast<BlockArgument>(target);
    if (!arg || arg.getOwner()->getParentOp() != op)
      return {};
    if (arg.getOwner() == whileOp.getAfterBody() || isAligned(whileOp))
      return resultAt(op, arg.getArgNumber());
    return {};
  }
  Value getEdgeOwnerFromSource(Operation *op, OpOperand &source) const {
    auto whileOp = cast<scf::WhileOp>(op);
    Operation *user = source.getOwner();
    if (isa<scf::ConditionOp>(user) && user->getParentOp() == op)
      return resultAt(op, static_cast<int64_t>(source.getOperandNumber()) - 1);
    if (!isAligned(whileOp))
      return {};
    if (user == op || (isa<scf::YieldOp>(user) && user->getParentOp() == op))
      return resultAt(op, source.getOperandNumber());
    return {};
  }
  SmallVector<Value> getNonEdgeOwnerTargets(Operation *op, Value owner) const {
    auto whileOp = cast<scf::WhileOp>(op);
    auto result = dyn_cast<OpResult>(owner);
    if (!result || result.getOwner() != op)
      return {};
    unsigned i = result.getResultNumber();
    SmallVector<Value> targets;
    if (isAligned(whileOp))
      targets.push_back(whileOp.getBeforeArguments()[i]);
    if (i < whileOp.getAfterArguments().size())
      targets.push_back(whileOp.getAfterArguments()[i]);
    return targets;
  }
};

/// A branch (scf.if, scf.index_switch): each result is what one of its
/// regions yields.
template <typename OpTy>
struct BranchModel : ResultOwnerModel<BranchModel<OpTy>, OpTy> {
  SmallVector<OpOperand *> getEdgeSources(Operation *op, Value owner) const {
    auto result = dyn_cast<OpResult>(owner);
    if (!result || result.getOwner() != op)
      return {};
    SmallVector<OpOperand *> sources;
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      Operation *yield = region.front().getTerminator();
      if (yield && result.getResultNumber() < yield->getNumOperands())
        sources.push_back(&yield->getOpOperand(result.getResultNumber()));
    }
    return sources;
  }
  Value getEdgeOwnerFromTarget(Operation *op, Value target) const {
    auto result = dyn_cast<OpResult>(target);
    return result && result.getOwner() == op ? target : Value();
  }
  Value getEdgeOwnerFromSource(Operation *op, OpOperand &source) const {
    Operation *user = source.getOwner();
    if (isa<scf::YieldOp>(user) && user->getParentOp() == op)
      return resultAt(op, source.getOperandNumber());
    return {};
  }
};
} // namespace

void mlir::meshsdy::registerScfDataFlowModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, scf::SCFDialect *) {
    scf::ForOp::attachInterface<ForModel>(*ctx);
    scf::WhileOp::attachInterface<WhileModel>(*ctx);
    scf::IfOp::attachInterface<BranchModel<scf::IfOp>>(*ctx);
    scf::IndexSwitchOp::attachInterface<BranchModel<scf::IndexSwitchOp>>(*ctx);
  });
}
