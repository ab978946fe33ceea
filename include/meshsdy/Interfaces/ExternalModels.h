//===- ExternalModels.h - meshsdy interfaces on upstream ops ----*- C++ -*-===//

#ifndef MESHSDY_INTERFACES_EXTERNALMODELS_H
#define MESHSDY_INTERFACES_EXTERNALMODELS_H

namespace mlir {
class DialectRegistry;

namespace meshsdy {

/// Attaches mesh::ShardingInterface to upstream ops: every linalg structured
/// op, the elementwise arith and math ops on tensors, tensor.empty and splat,
/// tensor.concat, tensor.pad, tensor.extract_slice,
/// tensor.collapse_shape / expand_shape and
/// arith.constant on tensors.
void registerShardingInterfaceExternalModels(DialectRegistry &registry);

/// Attaches sdy::ShardingRuleOpInterface to upstream ops: every linalg
/// structured op (its loops are the factors), the elementwise arith and math
/// ops, tensor.empty / splat / concat / pad / extract_slice / insert_slice /
/// expand_shape / collapse_shape and arith.constant on tensors.
void registerShardingRuleExternalModels(DialectRegistry &registry);

/// Attaches sdy::ShardableDataFlowOpInterface to scf.for, scf.while and
/// scf.if: their carried values and branches share one sharding per result.
void registerScfDataFlowModels(DialectRegistry &registry);

namespace detail {
void registerLinalgShardingModels(DialectRegistry &registry);
void registerElementwiseShardingModels(DialectRegistry &registry);
void registerTensorShardingModels(DialectRegistry &registry);
void registerReshapeShardingModels(DialectRegistry &registry);
void registerLinalgShardingRules(DialectRegistry &registry);
void registerElementwiseShardingRules(DialectRegistry &registry);
void registerTensorShardingRules(DialectRegistry &registry);
void registerReshapeShardingRules(DialectRegistry &registry);
} // namespace detail

} // namespace meshsdy
} // namespace mlir

#endif // MESHSDY_INTERFACES_EXTERNALMODELS_H
