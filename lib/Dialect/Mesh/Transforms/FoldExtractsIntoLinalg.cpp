//===- FoldExtractsIntoLinalg.cpp - mesh-fold-extracts-into-linalg --------===//
//
// A linalg.generic body that reads a tensor from above at its own loop
// positions (`tensor.extract %t[linalg.index 0, linalg.index 1, 0]`: the
// token ids of an embedding lookup as jaxlib writes `table[ids]`) reads an
// operand in disguise. Made an input with the map those positions spell,
// the tensor is partitioned with the loops: a device reads its own piece
// instead of the whole tensor gathered.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHFOLDEXTRACTSINTOLINALG
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;

namespace {

/// The map from `op`'s loops to the position `extract` reads, if each index
/// is a distinct loop's position spanning the tensor's dimension, or 0 on a
/// dimension of size 1; else null.
AffineMap positionMap(linalg::GenericOp op, tensor::ExtractOp extract,
                      ArrayRef<int64_t> loopRanges) {
  auto type = extract.getTensor().getType();
  if (!type.hasStaticShape() || extract->getBlock() != op.getBody() ||
      op.getRegion().isAncestor(extract.getTensor().getParentRegion()))
    return AffineMap();
  SmallVector<AffineExpr> results;
  llvm::SmallBitVector used(loopRanges.size());
  for (auto [dim, index] : llvm::enumerate(extract.getIndices())) {
    if (auto loop = index.getDefiningOp<linalg::IndexOp>()) {
      uint64_t d = loop.getDim();
      if (d >= loopRanges.size() || used.test(d) ||
          loopRanges[d] != type.getDimSize(dim) ||
          loop->getBlock() != op.getBody())
        return AffineMap();
      used.set(d);
      results.push_back(getAffineDimExpr(d, op.getContext()));
      continue;
    }
    if (!matchPattern(index, m_Zero()) || type.getDimSize(dim) != 1)
      return AffineMap();
    results.push_back(getAffineConstantExpr(0, op.getContext()));
  }
  return AffineMap::get(loopRanges.size(), 0, results, op.getContext());
}

/// An extract to fold and the map at which its tensor becomes an input.
struct FoldedExtract {
  tensor::ExtractOp extract;
  AffineMap map;
};

/// `op` with each extract's tensor as one more input read at its map, the
/// extracts replaced by the new block arguments: one new op for all of them.
void foldExtracts(linalg::GenericOp op, MutableArrayRef<FoldedExtract> folds) {
  OpBuilder builder(op);
  int64_t numInputs = op.getNumDpsInputs();
  SmallVector<Value> inputs(op.getDpsInputs());
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (auto [i, fold] : llvm::enumerate(folds)) {
    inputs.push_back(fold.extract.getTensor());
    maps.insert(maps.begin() + numInputs + i, fold.map);
  }
  auto folded = linalg::GenericOp::create(
      builder, op.getLoc(), op->getResultTypes(), inputs, op.getDpsInits(),
      maps, op.getIteratorTypesArray());
  folded->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  folded.getRegion().takeBody(op.getRegion());
  Block *body = folded.getBody();
  for (auto [i, fold] : llvm::enumerate(folds)) {
    BlockArgument element = body->insertArgument(
        numInputs + i, fold.extract.getType(), fold.extract.getLoc());
    fold.extract.getResult().replaceAllUsesWith(element);
    fold.extract->erase();
  }
  op->replaceAllUsesWith(folded->getResults());
  op->erase();
}

struct MeshFoldExtractsIntoLinalgPass
    : mesh::impl::MeshFoldExtractsIntoLinalgBase<
          MeshFoldExtractsIntoLinalgPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics())
        generics.push_back(op);
    });
    bool changed = false;
    for (linalg::GenericOp op : generics) {
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      if (llvm::any_of(ranges, ShapedType::isDynamic))
        continue;
      SmallVector<FoldedExtract> folds;
      for (auto extract : op.getBody()->getOps<tensor::ExtractOp>())
        if (AffineMap map = positionMap(op, extract, ranges))
          folds.push_back({extract, map});
      if (!folds.empty())
        foldExtracts(op, folds);
      changed |= !folds.empty();
    }
    // Unchanged: the pass manager skips the verifier.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
