//===- GatherPartialReductions.cpp - mesh-gather-partial-reductions -------===//
//
// A reduction whose combiner is no all_reduce kind (an argmax keeping a
// value and its index) cannot leave its loop split: partitioning would
// gather the whole operands. When its combiner only ever picks one of the
// accumulator and the new element per output (select, max, min), it is
// rewritten into two reductions of the same combiner:
//
//   partial[p, q] = reduce over r < R/g of x[p, q * R/g + r]    (q < g)
//   result[p]     = reduce over q < g of partial[p, q]
//
// The q loop is split like the reduction dimension was, so each device
// reduces its own piece (its linalg.index reads global positions), and only
// the partials are gathered for the second reduction. The second one meets
// them in device order, which keeps the first-of-equals tie-breaking of the
// combiner. Like any reduction partitioned over devices, this takes the
// combiner to be associative and commutative (StableHLO's reduce asks as
// much); one that picks is also idempotent, so the init, with which every
// piece and the partials start, counts as once.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"
#include "meshsdy/Dialect/Mesh/Transforms/CostModel.h"
#include "meshsdy/Interfaces/LinalgPositions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHGATHERPARTIALREDUCTIONS
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// The combiner of a reduction: per output, the value it combines with the
/// accumulator, and the body ops computing the yields from those values and
/// the accumulators alone (in body order).
struct Combiner {
  SmallVector<Value> elements;
  SmallVector<Operation *> ops;
};

/// The operand of `picker` other than `acc` when `picker` returns one of its
/// two operands (a select between them, a max or min), else null.
Value otherPick(Operation *picker, Value acc) {
  Value a, b;
  if (auto select = dyn_cast<arith::SelectOp>(picker)) {
    a = select.getTrueValue();
    b = select.getFalseValue();
  } else if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
                 arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp,
                 arith::MaxUIOp, arith::MinUIOp>(picker)) {
    a = picker->getOperand(0);
    b = picker->getOperand(1);
  } else {
    return Value();
  }
  if (a == acc && b != acc)
    return b;
  if (b == acc && a != acc)
    return a;
  return Value();
}

/// The selecting combiner of `op`, or nullopt if a yield is not a pick
/// between its accumulator and one value, or the yields need anything of
/// the body but those values and the accumulators.
std::optional<Combiner> selectingCombiner(linalg::GenericOp op) {
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Combiner combiner;
  for (auto [i, value] : llvm::enumerate(yield.getValues())) {
    Value acc = op.getRegionOutputArgs()[i];
    Operation *picker = value.getDefiningOp();
    Value element = picker && picker->getBlock() == body
                        ? otherPick(picker, acc)
                        : Value();
    if (!element || element.getType() != acc.getType())
      return std::nullopt;
    // Each output picks from a value of its own: the final reduction binds
    // each element to its output's partial, so an element shared by two
    // outputs, or that is another output's accumulator or pick, would read
    // the wrong partial.
    if (llvm::is_contained(combiner.elements, element) ||
        llvm::is_contained(op.getRegionOutputArgs(), element) ||
        llvm::is_contained(yield.getValues(), element))
      return std::nullopt;
    combiner.elements.push_back(element);
  }
  // Walk back from the yields, stopping at the elements and accumulators.
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Value> work(yield.getValues());
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (llvm::is_contained(combiner.elements, value) ||
        llvm::is_contained(op.getRegionOutputArgs(), value))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == body)
        return std::nullopt; // An input read beside the element.
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() != body || !needed.insert(def).second)
      continue;
    if (def->getNumRegions() != 0 || !isPure(def) ||
        isa<linalg::IndexOp>(def))
      return std::nullopt;
    llvm::append_range(work, def->getOperands());
  }
  for (Operation &inner : body->without_terminator())
    if (needed.contains(&inner))
      combiner.ops.push_back(&inner);
  return combiner;
}

/// Where the reduction loop of a candidate is split.
struct SplitReduction {
  unsigned loop;
  int64_t extent;
  int64_t groupSize;
  FlatSymbolRefAttr mesh;
  SmallVector<MeshAxis> axes;
  /// Per input, the dimension reading the loop, or -1.
  SmallVector<int64_t> inputDims;
  /// Per input, its annotation if it reads the loop (else null).
  SmallVector<MeshSharding, 2> inputShardings;
};

