//===- ExportNamedComputations.cpp - named computations become calls ------===//

#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Common/DataFlowEdges.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_EXPORTNAMEDCOMPUTATIONSPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct ExportNamedComputationsPass
    : sdy::impl::ExportNamedComputationsPassBase<ExportNamedComputationsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // (name, in shardings, out shardings) -> the function made for them.
    using Key = std::tuple<Attribute, Attribute, Attribute>;
    llvm::DenseMap<Key, func::FuncOp> functions;
    SmallVector<NamedComputationOp> computations;
    // Post-order: inner computations become calls before their parent's
    // body is moved into a function.
    module.walk([&](NamedComputationOp op) { computations.push_back(op); });
    if (computations.empty())
      return markAllAnalysesPreserved();
    for (NamedComputationOp op : computations) {
      sinkDataFlowEdges(cast<ShardableDataFlowOpInterface>(*op));
      Key key{op.getNameAttr(), op.getInShardingsAttr(),
              op.getOutShardingsAttr()};
      func::FuncOp &func = functions[key];
      if (!func)
        func = outline(op, symbols);
      OpBuilder builder(op);
      auto call = func::CallOp::create(builder, op.getLoc(), func,
                                       op.getOperands());
      if (TensorShardingPerValueAttr out = op.getOutShardingsAttr())
        call->setAttr(kShardingAttr, out);
      op.replaceAllUsesWith(call.getResults());
      op->erase();
    }
  }

  /// A private function with the body and shardings of `op`.
  static func::FuncOp outline(NamedComputationOp op, SymbolTable &symbols) {
    OpBuilder builder(op->getContext());
    auto type = builder.getFunctionType(op.getOperandTypes(),
                                        op.getResultTypes());
    auto func = func::FuncOp::create(builder, op.getLoc(), op.getName(), type);
    func.setPrivate();
    // Inserting renames `name` to `name_<n>` if it is taken.
    symbols.insert(func);
    func.getBody().takeBody(op.getBody());
    Block &body = func.getBody().front();
    Operation *terminator = body.getTerminator();
    builder.setInsertionPoint(terminator);
    func::ReturnOp::create(builder, terminator->getLoc(),
                           terminator->getOperands());
    terminator->erase();
    if (TensorShardingPerValueAttr in = op.getInShardingsAttr())
      for (auto [i, sharding] : llvm::enumerate(in.getShardings()))
        func.setArgAttr(i, kShardingAttr, sharding);
    if (TensorShardingPerValueAttr out = op.getOutShardingsAttr())
      for (auto [i, sharding] : llvm::enumerate(out.getShardings()))
        func.setResultAttr(i, kShardingAttr, sharding);
    return func;
  }
};

} // namespace
