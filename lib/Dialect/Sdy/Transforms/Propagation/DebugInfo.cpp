//===- DebugInfo.cpp - why a value got its sharding -----------------------===//

#include "DebugInfo.h"

using namespace mlir;
using namespace mlir::sdy;

struct PropagationDebugInfo::State {};

PropagationDebugInfo::PropagationDebugInfo(bool origins, bool edges)
    : origins(origins), edges(edges), state(std::make_unique<State>()) {}
PropagationDebugInfo::~PropagationDebugInfo() = default;
void PropagationDebugInfo::prepare(ModuleOp) {}
void PropagationDebugInfo::record(Operation *, ArrayRef<Value>,
                                  ArrayRef<Value>, const ShardingProjection &,
                                  const ShardingProjection &,
                                  const llvm::BitVector &,
                                  const llvm::BitVector &, OpShardingRuleAttr,
                                  MeshAttr) {}
void PropagationDebugInfo::save(ModuleOp) {}
