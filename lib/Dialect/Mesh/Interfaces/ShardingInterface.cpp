//===- ShardingInterface.cpp - loop shardings from tensor shardings -------===//

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"

#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::mesh;

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.cpp.inc"

bool LoopSharding::usesAxis(MeshAxis axis) const {
  return llvm::any_of(loopAxes,
                      [&](const DimSplitAxes &l) { return llvm::is_contained(l, axis); });
}

SmallVector<unsigned, 4>
mlir::mesh::getRowMajorLoops(AffineExpr expr, ArrayRef<int64_t> loopExtents) {
  // The terms loop * stride of a sum.
  SmallVector<std::pair<unsigned, int64_t>, 4> terms;
  SmallVector<AffineExpr, 4> pending{expr};
  while (!pending.empty()) {
    AffineExpr term = pending.pop_back_val();
    auto binary = dyn_cast<AffineBinaryOpExpr>(term);
    if (binary && binary.getKind() == AffineExprKind::Add) {
      pending.push_back(binary.getLHS());
      pending.push_back(binary.getRHS());
      continue;
    }
    int64_t stride = 1;
    if (binary && binary.getKind() == AffineExprKind::Mul) {
      auto constant = dyn_cast<AffineConstantExpr>(binary.getRHS());
      if (!constant)
        return {};
      stride = constant.getValue();
      term = binary.getLHS();
    }
    auto loop = dyn_cast<AffineDimExpr>(term);
    if (!loop || stride <= 0)
      return {};
    terms.emplace_back(loop.getPosition(), stride);
  }
  if (terms.size() < 2)
    return {};
  llvm::sort(terms, [](auto a, auto b) { return a.second > b.second; });
  SmallVector<unsigned, 4> loops;
  for (auto [k, term] : llvm::enumerate(terms)) {
    auto [loop, stride] = term;
    if (loop >= loopExtents.size() || loopExtents[loop] <= 0 ||
        llvm::is_contained(loops, loop))
      return {};
    int64_t expected = k + 1 < terms.size()
                           ? terms[k + 1].second *
                                 (terms[k + 1].first < loopExtents.size()
                                      ? loopExtents[terms[k + 1].first]
                                      : 0)
                           : 1;
    if (stride != expected)
      return {};
    loops.push_back(loop);
  }
  return loops;
}

SplitAxes LoopSharding::project(AffineMap map) const {
  SplitAxes result(map.getNumResults());
  // A loop indexing two dimensions (a diagonal) splits only the first.
  llvm::SmallDenseSet<unsigned> seen;
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    if (auto loop = dyn_cast<AffineDimExpr>(expr)) {
      if (loop.getPosition() < loopAxes.size() &&
          seen.insert(loop.getPosition()).second)
        result[dim] = loopAxes[loop.getPosition()];
      continue;
    }
    for (unsigned loop : getRowMajorLoops(expr, loopExtents))
      if (loop < loopAxes.size() && seen.insert(loop).second)
        llvm::append_range(result[dim], loopAxes[loop]);
  }
  while (!result.empty() && result.back().empty())
    result.pop_back();
  return result;
}

DimSplitAxes
LoopSharding::reductionAxes(ArrayRef<utils::IteratorType> iterators) const {
  DimSplitAxes axes;
  for (auto [loop, type] : llvm::enumerate(iterators))
    if (type == utils::IteratorType::reduction && loop < loopAxes.size())
      llvm::append_range(axes, loopAxes[loop]);
  return axes;
}

/// The number of pieces `axes` cut a dimension into (1 for none).
static int64_t piecesOf(ArrayRef<MeshAxis> axes, ArrayRef<int64_t> meshShape) {
  int64_t n = 1;
  for (MeshAxis axis : axes)
    n *= axis < static_cast<MeshAxis>(meshShape.size()) ? meshShape[axis] : 1;
  return std::max<int64_t>(n, 1);
}