/// The reduction loop of `op` if it is its only one, every input reading it
/// reads it alone in one dimension, and each of those inputs is annotated
/// split evenly over the same mesh axes there.
std::optional<SplitReduction> splitReduction(linalg::GenericOp op,
                                             SymbolTableCollection &tables) {
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (reductions.size() != 1 || !op.hasPureTensorSemantics() ||
      op.getNumDpsInits() == 0)
    return std::nullopt;
  SplitReduction split{reductions.front(), 0, 0, {}, {}, {}, {}};
  AffineExpr loopExpr = getAffineDimExpr(split.loop, op.getContext());
  // The final reduction reads every partial through one map: the outputs
  // must be indexed alike (not transposed or of other ranks).
  AffineMap initMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (OpOperand &init : op.getDpsInitsMutable())
    if (op.getMatchingIndexingMap(&init) != initMap ||
        initMap.isFunctionOfDim(split.loop))
      return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    int64_t dim = -1;
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      if (expr == loopExpr && dim < 0)
        dim = d;
      else if (expr.isFunctionOfDim(split.loop))
        return std::nullopt;
    }
    split.inputDims.push_back(dim);
    split.inputShardings.push_back(MeshSharding());
    if (dim < 0)
      continue;
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    auto shard = input->get().getDefiningOp<ShardOp>();
    if (!type || !type.hasStaticShape() || !shard)
      return std::nullopt;
    MeshSharding sharding = MeshSharding::get(shard.getSharding());
    if (!sharding || !sharding.getPartialAxes().empty() ||
        !sharding.getStaticHaloSizes().empty() ||
        !sharding.getStaticShardedDimsOffsets().empty())
      return std::nullopt;
    ArrayRef<MeshAxis> axes = sharding.getSplitAxes(dim);
    if (axes.empty() || (split.mesh && (split.mesh != sharding.getMeshAttr() ||
                                        split.axes != axes)))
      return std::nullopt;
    split.mesh = sharding.getMeshAttr();
    split.axes.assign(axes.begin(), axes.end());
    split.extent = type.getDimSize(dim);
    split.inputShardings.back() = sharding;
  }
  if (!split.mesh)
    return std::nullopt;
  MeshOp mesh = getMesh(op, split.mesh, tables);
  if (!mesh || ShapedType::isDynamicShape(mesh.getShape()))
    return std::nullopt;
  split.groupSize = 1;
  for (MeshAxis axis : split.axes) {
    if (axis < 0 || axis >= static_cast<int64_t>(mesh.getShape().size()))
      return std::nullopt;
    split.groupSize *= mesh.getShape()[axis];
  }
  if (split.groupSize < 2 || split.extent % split.groupSize != 0)
    return std::nullopt;
  return split;
}

/// Whether gathering the partials sends fewer bytes than gathering the
/// inputs that read the loop (both all_gathers over the same group; a piece
/// of an input is its whole divided by g, a partial is one output's size).
bool partialsAreCheaper(linalg::GenericOp op, const SplitReduction &split) {
  double factor = *ringFactor("mesh.all_gather", split.groupSize);
  double inputs = 0, partials = 0;
  for (auto [input, dim] : llvm::zip(op.getDpsInputs(), split.inputDims)) {
    std::optional<int64_t> bytes = tensorBytes(input.getType());
    if (dim >= 0 && bytes)
      inputs += factor * double(*bytes) / split.groupSize;
  }
  for (Value result : op->getResults()) {
    std::optional<int64_t> bytes = tensorBytes(result.getType());
    if (!bytes)
      return false;
    partials += factor * double(*bytes);
  }
  return partials < inputs;
}

/// `value` annotated with `sharding`.
Value annotate(OpBuilder &builder, Value value, const MeshSharding &sharding) {
  Value shardingValue =
      ShardingOp::create(builder, value.getLoc(), sharding).getResult();
  return ShardOp::create(builder, value.getLoc(), value.getType(), value,
                         shardingValue, /*annotate_for_users=*/false)
      .getResult();
}

