//===- DropShardingRules.cpp - rules are propagation's business -----------===//

#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_DROPSHARDINGRULESPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct DropShardingRulesPass
    : sdy::impl::DropShardingRulesPassBase<DropShardingRulesPass> {
  void runOnOperation() override {
    bool changed = false;
    auto name = StringAttr::get(&getContext(), kShardingRuleAttr);
    getOperation().walk([&](Operation *op) {
      auto rule = dyn_cast_or_null<OpShardingRuleAttr>(
          op->getRawDictionaryAttrs().get(name));
      if (rule && !rule.getIsCustomRule()) {
        op->removeDiscardableAttr(name);
        changed = true;
      }
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