/// Cuts the splits of `loops` short where they would cut a dimension held
/// evenly into uneven pieces (see deriveLoopSharding).
static void trimUnevenLoops(LoopSharding &loops, ArrayRef<AffineMap> maps,
                            ArrayRef<RankedTensorType> types,
                            ArrayRef<const SplitAxes *> known,
                            ArrayRef<int64_t> meshShape) {
  auto pieces = [&](ArrayRef<MeshAxis> axes) {
    return piecesOf(axes, meshShape);
  };
  for (auto [loop, axes] : llvm::enumerate(loops.loopAxes)) {
    if (axes.empty())
      continue;
    // The dimensions this loop indexes in tensors held evenly there.
    SmallVector<int64_t, 4> evenSizes;
    for (auto [i, map] : llvm::enumerate(maps)) {
      if (i >= types.size() || i >= known.size() || !types[i] || !known[i])
        continue;
      for (auto [d, expr] : llvm::enumerate(map.getResults())) {
        auto dim = dyn_cast<AffineDimExpr>(expr);
        if (!dim || dim.getPosition() != loop ||
            d >= static_cast<size_t>(types[i].getRank()))
          continue;
        int64_t size = types[i].getDimSize(d);
        ArrayRef<MeshAxis> held =
            d < known[i]->size() ? ArrayRef<MeshAxis>((*known[i])[d])
                                 : ArrayRef<MeshAxis>();
        if (!ShapedType::isDynamic(size) && size % pieces(held) == 0)
          evenSizes.push_back(size);
      }
    }
    size_t kept = axes.size();
    while (kept > 0 && llvm::any_of(evenSizes, [&](int64_t size) {
             return size % pieces(ArrayRef(axes).take_front(kept)) != 0;
           }))
      --kept;
    axes.resize(kept);
  }
}

SmallVector<int64_t>
mlir::mesh::getLoopExtents(unsigned numLoops, ArrayRef<AffineMap> maps,
                           ArrayRef<RankedTensorType> types) {
  SmallVector<int64_t> extents(numLoops, 0);
  for (auto [i, map] : llvm::enumerate(maps)) {
    if (i >= types.size() || !types[i])
      continue;
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      auto loop = dyn_cast<AffineDimExpr>(expr);
      if (loop && loop.getPosition() < numLoops &&
          d < static_cast<size_t>(types[i].getRank()) &&
          !types[i].isDynamicDim(d))
        extents[loop.getPosition()] = types[i].getDimSize(d);
    }
  }
  return extents;
}

/// Hands the axes of a row-major dimension to its `loops`, major to minor:
/// a loop's list must match the axes so far; a loop takes more while it is
/// not split into single elements (axes must divide it), then the next one
/// takes over.
static void assignRowMajor(LoopSharding &sharding, ArrayRef<unsigned> loops,
                           ArrayRef<MeshAxis> dimAxes,
                           ArrayRef<bool> splittableLoops,
                           ArrayRef<int64_t> meshShape,
                           llvm::SmallDenseSet<MeshAxis, 8> &owned) {
  size_t next = 0;
  for (unsigned loop : loops) {
    DimSplitAxes &current = sharding.loopAxes[loop];
    int64_t extent = sharding.loopExtents[loop];
    // What the loop holds already must be where this dimension has it.
    ArrayRef<MeshAxis> rest = ArrayRef(dimAxes).drop_front(next);
    if (current.size() > rest.size() ||
        !llvm::equal(rest.take_front(current.size()), current))
      return;
    next += current.size();
    bool splittable = splittableLoops.empty() || splittableLoops[loop];
    while (splittable && next < dimAxes.size() && !meshShape.empty() &&
           piecesOf(current, meshShape) < extent) {
      MeshAxis axis = dimAxes[next];
      int64_t pieces = piecesOf(current, meshShape) *
                       piecesOf(ArrayRef<MeshAxis>(axis), meshShape);
      if (extent % pieces != 0 || !owned.insert(axis).second)
        return;
      current.push_back(axis);
      ++next;
    }
    if (next == dimAxes.size() || meshShape.empty() ||
        piecesOf(current, meshShape) != extent)
      return;
  }
}

