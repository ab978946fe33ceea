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
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <unordered_map>

namespace mlir::mesh {

/// Keeps one copy of each distinct `T` (by `==`) at a stable address;
/// `hash` must agree with `==`.
template <typename T, size_t (*hash)(const T &)>
class Interner {
public:
  const T *intern(const T &value) {
    auto &bucket = byHash[hash(value)];
    if (const T *known = find(bucket, value))
      return known;
    storage.push_back(value);
    bucket.push_back(&storage.back());
    return &storage.back();
  }
  const T *intern(T &&value) {
    auto &bucket = byHash[hash(value)];
    if (const T *known = find(bucket, value))
      return known;
    storage.push_back(std::move(value));
    bucket.push_back(&storage.back());
    return &storage.back();
  }

private:
  static const T *find(ArrayRef<const T *> bucket, const T &value) {
    for (const T *known : bucket)
      if (*known == value)
        return known;
    return nullptr;
  }

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