/// The sharding of `result`'s annotation (its first shard user's), with
/// the loop's axes added as a trailing dimension of `rank`.
MeshSharding withTrailingSplit(OpResult result, int64_t rank,
                               const SplitReduction &split) {
  SplitAxes axes;
  ShardOp shard;
  for (Operation *user : result.getUsers())
    if ((shard = dyn_cast<ShardOp>(user)))
      break;
  if (shard)
    if (MeshSharding sharding = MeshSharding::get(shard.getSharding());
        sharding && sharding.getMeshAttr() == split.mesh)
      axes.assign(sharding.getSplitAxes().begin(),
                  sharding.getSplitAxes().end());
  axes.resize(rank);
  for (const DimSplitAxes &dimAxes : axes)
    for (MeshAxis axis : dimAxes)
      if (llvm::is_contained(split.axes, axis))
        return MeshSharding(); // The loop's axes already split the output.
  axes.push_back(DimSplitAxes(split.axes.begin(), split.axes.end()));
  return MeshSharding(split.mesh, axes);
}

} // namespace

namespace {

/// `input` with dimension `dim` (of extent g * n) reshaped into (g, n), the
/// g dimension annotated split as the original dimension was.
Value expandInput(OpBuilder &builder, Value input, int64_t dim,
                  const MeshSharding &sharding, const SplitReduction &split) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = split.groupSize;
  shape.insert(shape.begin() + dim + 1, split.extent / split.groupSize);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0, r = 0; d < type.getRank(); ++d) {
    ReassociationIndices group{r++};
    if (d == dim)
      group.push_back(r++);
    groups.push_back(group);
  }
  Location loc = input.getLoc();
  Value expanded = tensor::ExpandShapeOp::create(
      builder, loc, RankedTensorType::get(shape, type.getElementType()),
      input, groups);
  SplitAxes axes(sharding.getSplitAxes().begin(),
                 sharding.getSplitAxes().end());
  axes.resize(type.getRank());
  axes.insert(axes.begin() + dim + 1, DimSplitAxes());
  return annotate(builder, expanded, MeshSharding(split.mesh, axes));
}

/// (d0, ..., d[rank-1]) -> (d0, ..., d[rank-2]): every loop but the trailing
/// one. Not getMajorSubMap, which returns a null map for a 0-d result.
AffineMap leadingDims(unsigned rank, MLIRContext *ctx) {
  SmallVector<AffineExpr> results;
  for (unsigned d = 0; d + 1 < rank; ++d)
    results.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, results, ctx);
}

/// `init` repeated along a new trailing dimension of size g.
Value repeatInit(OpBuilder &builder, Value init, const SplitReduction &split,
                 const MeshSharding &sharding) {
  auto type = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(split.groupSize);
  Location loc = init.getLoc();
  Value empty =
      tensor::EmptyOp::create(builder, loc, shape, type.getElementType());
  unsigned rank = shape.size();
  MLIRContext *ctx = builder.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<AffineMap> maps{leadingDims(rank, ctx), identity};
  auto repeat = linalg::GenericOp::create(
      builder, loc, TypeRange{empty.getType()}, ValueRange{init},
      ValueRange{empty}, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, args[0]);
      });
  return annotate(builder, repeat.getResult(0), sharding);
}

/// The first reduction: `op`'s loops plus a trailing parallel loop q over
/// the pieces, the reduction loop now running over one piece; its body's
/// linalg.index of the reduction loop reads q * n + r.
linalg::GenericOp buildPartials(OpBuilder &builder, linalg::GenericOp op,
                                const SplitReduction &split,
                                ArrayRef<MeshSharding> partialShardings) {
  MLIRContext *ctx = op.getContext();
  unsigned numLoops = op.getNumLoops();
  AffineExpr q = getAffineDimExpr(numLoops, ctx);
  AffineExpr r = getAffineDimExpr(split.loop, ctx);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<AffineMap> opMaps = op.getIndexingMapsArray();
  for (auto [input, dim, sharding] : llvm::zip(
           op.getDpsInputs(), split.inputDims, split.inputShardings)) {
    AffineMap map = opMaps[maps.size()];
    SmallVector<AffineExpr> results(map.getResults());
    if (dim >= 0) {
      input = expandInput(builder, input, dim, sharding, split);
      results[dim] = q;
      results.insert(results.begin() + dim + 1, r);
    }
    inputs.push_back(input);
    maps.push_back(AffineMap::get(numLoops + 1, 0, results, ctx));
  }
  SmallVector<Value> inits;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    SmallVector<AffineExpr> results(
        op.getMatchingIndexingMap(&init).getResults());
    results.push_back(q);
    maps.push_back(AffineMap::get(numLoops + 1, 0, results, ctx));
    inits.push_back(repeatInit(builder, init.get(), split,
                               partialShardings[inits.size()]));
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.push_back(utils::IteratorType::parallel);
  SmallVector<Type> types;
  for (Value init : inits)
    types.push_back(init.getType());
  auto partial = linalg::GenericOp::create(builder, op.getLoc(), types, inputs,
                                           inits, maps, iterators);
  IRMapping mapping;
  op.getRegion().cloneInto(&partial.getRegion(), mapping);
  // The reduction loop's global position: local + piece * piece extent.
  int64_t pieceExtent = split.extent / split.groupSize;
  meshsdy::offsetLinalgPositions(
      partial, builder, [&](OpBuilder &b, linalg::IndexOp index) -> Value {
        if (index.getDim() != split.loop)
          return Value();
        Location loc = index.getLoc();
        Value piece = linalg::IndexOp::create(b, loc, numLoops);
        return arith::MulIOp::create(
            b, loc, piece, arith::ConstantIndexOp::create(b, loc, pieceExtent));
      });
  return partial;
}

