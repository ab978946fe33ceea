//===- SdyElementwiseRules.cpp - sdy sharding rules of arith/math ops -----===//
//
// An elementwise arith or math op on tensors (casts, comparisons and
// arith.select included) has one factor per dimension, shared by every
// operand and result; a scalar operand (select's condition) maps to nothing.
// This is Shardy's pointwise rule. On scalars or dynamic shapes: no rule.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/OpShardingRuleBuilder.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct ElementwiseRuleModel
    : ShardingRuleOpInterface::FallbackModel<ElementwiseRuleModel> {
  OpShardingRuleAttr getShardingRule(Operation *op) const {
    return OpShardingRuleBuilder::buildPointwise(op);
  }
  bool isRuleDeterminedBySignature(Operation *) const { return true; }
};

/// Attaches the model to every elementwise op of `dialect`.
void attachToElementwiseOps(MLIRContext *ctx, StringRef dialect) {
  // As for the mesh models: scan all registered ops, the per-dialect list
  // can be empty while the extension runs.
  for (RegisteredOperationName name : ctx->getRegisteredOperations())
    if (name.getDialectNamespace() == dialect &&
        name.hasTrait<OpTrait::Elementwise>() &&
        !name.hasInterface<ShardingRuleOpInterface>())
      name.attachInterface<ElementwiseRuleModel>();
}

} // namespace

void mlir::meshsdy::detail::registerElementwiseShardingRules(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    attachToElementwiseOps(ctx, arith::ArithDialect::getDialectNamespace());
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    attachToElementwiseOps(ctx, math::MathDialect::getDialectNamespace());
  });
  // A user's mesh.all_reduce in a manual computation is pointwise over the
  // free axes (the manual ones it reduces over never shard its body's
  // values), so their shardings pass through it.
  registry.addExtension(+[](MLIRContext *ctx, mesh::MeshDialect *) {
    mesh::AllReduceOp::attachInterface<ElementwiseRuleModel>(*ctx);
  });
}
