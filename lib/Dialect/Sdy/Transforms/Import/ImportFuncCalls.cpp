//===- ImportFuncCalls.cpp - func.call becomes sdy.named_computation ------===//

#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Common/DataFlowEdges.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_IMPORTFUNCCALLSPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// The in or out shardings of a named computation from a function's
/// argument or result shardings: null if none has one, unsharded entries
/// fully open on the mesh of the first sharding.
TensorShardingPerValueAttr
perValue(MLIRContext *ctx, TypeRange types,
         llvm::function_ref<TensorShardingAttr(unsigned)> shardingOf) {
  TensorShardingAttr any;
  for (unsigned i = 0; i < types.size() && !any; ++i)
    any = shardingOf(i);
  if (!any)
    return {};
  SmallVector<TensorShardingAttr> shardings;
  for (auto [i, type] : llvm::enumerate(types)) {
    TensorShardingAttr sharding = shardingOf(i);
    auto ranked = dyn_cast<RankedTensorType>(type);
    shardings.push_back(sharding ? sharding
                                 : TensorShardingAttr::getFullyOpen(
                                       ctx, ranked ? ranked.getRank() : 0,
                                       any.getMeshOrRef()));
  }
  return TensorShardingPerValueAttr::get(ctx, shardings);
}

struct ImportFuncCallsPass
    : sdy::impl::ImportFuncCallsPassBase<ImportFuncCallsPass> {
  using ImportFuncCallsPassBase::ImportFuncCallsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Callees before callers, so a copied body holds no calls any more.
    SmallVector<func::FuncOp> order;
    llvm::DenseMap<Operation *, int> state; // 1: visiting, 2: done
    llvm::DenseMap<StringAttr, int64_t> callCount;
    bool recursive = false;
    std::function<void(func::FuncOp)> visit = [&](func::FuncOp func) {
      state[func] = 1;
      func.walk([&](func::CallOp call) {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (!callee || callee.isDeclaration() || recursive)
          return;
        if (state.lookup(callee) == 1) {
          call.emitOpError("is recursive (calls @")
              << call.getCallee()
              << " from inside it): sdy-import-func-calls cannot inline it";
          recursive = true;
          return;
        }
        if (!state.lookup(callee))
          visit(callee);
      });
      state[func] = 2;
      order.push_back(func);
    };
    for (auto func : module.getOps<func::FuncOp>())
      if (!state.lookup(func) && !recursive)
        visit(func);
    if (recursive)
      return signalPassFailure();

    module.walk([&](func::CallOp call) { ++callCount[call.getCalleeAttr().getAttr()]; });
    if (callCount.empty())
      return markAllAnalysesPreserved();
    for (func::FuncOp func : order) {
      SmallVector<func::CallOp> calls;
      func.walk([&](func::CallOp call) { calls.push_back(call); });
      for (func::CallOp call : calls)
        if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
            callee && !callee.isDeclaration())
          inlineCall(call, callee, callCount);
    }
    // A private callee whose calls all became named computations is dead
    // (what symbol-dce would erase after this pass in Shardy's pipeline).
    for (func::FuncOp func : order)
      if (func.isPrivate() && callCount.contains(func.getSymNameAttr()) &&
          SymbolTable::symbolKnownUseEmpty(func, module))
        symbols.erase(func);
  }

  void inlineCall(func::CallOp call, func::FuncOp callee,
                  const llvm::DenseMap<StringAttr, int64_t> &callCount) {
    MLIRContext *ctx = call.getContext();
    if (callCount.lookup(call.getCalleeAttr().getAttr()) > 1)
      call.emitWarning("function @")
          << call.getCallee()
          << " is called more than once: its body is copied for each call";
    auto in = perValue(ctx, callee.getArgumentTypes(), [&](unsigned i) {
      return callee.getArgAttrOfType<TensorShardingAttr>(i, kShardingAttr);
    });
    auto out = perValue(ctx, callee.getResultTypes(), [&](unsigned i) {
      return callee.getResultAttrOfType<TensorShardingAttr>(i, kShardingAttr);
    });
    OpBuilder builder(call);
    auto named = NamedComputationOp::create(
        builder, call.getLoc(), call.getResultTypes(), callee.getSymName(),
        call.getOperands(), in, out);
    IRMapping mapping;
    callee.getBody().cloneInto(&named.getBody(), mapping);
    Block &body = named.getBody().front();
    Operation *terminator = body.getTerminator();
    builder.setInsertionPoint(terminator);
    ReturnOp::create(builder, terminator->getLoc(), terminator->getOperands());
    terminator->erase();
    call.replaceAllUsesWith(named.getResults());
    call.erase();
    if (addDataFlowEdgesOnNamedComputations)
      addDataFlowEdges(cast<ShardableDataFlowOpInterface>(*named));
  }
};

} // namespace
