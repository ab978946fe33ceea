//===- RingCost.h - bytes a collective sends per device ---------*- C++ -*-===//
//
// The ring model of `mesh-cost-report` (and meshsdy.pipeline.SpmdReport):
// what one device sends, per byte of its operand, in each collective over a
// group of g devices. Header-only so that the passes that choose between
// layouts (sdy-insert-explicit-reshards) price them as the report does.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_TRANSFORMS_RINGCOST_H
#define MESHSDY_DIALECT_MESH_TRANSFORMS_RINGCOST_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <optional>

namespace mlir::mesh {

/// What one device sends per operand byte in a group of `g` devices, by
/// collective op name (ring algorithms; rooted and point-to-point ops count
/// the busiest device); nullopt for an op that is no collective.
/// docs/spmd.md gives the model.
inline std::optional<double> ringFactor(llvm::StringRef name, int64_t g) {
  return llvm::StringSwitch<std::optional<double>>(name)
      .Case("mesh.all_gather", g - 1)
      .Case("mesh.all_reduce", 2.0 * (g - 1) / g)
      .Case("mesh.reduce_scatter", double(g - 1) / g)
      .Case("mesh.all_to_all", double(g - 1) / g)
      .Case("mesh.all_slice", 0.0)
      .Case("mesh.broadcast", g - 1)
      .Case("mesh.scatter", double(g - 1) / g)
      .Case("mesh.gather", 1.0)
      .Case("mesh.reduce", 1.0)
      .Case("mesh.send", 1.0)
      .Case("mesh.shift", 1.0)
      .Default(std::nullopt);
}

/// Bytes of a statically shaped tensor (sub-byte elements take a byte);
/// nullopt for anything else.
inline std::optional<int64_t> tensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  unsigned width = tensor.getElementType().isIntOrFloat()
                       ? tensor.getElementType().getIntOrFloatBitWidth()
                       : 32;
  return tensor.getNumElements() * int64_t(std::max(width, 8u) / 8);
}

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_TRANSFORMS_RINGCOST_H