/// Cuts the loops of each row-major dimension after the first one not
/// split into single elements: a device's part of the dimension would not
/// be contiguous.
static void trimRowMajorLoops(LoopSharding &loops, ArrayRef<AffineMap> maps,
                              ArrayRef<int64_t> meshShape) {
  for (AffineMap map : maps)
    for (AffineExpr expr : map.getResults()) {
      SmallVector<unsigned, 4> rowMajor =
          getRowMajorLoops(expr, loops.loopExtents);
      bool cut = false;
      for (unsigned loop : rowMajor) {
        DimSplitAxes &axes = loops.loopAxes[loop];
        if (cut) {
          axes.clear();
          continue;
        }
        // Split into single elements (or of extent 1): the next loop may
        // be split too. Unknown axis sizes say nothing.
        int64_t pieces = axes.empty()        ? 1
                         : meshShape.empty() ? -1
                                             : piecesOf(axes, meshShape);
        cut = pieces != loops.loopExtents[loop];
      }
    }
}

LoopSharding mlir::mesh::deriveLoopSharding(
    unsigned numLoops, ArrayRef<AffineMap> maps,
    ArrayRef<const SplitAxes *> tensorAxes, ArrayRef<unsigned> order,
    ArrayRef<bool> splittableLoops, ArrayRef<RankedTensorType> types,
    ArrayRef<int64_t> meshShape) {
  LoopSharding sharding;
  sharding.loopAxes.resize(numLoops);
  sharding.loopExtents = getLoopExtents(numLoops, maps, types);
  // The mesh axes some loop holds already. Meshes have a few axes: a set
  // held inline costs no allocation (this runs for every op visit).
  llvm::SmallDenseSet<MeshAxis, 8> owned;

  for (unsigned tensor : order) {
    const SplitAxes *axes = tensorAxes[tensor];
    if (!axes)
      continue;
    AffineMap map = maps[tensor];
    for (auto [dim, dimAxes] : llvm::enumerate(*axes)) {
      if (dimAxes.empty() || dim >= map.getNumResults())
        continue;
      auto loopExpr = dyn_cast<AffineDimExpr>(map.getResult(dim));
      if (!loopExpr) {
        SmallVector<unsigned, 4> rowMajor =
            getRowMajorLoops(map.getResult(dim), sharding.loopExtents);
        if (!rowMajor.empty())
          assignRowMajor(sharding, rowMajor, dimAxes, splittableLoops,
                         meshShape, owned);
        continue;
      }
      if (loopExpr.getPosition() >= numLoops)
        continue;
      unsigned loop = loopExpr.getPosition();
      if (!splittableLoops.empty() && !splittableLoops[loop])
        continue;
      DimSplitAxes &current = sharding.loopAxes[loop];
      // Only a list that extends the current one can add axes.
      if (dimAxes.size() <= current.size() ||
          !llvm::equal(ArrayRef(dimAxes).take_front(current.size()), current))
        continue;
      for (MeshAxis axis : ArrayRef(dimAxes).drop_front(current.size())) {
        if (!owned.insert(axis).second)
          break;
        current.push_back(axis);
      }
    }
  }
  if (!types.empty() && !meshShape.empty())
    trimUnevenLoops(sharding, maps, types, tensorAxes, meshShape);
  trimRowMajorLoops(sharding, maps, meshShape);
  return sharding;
}

