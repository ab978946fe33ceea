//===- ExternalModels.cpp - meshsdy interfaces on upstream ops ------------===//

#include "meshsdy/Interfaces/ExternalModels.h"

void mlir::meshsdy::registerShardingInterfaceExternalModels(
    DialectRegistry &registry) {
  detail::registerLinalgShardingModels(registry);
  detail::registerElementwiseShardingModels(registry);
  detail::registerTensorShardingModels(registry);
  detail::registerReshapeShardingModels(registry);
}

void mlir::meshsdy::registerShardingRuleExternalModels(
    DialectRegistry &registry) {
  detail::registerLinalgShardingRules(registry);
  detail::registerElementwiseShardingRules(registry);
  detail::registerTensorShardingRules(registry);
  detail::registerReshapeShardingRules(registry);
}
