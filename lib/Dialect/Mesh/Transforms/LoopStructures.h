//===- LoopStructures.h - maps and iterators per kind of op -----*- C++ -*-===//
//
// linalg rebuilds an op's indexing maps through the context's uniquer on
// every query (on a linalg MLP: 15% of propagation, 7% of mesh-spmdization).
// A linalg op's maps and loop iterator types are a function of its name,
// properties, attributes and operand and result types (never of its
// operands' values or its body), so the passes compute them once for all the
// ops alike in those. Other ops are asked each time: their models may look
// at more.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_LOOPSTRUCTURES_H
#define MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_LOOPSTRUCTURES_H

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <deque>

namespace mlir::mesh {

struct LoopStructure {
  SmallVector<AffineMap> maps;
  SmallVector<utils::IteratorType> iterators;
};

class LoopStructures {
public:
  /// The maps and iterators of `op`. For a linalg op the reference stays
  /// valid as long as this object does; for any other op, until the next
  /// call. The first op of each kind is the key of its entry: it must outlive
  /// this object, unchanged.
  const LoopStructure &get(ShardingInterface op) {
    Operation *operation = op.getOperation();
    if (!isa<linalg::LinalgOp>(operation)) {
      uncached = {op.getIndexingMaps(), op.getLoopIteratorTypes()};
      return uncached;
    }
    auto it = index.find(operation);
    if (it != index.end())
      return structures[it->second];
    // Asked before the op becomes a key: some named ops memoize their maps
    // in an attribute on the first query, which changes the key's hash (the
    // op may then be alike an existing key after all).
    LoopStructure structure{op.getIndexingMaps(), op.getLoopIteratorTypes()};
    auto [entry, inserted] = index.try_emplace(operation, structures.size());
    if (inserted)
      structures.push_back(std::move(structure));
    return structures[entry->second];
  }

private:
  /// Ops alike in what linalg derives the maps from.
  struct AlikeInfo : llvm::DenseMapInfo<Operation *> {
    // (DenseMap looks keys up as const pointers; Operation's accessors are
    // not const.)
    static unsigned getHashValue(const Operation *key) {
      auto *op = const_cast<Operation *>(key);
      return llvm::hash_combine(
          op->getName().getAsOpaquePointer(),
          op->getRawDictionaryAttrs().getAsOpaquePointer(),
          op->hashProperties(),
          llvm::hash_combine_range(op->getOperandTypes()),
          llvm::hash_combine_range(op->getResultTypes()));
    }
    static bool isEqual(const Operation *lhsKey, const Operation *rhsKey) {
      if (lhsKey == rhsKey)
        return true;
      if (lhsKey == getEmptyKey() || lhsKey == getTombstoneKey() ||
          rhsKey == getEmptyKey() || rhsKey == getTombstoneKey())
        return false;
      auto *lhs = const_cast<Operation *>(lhsKey);
      auto *rhs = const_cast<Operation *>(rhsKey);
      return lhs->getName() == rhs->getName() &&
             lhs->getRawDictionaryAttrs() == rhs->getRawDictionaryAttrs() &&
             llvm::equal(lhs->getOperandTypes(), rhs->getOperandTypes()) &&
             llvm::equal(lhs->getResultTypes(), rhs->getResultTypes()) &&
             lhs->getName().compareOpProperties(lhs->getPropertiesStorage(),
                                                rhs->getPropertiesStorage());
    }
  };
  DenseMap<Operation *, unsigned, AlikeInfo> index;
  std::deque<LoopStructure> structures;
  LoopStructure uncached;
};

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_LOOPSTRUCTURES_H
