//===- Interner.h - one copy of each distinct value -------------*- C++ -*-===//
//
// The passes keep per value and per op only pointers into such pools: values
// share a few shardings and ops a few models, and small per-value records
// keep the cost per op flat as programs grow.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_INTERNER_H
#define MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_INTERNER_H

#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <unordered_map>
#include <utility>

namespace mlir::mesh {

/// Keeps one copy of each distinct `T` (by `==`) at a stable address;
/// `hash` must agree with `==`.
template <typename T, size_t (*hash)(const T &)>
class Interner {
public:
  /// Copies (or moves) `value` in only if no equal value is kept yet
  /// (`U = T`: a braced list builds a T).
  template <typename U = T>
  const T *intern(U &&value) {
    auto &bucket = byHash[hash(value)];
    for (const T *known : bucket)
      if (*known == value)
        return known;
    storage.push_back(std::forward<U>(value));
    bucket.push_back(&storage.back());
    return &storage.back();
  }

private:
  std::deque<T> storage;
  std::unordered_map<size_t, SmallVector<const T *, 1>> byHash;
};

/// A hash of a sharding's mesh and split axes, which agrees with
/// MeshSharding's `==`.
inline size_t hashMeshSharding(const MeshSharding &sharding) {
  llvm::hash_code hash = llvm::hash_value(
      sharding ? sharding.getMeshAttr().getAsOpaquePointer() : nullptr);
  for (ArrayRef<MeshAxis> dim : sharding.getSplitAxes())
    hash = llvm::hash_combine(hash, llvm::hash_combine_range(dim));
  return hash;
}

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_INTERNER_H
