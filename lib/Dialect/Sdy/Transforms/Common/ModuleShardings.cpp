//===- ModuleShardings.cpp - rewrite every sharding of a module -----------===//

#include "meshsdy/Dialect/Sdy/Transforms/Common/ModuleShardings.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::sdy;

MeshTable::MeshTable(ModuleOp module) {
  for (auto mesh : module.getOps<MeshOp>())
    meshes[mesh.getSymNameAttr()] = mesh.getMesh();
}

MeshAttr MeshTable::lookup(TensorShardingAttr sharding) const {
  if (!sharding)
    return {};
  if (MeshAttr mesh = sharding.getInlinedMesh())
    return mesh;
  if (FlatSymbolRefAttr name = sharding.getMeshSymName())
    return meshes.lookup(name.getAttr());
  return {};
}

MeshAttr MeshTable::lookup(StringRef name) const {
  for (auto [key, mesh] : meshes)
    if (key.getValue() == name)
      return mesh;
  return {};
}

/// Whether `op` may keep shardings among its inherent attributes (stored
/// as properties, so only visible in the materialized dictionary).
static bool mayHoldInherentShardings(Operation *op) {
  return op->getPropertiesStorageSize() &&
         (isa_and_nonnull<SdyDialect>(op->getDialect()) ||
          isa<FunctionOpInterface, CallOpInterface>(op));
}

DictionaryAttr mlir::sdy::getShardingBearingAttrs(Operation *op) {
  return mayHoldInherentShardings(op) ? op->getAttrDictionary()
                                      : op->getRawDictionaryAttrs();
}

void mlir::sdy::walkShardings(
    Operation *root,
    llvm::function_ref<void(Operation *, TensorShardingAttr)> fn) {
  root->walk([&](Operation *op) {
    DictionaryAttr attrs = getShardingBearingAttrs(op);
    if (!attrs.empty())
      attrs.walk([&](TensorShardingAttr sharding) { fn(op, sharding); });
  });
}

bool mlir::sdy::rewriteShardings(
    Operation *root,
    llvm::function_ref<TensorShardingAttr(TensorShardingAttr)> rewrite) {
  AttrTypeReplacer replacer;
  bool changed = false;
  // The replacer caches results, so each distinct sharding is seen once.
  replacer.addReplacement(
      [&](TensorShardingAttr sharding) -> std::optional<Attribute> {
        TensorShardingAttr result = rewrite(sharding);
        changed |= result != sharding;
        return result;
      });
  root->walk([&](Operation *op) {
    DictionaryAttr attrs = getShardingBearingAttrs(op);
    if (attrs.empty())
      return;
    auto replaced = cast<DictionaryAttr>(replacer.replace(attrs));
    if (replaced == attrs)
      return;
    if (mayHoldInherentShardings(op))
      op->setAttrs(replaced);
    else
      op->setDiscardableAttrs(replaced);
  });
  return changed;
}

TensorShardingAttr
mlir::sdy::filterAxes(TensorShardingAttr sharding,
                      llvm::function_ref<bool(AxisRefAttr)> keep) {
  MLIRContext *ctx = sharding.getContext();
  auto filter = [&](ArrayRef<AxisRefAttr> axes) {
    SmallVector<AxisRefAttr> kept;
    for (AxisRefAttr axis : axes)
      if (keep(axis))
        kept.push_back(axis);
    return kept;
  };
  SmallVector<DimensionShardingAttr> dims;
  for (DimensionShardingAttr dim : sharding.getDimShardings()) {
    SmallVector<AxisRefAttr> axes = filter(dim.getAxes());
    // A closed dimension with a priority needs an axis (verifier); a
    // dimension left without axes drops its priority.
    std::optional<int64_t> priority =
        axes.empty() && dim.getIsClosed() ? std::nullopt : dim.getPriority();
    dims.push_back(
        DimensionShardingAttr::get(ctx, axes, dim.getIsClosed(), priority));
  }
  return TensorShardingAttr::get(ctx, sharding.getMeshOrRef(), dims,
                                 filter(sharding.getReplicatedAxes()),
                                 filter(sharding.getUnreducedAxes()));
}
