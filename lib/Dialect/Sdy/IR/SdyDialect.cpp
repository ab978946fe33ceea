//===- SdyDialect.cpp - sdy dialect registration --------------------------===//
//
// Besides registration, the dialect verifies the discardable attributes it
// puts on other dialects' ops (`sdy.sharding`, `sdy.sharding_rule`) and on
// function arguments and results (`sdy.sharding`).
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/SdyDialect.h"
#include "Verifiers/Verifiers.h"
#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::sdy;

#include "meshsdy/Dialect/Sdy/IR/SdyDialect.cpp.inc"

namespace {
/// sdy ops only annotate values (constraints, reshards, region ops whose
/// shardings name a mesh symbol of the module): a call's body holding them
/// may be inlined into its caller, as Shardy allows.
struct SdyInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void SdyDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "meshsdy/Dialect/Sdy/IR/SdyOps.cpp.inc"
      >();
  addInterfaces<SdyInlinerInterface>();
}

LogicalResult SdyDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() == kShardingAttr) {
    auto shardings = dyn_cast<TensorShardingPerValueAttr>(attr.getValue());
    if (!shardings)
      return op->emitOpError("'")
             << kShardingAttr << "' must be a #sdy.sharding_per_value, got "
             << attr.getValue();
    return verifyShardingPerValue(shardings, op->getResultTypes(), "result",
                                  op, nullptr, "'sdy.sharding' ");
  }
  if (attr.getName() == kShardingRuleAttr) {
    auto rule = dyn_cast<OpShardingRuleAttr>(attr.getValue());
    if (!rule)
      return op->emitOpError("'")
             << kShardingRuleAttr << "' must be a #sdy.op_sharding_rule, got "
             << attr.getValue();
    return verifyShardingRuleForOp(rule, op);
  }
  return success();
}

/// Verifies `sdy.sharding` on argument or result `index` of `op` (`kind` is
/// "arg" or "result").
static LogicalResult verifyValueSharding(Operation *op, NamedAttribute attr,
                                         Type type, StringRef kind,
                                         unsigned index) {
  if (attr.getName() != kShardingAttr)
    return success();
  auto sharding = dyn_cast<TensorShardingAttr>(attr.getValue());
  if (!sharding)
    return op->emitOpError()
           << kind << " " << index << " - '" << kShardingAttr
           << "' must be a #sdy.sharding, got " << attr.getValue();
  return verifyTensorSharding(sharding, type, op, nullptr, [&]() {
    return emitOpErrorWithPrefix(op,
                                 (kind + " " + Twine(index) + " - ").str());
  });
}

LogicalResult SdyDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  if (attr.getName() != kShardingAttr)
    return success();
  Type type;
  if (auto func = dyn_cast<FunctionOpInterface>(op)) {
    ArrayRef<Type> types = func.getArgumentTypes();
    if (argIndex < types.size())
      type = types[argIndex];
  } else if (regionIndex < op->getNumRegions()) {
    Region &region = op->getRegion(regionIndex);
    if (!region.empty() && argIndex < region.getNumArguments())
      type = region.getArgument(argIndex).getType();
  }
  if (!type)
    return op->emitOpError("'") << kShardingAttr << "' on unknown argument "
                                << argIndex;
  return verifyValueSharding(op, attr, type, "arg", argIndex);
}

LogicalResult SdyDialect::verifyRegionResultAttribute(Operation *op,
                                                      unsigned,
                                                      unsigned resultIndex,
                                                      NamedAttribute attr) {
  if (attr.getName() != kShardingAttr)
    return success();
  Type type;
  if (auto func = dyn_cast<FunctionOpInterface>(op)) {
    ArrayRef<Type> types = func.getResultTypes();
    if (resultIndex < types.size())
      type = types[resultIndex];
  }
  if (!type)
    return op->emitOpError("'") << kShardingAttr << "' on unknown result "
                                << resultIndex;
  return verifyValueSharding(op, attr, type, "result", resultIndex);
}
