//===- ModuleShardings.h - rewrite every sharding of a module ---*- C++ -*-===//
//
// Import and export passes often change every sharding of a module the same
// way (lift a mesh, drop an axis, close dimensions). Shardings live in many
// places (op attributes, argument and result attributes, lists per value),
// so these helpers rewrite them wherever they are.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_COMMON_MODULESHARDINGS_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_COMMON_MODULESHARDINGS_H

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::sdy {

/// The meshes of the module's `sdy.mesh` symbols, by name.
class MeshTable {
public:
  explicit MeshTable(ModuleOp module);
  /// The mesh `sharding` is bound to (inline or by symbol), or null.
  MeshAttr lookup(TensorShardingAttr sharding) const;
  MeshAttr lookup(StringRef name) const;

private:
  llvm::DenseMap<StringAttr, MeshAttr> meshes;
};

/// The attributes of `op` that can hold shardings, as one dictionary. Only
/// sdy ops, functions and calls (argument and result attributes) keep
/// shardings among their inherent attributes; for other ops this is the
/// discardable dictionary, which costs nothing to get, where materializing
/// their properties would cost an allocation per op.
DictionaryAttr getShardingBearingAttrs(Operation *op);

/// Calls `fn` on every TensorShardingAttr under `root` (its own attributes
/// included), with the op holding it.
void walkShardings(Operation *root,
                   llvm::function_ref<void(Operation *, TensorShardingAttr)> fn);

/// Replaces every TensorShardingAttr under `root` (its own attributes
/// included) with `rewrite(sharding)`; `rewrite` returns its argument to keep
/// it. Each distinct sharding is rewritten once. Returns whether any
/// sharding changed.
bool rewriteShardings(
    Operation *root,
    llvm::function_ref<TensorShardingAttr(TensorShardingAttr)> rewrite);

/// `sharding` with `keep(axis)` false axes removed from its dimensions,
/// replicated and unreduced axes.
TensorShardingAttr filterAxes(TensorShardingAttr sharding,
                              llvm::function_ref<bool(AxisRefAttr)> keep);

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_COMMON_MODULESHARDINGS_H