SmallVector<bool>
mlir::mesh::getSplittableLoops(ShardingInterface op, ArrayRef<AffineMap> maps,
                               ArrayRef<utils::IteratorType> iterators,
                               ArrayRef<RankedTensorType> types) {
  SmallVector<bool> splittable(iterators.size(), true);
  // A loop a tensor reads through an expression (a window `d1 + d2`, a
  // stride `2 * d0`) is not split: its tensor dimension is not, so a device
  // would read it at its local positions instead of the global ones. Loops
  // in row-major order are the exception: deriveLoopSharding splits them
  // only into contiguous pieces of the dimension.
  // They must also cover their dimension exactly: a window of 2 read at
  // stride 2 (`2 * d0 + d1`) over a padded length of 17 looks row-major,
  // but the tensor's uneven pieces (5, 4, 4, 4 over 4 devices) are not the
  // windows' (4 each), a wrong answer.
  SmallVector<int64_t> extents =
      getLoopExtents(iterators.size(), maps, types);
  auto coversExactly = [&](ArrayRef<unsigned> loops, size_t tensor,
                           unsigned dim) {
    if (tensor >= types.size() || !types[tensor])
      return true; // Unknown: as the expression says.
    RankedTensorType type = types[tensor];
    if (dim >= static_cast<unsigned>(type.getRank()) || type.isDynamicDim(dim))
      return false;
    int64_t span = 1;
    for (unsigned loop : loops)
      span *= extents[loop];
    return span == type.getDimSize(dim);
  };
  for (auto [tensor, map] : llvm::enumerate(maps))
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      if (isa<AffineDimExpr, AffineConstantExpr>(expr))
        continue;
      SmallVector<unsigned, 4> rowMajor = getRowMajorLoops(expr, extents);
      if (!rowMajor.empty() && coversExactly(rowMajor, tensor, dim))
        continue;
      expr.walk([&](AffineExpr inner) {
        if (auto loop = dyn_cast<AffineDimExpr>(inner);
            loop && loop.getPosition() < splittable.size())
          splittable[loop.getPosition()] = false;
      });
    }
  // Reduction kinds can be costly to find (linalg matches the body).
  if (!llvm::is_contained(iterators, utils::IteratorType::reduction))
    return splittable;
  SmallVector<ReductionKind> kinds = op.getReductionLoopIteratorKinds();
  unsigned reduction = 0;
  for (auto [loop, type] : llvm::enumerate(iterators)) {
    if (type != utils::IteratorType::reduction)
      continue;
    splittable[loop] = splittable[loop] && reduction < kinds.size() &&
                       kinds[reduction] != ReductionKind::Generic;
    ++reduction;
  }
  return splittable;
}

SmallVector<ReductionKind> mlir::mesh::detail::defaultReductionKinds(
    Operation *op) {
  auto sharding = cast<ShardingInterface>(op);
  return SmallVector<ReductionKind>(
      llvm::count(sharding.getLoopIteratorTypes(),
                  utils::IteratorType::reduction),
      ReductionKind::Sum);
}

ReductionKind mlir::mesh::getPartialReductionKind(
    ShardingInterface op, const LoopSharding &loops,
    ArrayRef<utils::IteratorType> iterators) {
  if (loops.reductionAxes(iterators).empty())
    return ReductionKind::Sum;
  SmallVector<ReductionKind> kinds = op.getReductionLoopIteratorKinds();
  unsigned r = 0; // Index among the reduction loops.
  for (auto [loop, type] : llvm::enumerate(iterators)) {
    if (type != utils::IteratorType::reduction)
      continue;
    if (loop < loops.loopAxes.size() && !loops.loopAxes[loop].empty())
      return r < kinds.size() ? kinds[r] : ReductionKind::Sum;
    ++r;
  }
  return ReductionKind::Sum;
}

