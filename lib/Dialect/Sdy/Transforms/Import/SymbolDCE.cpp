//===- SymbolDCE.cpp - upstream symbol-dce, only when it can act ----------===//

#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_SYMBOLDCEPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// Whether upstream symbol-dce could erase something in `module`: it has a
/// private symbol, or a symbol table nested anywhere below it.
bool mayHaveDeadSymbols(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations())
    if (auto symbol = dyn_cast<SymbolOpInterface>(&op);
        symbol && symbol.isPrivate())
      return true;
  WalkResult nested = module->walk([&](Operation *op) {
    return op != module && op->hasTrait<OpTrait::SymbolTable>()
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return nested.wasInterrupted();
}

struct SymbolDCEPass : sdy::impl::SymbolDCEPassBase<SymbolDCEPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!mayHaveDeadSymbols(module))
      return markAllAnalysesPreserved();
    OpPassManager dce(ModuleOp::getOperationName());
    dce.addPass(mlir::createSymbolDCEPass());
    if (failed(runPipeline(dce, module)))
      signalPassFailure();
  }
};

} // namespace
