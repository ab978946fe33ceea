//===- DataFlowEdges.cpp - add and sink sdy.data_flow_edge ops ------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Common/DataFlowEdges.h"

#include "meshsdy/Dialect/Sdy/Transforms/Propagation/DebugNames.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardableValues.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::sdy;

void mlir::sdy::addDataFlowEdges(ShardableDataFlowOpInterface op) {
  OpBuilder builder(op->getContext());
  auto add = [&](Value owner) {
    if (!isa<RankedTensorType>(owner.getType()) || lookupEdgeOp(owner))
      return;
    TensorShardingAttr sharding = op.getEdgeOwnerSharding(owner);
    // Inside a manual computation the body is local w.r.t. the manual axes:
    // the edge of a block argument holds its sharding without them.
    if (auto manual = dyn_cast<ManualComputationOp>(op.getOperation());
        manual && isa<BlockArgument>(owner))
      sharding = eraseManualAxes(sharding, manual.getManualAxes());
    auto edge =
        DataFlowEdgeOp::create(builder, owner.getLoc(), owner, sharding);
    owner.replaceAllUsesExcept(edge.getResult(), edge);
  };
  for (BlockArgument arg : op.getBlockArgumentEdgeOwners()) {
    builder.setInsertionPointToStart(arg.getOwner());
    add(arg);
  }
  builder.setInsertionPointAfter(op);
  for (Value result : op.getOpResultEdgeOwners())
    add(result);
}

namespace {

/// The shardings and debug attributes of one kind of edge owner (block
/// arguments or results) of a data-flow op, gathered from its edge ops.
struct OwnerShardings {
  SmallVector<TensorShardingAttr> shardings;
  SmallVector<Attribute> origins, edges;
  bool anyEdge = false, anyOrigin = false, anyPropagationEdge = false;
};

template <typename Range>
OwnerShardings collect(ShardableDataFlowOpInterface op, Range owners,
                       SmallVectorImpl<DataFlowEdgeOp> &edgeOps) {
  OwnerShardings result;
  MLIRContext *ctx = op->getContext();
  for (Value owner : owners) {
    TensorShardingAttr sharding = op.getEdgeOwnerSharding(owner);
    Attribute origins = DictionaryAttr::get(ctx),
              edges = PropagationEdgesAttr::get(ctx, {});
    if (DataFlowEdgeOp edge = lookupEdgeOp(owner)) {
      result.anyEdge = true;
      edgeOps.push_back(edge);
      sharding = edge.getShardingAttr();
      if (Attribute attr = edge->getAttr(kShardingOriginsAttr)) {
        origins = attr;
        result.anyOrigin = true;
      }
      if (Attribute attr = edge->getAttr(kPropagationEdgesAttr)) {
        edges = attr;
        result.anyPropagationEdge = true;
      }
    }
    result.shardings.push_back(sharding);
    result.origins.push_back(origins);
    result.edges.push_back(edges);
  }
  return result;
}

/// `shardings` with null entries made fully open on the mesh of the first
/// sharding, or empty if all are null.
SmallVector<TensorShardingAttr> fillOpen(ArrayRef<TensorShardingAttr> shardings,
                                         ArrayRef<Value> owners) {
  auto first = llvm::find_if(shardings,
                             [](TensorShardingAttr s) { return bool(s); });
  if (first == shardings.end())
    return {};
  SmallVector<TensorShardingAttr> filled;
  for (auto [sharding, owner] : llvm::zip_equal(shardings, owners)) {
    if (sharding) {
      filled.push_back(sharding);
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(owner.getType());
    filled.push_back(TensorShardingAttr::getFullyOpen(
        owner.getContext(), type ? type.getRank() : 0,
        (*first).getMeshOrRef()));
  }
  return filled;
}

} // namespace

void mlir::sdy::sinkDataFlowEdges(ShardableDataFlowOpInterface op,
                                  SinkDebugOptions debug) {
  SmallVector<DataFlowEdgeOp> edgeOps;
  SmallVector<Value> argOwners(op.getBlockArgumentEdgeOwners());
  SmallVector<Value> resultOwners(op.getOpResultEdgeOwners());
  OwnerShardings args = collect(op, argOwners, edgeOps);
  OwnerShardings results = collect(op, resultOwners, edgeOps);
  MLIRContext *ctx = op->getContext();
  auto sink = [&](OwnerShardings &owners, ArrayRef<Value> values,
                  bool isArg) {
    if (!owners.anyEdge)
      return;
    SmallVector<TensorShardingAttr> filled = fillOpen(owners.shardings, values);
    // Block-argument edges of a manual computation hold local shardings;
    // its in-shardings are global (the manual axes in front).
    if (auto manual = dyn_cast<ManualComputationOp>(op.getOperation());
        manual && isArg && !filled.empty())
      for (auto [i, sharding] : llvm::enumerate(filled))
        sharding = addManualAxes(manual.getInShardings().getSharding(i),
                                 sharding, manual);
    if (!filled.empty()) {
      if (isArg)
        op.setBlockArgumentEdgeOwnerShardings(filled);
      else
        op.setOpResultEdgeOwnerShardings(filled);
    }
    if (debug.shardingOrigins && owners.anyOrigin)
      op->setAttr(isArg ? kBlockArgShardingOriginsAttr
                        : kResultShardingOriginsAttr,
                  ArrayAttr::get(ctx, owners.origins));
    if (debug.propagationEdges && owners.anyPropagationEdge)
      op->setAttr(isArg ? kBlockArgPropagationEdgesAttr
                        : kResultPropagationEdgesAttr,
                  ArrayAttr::get(ctx, owners.edges));
  };
  sink(args, argOwners, /*isArg=*/true);
  sink(results, resultOwners, /*isArg=*/false);
  for (DataFlowEdgeOp edge : edgeOps) {
    edge.getResult().replaceAllUsesWith(edge.getInput());
    edge->erase();
  }
}
