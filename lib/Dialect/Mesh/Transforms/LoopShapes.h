//===- LoopShapes.h - maps and iterators per kind of op ---------*- C++ -*-===//
//
// linalg rebuilds an op's indexing maps through the context's uniquer on
// every query: a quarter of mesh-spmdization's time on a linalg MLP went
// there. A linalg op's maps and loop iterator types are a function of its
// name, properties, attributes and operand and result types (never of its
// operands' values or its body), so the passes compute them once for all the
// ops alike in those. Other ops are asked each time: their models may look at
// more.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_LOOPSHAPES_H
#define MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_LOOPSHAPES_H

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <deque>

namespace mlir::mesh {

struct LoopShape {
  SmallVector<AffineMap> maps;
  SmallVector<utils::IteratorType> iterators;
};

class LoopShapes {
public:
  /// The maps and iterators of `op`. For a linalg op the reference stays
  /// valid as long as this object and the first op alike `op` do; for any
  /// other op, until the next call.
  const LoopShape &get(ShardingInterface op) {
    Operation *operation = op.getOperation();
    if (!isa<linalg::LinalgOp>(operation)) {
      uncached = {op.getIndexingMaps(), op.getLoopIteratorTypes()};
      return uncached;
    }
    auto [it, inserted] = index.try_emplace(operation, shapes.size());
    if (inserted)
      shapes.push_back({op.getIndexingMaps(), op.getLoopIteratorTypes()});
    return shapes[it->second];
  }

private:
  /// Ops alike in what linalg derives the maps from.
  struct AlikeInfo : llvm::DenseMapInfo<Operation *> {
    static unsigned getHashValue(Operation *op) {
      return llvm::hash_combine(
          op->getName().getAsOpaquePointer(),
          op->getRawDictionaryAttrs().getAsOpaquePointer(),
          op->hashProperties(),
          llvm::hash_combine_range(op->getOperandTypes()),
          llvm::hash_combine_range(op->getResultTypes()));
    }
    static bool isEqual(Operation *lhs, Operation *rhs) {
      if (lhs == rhs)
        return true;
      if (lhs == getEmptyKey() || lhs == getTombstoneKey() ||
          rhs == getEmptyKey() || rhs == getTombstoneKey())
        return false;
      return lhs->getName() == rhs->getName() &&
             lhs->getRawDictionaryAttrs() == rhs->getRawDictionaryAttrs() &&
             llvm::equal(lhs->getOperandTypes(), rhs->getOperandTypes()) &&
             llvm::equal(lhs->getResultTypes(), rhs->getResultTypes()) &&
             lhs->getName().compareOpProperties(lhs->getPropertiesStorage(),
                                                rhs->getPropertiesStorage());
    }
  };
  DenseMap<Operation *, unsigned, AlikeInfo> index;
  std::deque<LoopShape> shapes;
  LoopShape uncached;
};

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_LOOPSHAPES_H
