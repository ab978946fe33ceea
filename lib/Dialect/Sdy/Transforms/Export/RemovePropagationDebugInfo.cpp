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
    MLIRContext *ctx = &getContext();
    SmallVector<StringAttr> names;
    for (StringLiteral name : kDebugAttrs)
      names.push_back(StringAttr::get(ctx, name));
    // Debug attributes are discardable; most ops have none at all, so look
    // before building a new dictionary.
    auto hasDebugAttr = [&](DictionaryAttr attrs) {
      return attrs && !attrs.empty() &&
             llvm::any_of(names, [&](StringAttr n) { return attrs.get(n); });
    };
    bool changed = false;
    getOperation()->walk([&](Operation *op) {
      if (hasDebugAttr(op->getRawDictionaryAttrs())) {
        for (StringAttr name : names)
          op->removeDiscardableAttr(name);
        changed = true;
      }
      auto func = dyn_cast<FunctionOpInterface>(op);
      if (!func)
        return;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (hasDebugAttr(func.getArgAttrDict(i)))
          for (StringAttr name : names)
            changed |= bool(func.removeArgAttr(i, name));
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
        if (hasDebugAttr(func.getResultAttrDict(i)))
          for (StringAttr name : names)
            changed |= bool(func.removeResultAttr(i, name));
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
