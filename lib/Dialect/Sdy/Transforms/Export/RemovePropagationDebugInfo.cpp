//===- RemovePropagationDebugInfo.cpp - drop origins and edges ------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/DebugNames.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVEPROPAGATIONDEBUGINFOPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

constexpr StringLiteral kDebugAttrs[] = {
    kShardingOriginsAttr,          kPropagationEdgesAttr,
    kShardingOriginNameAttr,       kBlockArgShardingOriginsAttr,
    kResultShardingOriginsAttr,    kBlockArgPropagationEdgesAttr,
    kResultPropagationEdgesAttr,
};

struct RemovePropagationDebugInfoPass
    : sdy::impl::RemovePropagationDebugInfoPassBase<
          RemovePropagationDebugInfoPass> {
  void runOnOperation() override {
    bool changed = false;
    getOperation()->walk([&](Operation *op) {
      for (StringLiteral name : kDebugAttrs)
        changed |= bool(op->removeAttr(name));
      auto func = dyn_cast<FunctionOpInterface>(op);
      if (!func)
        return;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        for (StringLiteral name : kDebugAttrs)
          changed |= bool(
              func.removeArgAttr(i, StringAttr::get(op->getContext(), name)));
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
        for (StringLiteral name : kDebugAttrs)
          changed |= bool(
              func.removeResultAttr(i, StringAttr::get(op->getContext(), name)));
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