/// The second reduction: the combiner over the trailing dimension of the
/// partials, into `op`'s inits.
linalg::GenericOp buildFinal(OpBuilder &builder, linalg::GenericOp op,
                             ValueRange partials, const Combiner &combiner) {
  MLIRContext *ctx = op.getContext();
  unsigned rank = cast<RankedTensorType>(partials[0].getType()).getRank();
  SmallVector<AffineMap> maps(partials.size(),
                              AffineMap::getMultiDimIdentityMap(rank, ctx));
  maps.append(op.getNumDpsInits(), leadingDims(rank, ctx));
  SmallVector<utils::IteratorType> iterators(rank - 1,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  auto body = [&](OpBuilder &b, Location loc, ValueRange args) {
    IRMapping mapping;
    for (auto [i, element] : llvm::enumerate(combiner.elements)) {
      mapping.map(element, args[i]);
      mapping.map(op.getRegionOutputArgs()[i], args[partials.size() + i]);
    }
    for (Operation *inner : combiner.ops)
      b.clone(*inner, mapping);
    SmallVector<Value> yields;
    for (Value value : op.getBody()->getTerminator()->getOperands())
      yields.push_back(mapping.lookupOrDefault(value));
    linalg::YieldOp::create(b, loc, yields);
  };
  return linalg::GenericOp::create(builder, op.getLoc(), op->getResultTypes(),
                                   partials, op.getDpsInits(), maps,
                                   iterators, body);
}

/// Rewrites `op` into its two reductions if that is possible and cheaper;
/// returns whether it did.
bool rewrite(linalg::GenericOp op, SymbolTableCollection &tables) {
  auto sharding = dyn_cast<ShardingInterface>(op.getOperation());
  if (!sharding ||
      !llvm::is_contained(sharding.getReductionLoopIteratorKinds(),
                          ReductionKind::Generic))
    return false;
  std::optional<SplitReduction> split = splitReduction(op, tables);
  if (!split || !partialsAreCheaper(op, *split))
    return false;
  std::optional<Combiner> combiner = selectingCombiner(op);
  if (!combiner)
    return false;
  SmallVector<MeshSharding, 2> partialShardings;
  for (OpResult result : op->getResults()) {
    auto type = cast<RankedTensorType>(result.getType());
    partialShardings.push_back(
        withTrailingSplit(result, type.getRank(), *split));
    if (!partialShardings.back())
      return false;
  }
  OpBuilder builder(op);
  linalg::GenericOp partial =
      buildPartials(builder, op, *split, partialShardings);
  SmallVector<Value> partials;
  for (auto [result, sharding] :
       llvm::zip(partial->getResults(), partialShardings))
    partials.push_back(annotate(builder, result, sharding));
  linalg::GenericOp final = buildFinal(builder, op, partials, *combiner);
  op->replaceAllUsesWith(final->getResults());
  op->erase();
  return true;
}

struct MeshGatherPartialReductionsPass
    : mesh::impl::MeshGatherPartialReductionsBase<
          MeshGatherPartialReductionsPass> {
  void runOnOperation() override {
    SymbolTableCollection tables;
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk(
        [&](linalg::GenericOp op) { candidates.push_back(op); });
    bool changed = false;
    for (linalg::GenericOp op : candidates)
      changed |= rewrite(op, tables);
    // Unchanged: the pass manager skips the verifier.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