FailureOr<RankedTensorType>
mlir::mesh::getLocalType(Location loc, RankedTensorType global, MeshOp mesh,
                         const MeshSharding &sharding, bool allowUneven) {
  if (!sharding)
    return global;
  SmallVector<int64_t> shape =
      getShardShape(global.getShape(), mesh.getShape(), sharding);
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    // A dynamic dimension no axis splits is whole on every device.
    if (global.isDynamicDim(dim) && sharding.getSplitAxes(dim).empty())
      continue;
    if (allowUneven && !global.isDynamicDim(dim) &&
        succeeded(getDimPieces(global, mesh, sharding, dim)))
      continue;
    return emitError(loc) << "unsupported: dimension "
                          << dim << " of " << global
                          << " has no single per-device size under this "
                             "sharding (uneven split, offsets or dynamic "
                             "sizes)";
  }
  return global.clone(shape);
}


FailureOr<RankedTensorType>
mlir::mesh::getLocalType(Operation *op, RankedTensorType global,
                         const MeshSharding &sharding,
                         SymbolTableCollection &symbolTables,
                         bool allowUneven) {
  if (!sharding)
    return global;
  MeshOp mesh = getMesh(op, sharding.getMeshAttr(), symbolTables);
  if (!mesh)
    return op->emitOpError("mesh '") << sharding.getMesh() << "' not found";
  return getLocalType(op->getLoc(), global, mesh, sharding, allowUneven);
}

FailureOr<Operation *> mlir::mesh::detail::cloneForDevice(
    Operation *op, ArrayRef<Value> localOperands,
    ArrayRef<MeshSharding> resultShardings, IRMapping &mapping,
    SymbolTableCollection &symbolTables, OpBuilder &builder,
    bool allowUneven) {
  SmallVector<Type> resultTypes;
  for (auto [result, sharding] :
       llvm::zip(op->getResults(), resultShardings)) {
    auto global = dyn_cast<RankedTensorType>(result.getType());
    if (!global || !sharding) {
      resultTypes.push_back(result.getType());
      continue;
    }
    FailureOr<RankedTensorType> local =
        getLocalType(op, global, sharding, symbolTables, allowUneven);
    if (failed(local))
      return failure();
    resultTypes.push_back(*local);
  }
  // The operands are read in the given local form; values the op's regions
  // use from above come through `mapping` as they are. The clone maps
  // through a mapping of its own: cloning records every nested op and value
  // (a linalg body: a few per op), and `mapping`, which holds one entry per
  // value of the function, would grow several times over.
  IRMapping cloneMapping;
  for (auto [operand, local] : llvm::zip(op->getOperands(), localOperands))
    cloneMapping.map(operand, local);
  // A value read from above is read in `mapping`'s form (whole, for a
  // linalg body's tensor) even where it is an operand too: torch-mlir's flip
  // reads its own split operand `%x` at `11 - index` in its body, which the
  // operand's local piece mapped there read out of bounds (a wrong answer).
  // The operands are set to their local forms after the clone.
  SetVector<Value> above;
  getUsedValuesDefinedAbove(op->getRegions(), above);
  for (Value value : above)
    if (Value mapped = mapping.lookupOrNull(value))
      cloneMapping.map(value, mapped);
  Operation *clone = builder.clone(*op, cloneMapping);
  // A value read twice may be needed in two shardings (`linalg.matmul ins(%a,
  // %a)`), but the mapping keeps one local form per value.
  for (auto [operand, local] :
       llvm::zip(clone->getOpOperands(), localOperands))
    if (operand.get() != local)
      operand.set(local);
  for (auto [result, type] : llvm::zip(clone->getResults(), resultTypes))
    result.setType(type);
  mapping.map(op->getResults(), clone->getResults());
  return clone;
}

LogicalResult mlir::mesh::detail::spmdizeByCloning(
    Operation *op, ArrayRef<Value> localOperands,
    ArrayRef<MeshSharding> resultShardings, IRMapping &mapping,
    SymbolTableCollection &symbolTables, OpBuilder &builder,
    bool allowUneven) {
  return cloneForDevice(op, localOperands, resultShardings, mapping,
                        symbolTables, builder, allowUneven);
}
