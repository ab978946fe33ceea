//===- Resharding.cpp - collectives between two shardings -----------------===//

#include "Resharding.h"

#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// Working state of a resharding: the split axes per dimension and the
/// partial axes the current local value has.
struct State {
  SplitAxes split;
  SmallVector<MeshAxis> partial;
  ReductionKind partialType = ReductionKind::Sum;

  explicit State(const MeshSharding &sharding, size_t rank) {
    split.resize(rank);
    if (!sharding)
      return;
    for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes()))
      if (dim < rank)
        split[dim] = DimSplitAxes(axes);
    partial.assign(sharding.getPartialAxes().begin(),
                   sharding.getPartialAxes().end());
    partialType = sharding.getPartialType();
  }

  MeshSharding toSharding(FlatSymbolRefAttr mesh) const {
    return MeshSharding(mesh, split, partial, partialType);
  }
};

/// True if `sharding` has a non-zero halo.
bool hasHalos(const MeshSharding &sharding) {
  return sharding && llvm::any_of(sharding.getStaticHaloSizes(),
                                  [](int64_t size) { return size != 0; });
}

/// `sharding` with the same split and partial axes, without halos.
MeshSharding withoutHalos(const MeshSharding &sharding) {
  return MeshSharding(sharding.getMeshAttr(), sharding.getSplitAxes(),
                      sharding.getPartialAxes(), sharding.getPartialType());
}

/// The (low, high) halo of each tensor dimension under `sharding`: the
/// halo sizes are listed for the split dimensions only.
std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
halosPerDim(const MeshSharding &sharding, int64_t rank) {
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  ArrayRef<int64_t> sizes = sharding.getStaticHaloSizes();
  for (auto [i, dim] : llvm::enumerate(sharding.getShardedDims())) {
    if (2 * i + 1 >= sizes.size() || dim >= rank)
      break;
    low[dim] = sizes[2 * i];
    high[dim] = sizes[2 * i + 1];
  }
  return {low, high};
}

/// The core of each shard: the halos cut off.
FailureOr<Value> dropHalos(OpBuilder &builder, Location loc, MeshOp mesh,
                           Value local, RankedTensorType global,
                           const MeshSharding &sharding) {
  FailureOr<RankedTensorType> coreType =
      getLocalType(loc, global, mesh, withoutHalos(sharding));
  if (failed(coreType))
    return failure();
  auto [low, high] = halosPerDim(sharding, global.getRank());
  SmallVector<OpFoldResult> offsets, sizes,
      strides(global.getRank(), builder.getIndexAttr(1));
  for (auto [dim, size] : llvm::enumerate(coreType->getShape())) {
    offsets.push_back(builder.getIndexAttr(low[dim]));
    sizes.push_back(builder.getIndexAttr(size));
  }
  return tensor::ExtractSliceOp::create(builder, loc, *coreType, local,
                                        offsets, sizes, strides)
      .getResult();
}

/// A zero to pad tensors of `elementType` with (what the padding holds is
/// never read), or a diagnostic for types without a zero constant
/// (e.g. complex numbers).
FailureOr<Value> buildPadValue(OpBuilder &builder, Location loc,
                               Type elementType) {
  TypedAttr zero = builder.getZeroAttr(elementType);
  if (!zero)
    return emitError(loc) << "unsupported by mesh-spmdization: padding a "
                             "tensor of "
                          << elementType << ", which has no zero constant";
  return arith::ConstantOp::create(builder, loc, zero).getResult();
}

/// Pads each shard's core with its halos and fills them from the
/// neighbours (`mesh.update_halo`).
FailureOr<Value> addHalos(OpBuilder &builder, Location loc, MeshOp mesh,
                          Value core, RankedTensorType global,
                          const MeshSharding &sharding) {
  FailureOr<RankedTensorType> type = getLocalType(loc, global, mesh, sharding);
  if (failed(type))
    return failure();
  auto [low, high] = halosPerDim(sharding, global.getRank());
  SmallVector<OpFoldResult> lowPad, highPad;
  for (int64_t dim = 0; dim < global.getRank(); ++dim) {
    lowPad.push_back(builder.getIndexAttr(low[dim]));
    highPad.push_back(builder.getIndexAttr(high[dim]));
  }
  FailureOr<Value> zero =
      buildPadValue(builder, loc, global.getElementType());
  if (failed(zero))
    return failure();
  Value padded = tensor::PadOp::create(builder, loc, *type, core, lowPad,
                                       highPad, *zero);
  return UpdateHaloOp::create(
             builder, loc, *type, padded, sharding.getMeshAttr(),
             sharding.getSplitAxesAttr(builder.getContext()), ValueRange(),
             builder.getDenseI64ArrayAttr(sharding.getStaticHaloSizes()))
      .getResult();
}

/// `sharding` without split axes on `dims`, and without offsets.
MeshSharding withoutDims(const MeshSharding &sharding,
                         ArrayRef<int64_t> dims) {
  SplitAxes split;
  for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes()))
    split.push_back(llvm::is_contained(dims, static_cast<int64_t>(dim))
                        ? DimSplitAxes()
                        : DimSplitAxes(axes));
  return MeshSharding(sharding.getMeshAttr(), split,
                      sharding.getPartialAxes(), sharding.getPartialType());
}

/// Cuts `count` pieces of `size` elements, placed at a stride of `stride`
/// along `dim`, out of `gathered` and joins them: a reshape to
/// (count, stride) and one slice, whatever the number of pieces.
Value takeStridedPieces(OpBuilder &builder, Location loc, Value gathered,
                        int64_t dim, int64_t start, int64_t count,
                        int64_t stride, int64_t size) {
  auto type = cast<RankedTensorType>(gathered.getType());
  int64_t rank = type.getRank();
  auto sliceAlong = [&](Value source, int64_t d, int64_t offset,
                        int64_t extent) -> Value {
    auto sourceType = cast<RankedTensorType>(source.getType());
    SmallVector<OpFoldResult> offsets(sourceType.getRank(),
                                      builder.getIndexAttr(0));
    SmallVector<OpFoldResult> extents =
        tensor::getMixedSizes(builder, loc, source);
    SmallVector<OpFoldResult> strides(sourceType.getRank(),
                                      builder.getIndexAttr(1));
    offsets[d] = builder.getIndexAttr(offset);
    extents[d] = builder.getIndexAttr(extent);
    SmallVector<int64_t> shape(sourceType.getShape());
    shape[d] = extent;
    return tensor::ExtractSliceOp::create(builder, loc,
                                          sourceType.clone(shape), source,
                                          offsets, extents, strides);
  };
  if (count == 1)
    return sliceAlong(gathered, dim, start, size);
  Value block = sliceAlong(gathered, dim, start, count * stride);
  if (size == stride)
    return block;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == dim)
      groups.push_back({d, d + 1});
    else
      groups.push_back({d < dim ? d : d + 1});
  }
  SmallVector<int64_t> split(type.getShape());
  split[dim] = stride;
  split.insert(split.begin() + dim, count);
  Value grid = tensor::ExpandShapeOp::create(builder, loc, type.clone(split),
                                             block, groups);
  Value cut = sliceAlong(grid, dim + 1, 0, size);
  SmallVector<int64_t> joined(type.getShape());
  joined[dim] = count * size;
  return tensor::CollapseShapeOp::create(builder, loc, type.clone(joined), cut,
                                         groups);
}

/// Makes dimension `dim` of `local` whole, from pieces of different sizes:
/// each device pads its piece to the largest, an `all_gather` collects the
/// padded pieces, and the pieces are cut out and joined. For the default
/// split (the first pieces one longer) that is two strided cuts, so the IR
/// does not grow with the group; explicit offsets cut piece by piece, as
/// many as the sharding lists.
FailureOr<Value> gatherUnevenDim(OpBuilder &builder, Location loc,
                                 MeshOp mesh, Value local, int64_t dim,
                                 ArrayRef<MeshAxis> axes,
                                 const DimPieces &pieces) {
  auto type = cast<RankedTensorType>(local.getType());
  int64_t largest = pieces.largest();
  int64_t count = pieces.count;
  SmallVector<OpFoldResult> low(type.getRank(), builder.getIndexAttr(0));
  SmallVector<OpFoldResult> high(type.getRank(), builder.getIndexAttr(0));
  Value size = tensor::DimOp::create(builder, loc, local, dim);
  high[dim] = arith::SubIOp::create(
                  builder, loc,
                  arith::ConstantIndexOp::create(builder, loc, largest), size)
                  .getResult();
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = largest;
  FailureOr<Value> zero = buildPadValue(builder, loc, type.getElementType());
  if (failed(zero))
    return failure();
  Value padded = tensor::PadOp::create(builder, loc, type.clone(shape), local,
                                       low, high, *zero);
  shape[dim] = largest * count;
  Value gathered = AllGatherOp::create(
      builder, loc, type.clone(shape),
      FlatSymbolRefAttr::get(builder.getContext(), mesh.getSymName()),
      builder.getDenseI16ArrayAttr(axes), padded, builder.getIndexAttr(dim));
  SmallVector<Value> parts;
  if (!pieces.isExplicit()) {
    int64_t longer = pieces.remainder;
    if (longer > 0 && pieces.first > 0)
      parts.push_back(takeStridedPieces(builder, loc, gathered, dim, 0, longer,
                                        largest, pieces.first));
    if (count > longer && pieces.rest > 0)
      parts.push_back(takeStridedPieces(builder, loc, gathered, dim,
                                        longer * largest, count - longer,
                                        largest, pieces.rest));
  } else {
    for (int64_t k = 0; k < count; ++k)
      if (pieces.size(k) > 0)
        parts.push_back(takeStridedPieces(builder, loc, gathered, dim,
                                          k * largest, 1, largest,
                                          pieces.size(k)));
  }
  if (parts.size() == 1)
    return parts.front();
  return tensor::ConcatOp::create(builder, loc, dim, parts).getResult();
}

/// Resharding where `from` or `to` has pieces of different sizes: the
/// uneven dimensions of `from` are gathered whole, the even rest is
/// resharded as usual, and the uneven dimensions of `to` are sliced out.
FailureOr<Value> reshardUneven(OpBuilder &builder, Location loc, MeshOp mesh,
                               Value local, RankedTensorType global,
                               const MeshSharding &from,
                               const MeshSharding &to,
                               ArrayRef<int64_t> unevenFrom,
                               ArrayRef<int64_t> unevenTo) {
  MeshSharding current = from;
  for (int64_t dim : unevenFrom) {
    FailureOr<DimPieces> pieces = getDimPieces(global, mesh, from, dim);
    if (failed(pieces))
      return emitError(loc) << "unsupported by mesh-spmdization: dimension "
                            << dim << " has no static pieces";
    FailureOr<Value> whole = gatherUnevenDim(builder, loc, mesh, local, dim,
                                             from.getSplitAxes()[dim], *pieces);
    if (failed(whole))
      return failure();
    local = *whole;
  }
  if (from)
    current = withoutDims(from, unevenFrom);
  MeshSharding evenTo = to ? withoutDims(to, unevenTo) : to;
  FailureOr<Value> even =
      reshard(builder, loc, mesh, local, global, current, evenTo);
  if (failed(even))
    return failure();
  local = *even;
  for (int64_t dim : unevenTo) {
    FailureOr<std::pair<Value, Value>> piece =
        buildLocalPiece(builder, loc, mesh, global, to, dim);
    if (failed(piece))
      return emitError(loc) << "unsupported by mesh-spmdization: dimension "
                            << dim << " has no static pieces";
    auto type = cast<RankedTensorType>(local.getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), builder.getIndexAttr(0));
    SmallVector<OpFoldResult> extents =
        tensor::getMixedSizes(builder, loc, local);
    SmallVector<OpFoldResult> strides(type.getRank(), builder.getIndexAttr(1));
    offsets[dim] = piece->first;
    extents[dim] = piece->second;
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = ShapedType::kDynamic;
    local = tensor::ExtractSliceOp::create(builder, loc, type.clone(shape),
                                           local, offsets, extents, strides);
  }
  return local;
}

/// `local` built again in the sharding `to`, without moving values, when it
/// holds none to move: a static tensor.empty (no values), or a linalg.fill
/// of a scalar (the same value everywhere) when neither side is partial
/// (a partial piece is a summand, not the value) and `to` has no halos (its
/// halos at the ends of the tensor hold the padding, not the value). Null
/// otherwise, or when the new piece's shape is not static.
Value rebuildWithoutValues(OpBuilder &builder, Location loc, MeshOp mesh,
                           Value local, RankedTensorType global,
                           const MeshSharding &from, const MeshSharding &to) {
  Operation *def = local.getDefiningOp();
  auto empty = dyn_cast_or_null<tensor::EmptyOp>(def);
  auto fill = dyn_cast_or_null<linalg::FillOp>(def);
  bool partial = (from && !from.getPartialAxes().empty()) ||
                 (to && !to.getPartialAxes().empty());
  // A tensor with a zero-size dimension has no elements on any device.
  bool noElements = llvm::is_contained(global.getShape(), 0);
  if (!noElements && !(empty && empty.getDynamicSizes().empty()) &&
      !(fill && fill->getNumResults() == 1 && !partial && !hasHalos(to)))
    return {};
  SmallVector<int64_t> shape =
      to ? getShardShape(global.getShape(), mesh.getShape(), to)
         : SmallVector<int64_t>(global.getShape());
  // Pieces of different sizes: each device sizes its own at run time.
  SmallVector<Value> sizes;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    if (!noElements || !to)
      return {};
    FailureOr<std::pair<Value, Value>> piece =
        buildLocalPiece(builder, loc, mesh, global, to, dim);
    if (failed(piece))
      return {};
    sizes.push_back(piece->second);
  }
  Value piece = tensor::EmptyOp::create(
      builder, loc, RankedTensorType::get(shape, global.getElementType(),
                                          global.getEncoding()),
      sizes);
  if (!fill || noElements)
    return piece;
  // The scalar dominates the old fill, which dominates this use.
  return linalg::FillOp::create(builder, loc, fill.getInputs(), piece)
      .getResult(0);
}

/// Whether dimension `dim` keeps its pieces from `from` to `to`: split over
/// the same axes on both sides, in the default pieces, it is neither
/// gathered nor cut again.
bool keepsPieces(const MeshSharding &from, const MeshSharding &to,
                 int64_t dim) {
  return from && to && from.getStaticShardedDimsOffsets().empty() &&
         to.getStaticShardedDimsOffsets().empty() &&
         dim < static_cast<int64_t>(from.getSplitAxes().size()) &&
         dim < static_cast<int64_t>(to.getSplitAxes().size()) &&
         from.getSplitAxes()[dim] == to.getSplitAxes()[dim];
}

/// Resharding where `from` or `to` has halos: a sharding with halos is left
/// through the same split without them (the core cut out) and reached from
/// it (padded, then `update_halo`).
FailureOr<Value> reshardThroughHalos(OpBuilder &builder, Location loc,
                                     MeshOp mesh, Value local,
                                     RankedTensorType global,
                                     const MeshSharding &from,
                                     const MeshSharding &to) {
  if (hasHalos(from)) {
    FailureOr<Value> core = dropHalos(builder, loc, mesh, local, global, from);
    if (failed(core))
      return failure();
    return reshard(builder, loc, mesh, *core, global, withoutHalos(from), to);
  }
  FailureOr<Value> core =
      reshard(builder, loc, mesh, local, global, from, withoutHalos(to));
  if (failed(core))
    return failure();
  return addHalos(builder, loc, mesh, *core, global, to);
}

/// Resharding between two shardings without halos or offsets whose pieces
/// are the same size on every device (Resharding.h, steps 1-4), as a state
/// machine: `cur` starts at `from`, and each step emits the collectives
/// that move it towards `target`, retyping the local value after each. After
/// step k every dimension's axes are a prefix of the target's, so each step
/// only shortens or only lengthens lists.
class EvenResharding {
public:
  /// `allowUneven`: some dimensions have pieces of different sizes, which
  /// both sides keep as they are.
  EvenResharding(OpBuilder &builder, Location loc, MeshOp mesh,
                 RankedTensorType global, const MeshSharding &from,
                 const MeshSharding &to, bool allowUneven)
      : builder(builder), loc(loc), mesh(mesh), global(global),
        meshAttr(FlatSymbolRefAttr::get(builder.getContext(),
                                        mesh.getSymName())),
        allowUneven(allowUneven), rank(global.getRank()), cur(from, rank),
        target(to, rank) {}

  /// Emits the collectives that turn `local` into its piece under `to`.
  FailureOr<Value> run(Value local);

private:
  // The steps, in the order they run.
  LogicalResult checkPartialAxes() const;
  LogicalResult reducePartialAxes();
  LogicalResult moveTrailingAxes();
  LogicalResult gatherLostAxes();
  LogicalResult sliceGainedAxes();

  /// The dimension that `to` splits exactly one step further over exactly
  /// the axes `reduce`, if any: those partial axes are reduce-scattered.
  std::optional<int64_t> scatterDimFor(ArrayRef<MeshAxis> reduce) const;
  /// The type of the local value in the current state.
  FailureOr<RankedTensorType> localType() const {
    return getLocalType(loc, global, mesh, cur.toSharding(meshAttr),
                        allowUneven);
  }
  DenseI16ArrayAttr axesAttr(ArrayRef<MeshAxis> axes) const {
    return DenseI16ArrayAttr::get(builder.getContext(), axes);
  }

  OpBuilder &builder;
  Location loc;
  MeshOp mesh;
  RankedTensorType global;
  FlatSymbolRefAttr meshAttr;
  bool allowUneven;
  size_t rank;
  State cur, target;
  Value local;
};

FailureOr<Value> EvenResharding::run(Value value) {
  local = value;
  if (failed(checkPartialAxes()) || failed(reducePartialAxes()) ||
      failed(moveTrailingAxes()) || failed(gatherLostAxes()) ||
      failed(sliceGainedAxes()))
    return failure();
  return local;
}

/// Partial axes can be completed, never added, and only with the reduction
/// that made them.
LogicalResult EvenResharding::checkPartialAxes() const {
  for (MeshAxis axis : target.partial)
    if (!llvm::is_contained(cur.partial, axis))
      return emitError(loc) << "unsupported by mesh-spmdization: making a "
                               "value partial over mesh axis "
                            << axis;
  // Partial results are combined with the reduction that made them: a
  // target naming another one (partial sums read as partial maxima) would
  // combine them wrongly.
  if (cur.partialType != target.partialType)
    for (MeshAxis axis : target.partial)
      if (llvm::is_contained(cur.partial, axis))
        return emitError(loc)
               << "unsupported by mesh-spmdization: a value partial <"
               << stringifyReductionKind(cur.partialType)
               << "> over mesh axis " << axis << " annotated partial <"
               << stringifyReductionKind(target.partialType)
               << ">: its partial results are not combined that way";
  return success();
}

/// 1. Complete the partial axes the target does not keep.
LogicalResult EvenResharding::reducePartialAxes() {
  SmallVector<MeshAxis> reduce;
  for (MeshAxis axis : cur.partial)
    if (!llvm::is_contained(target.partial, axis))
      reduce.push_back(axis);
  if (reduce.empty())
    return success();
  cur.partial.erase(llvm::remove_if(cur.partial,
                                    [&](MeshAxis a) {
                                      return llvm::is_contained(reduce, a);
                                    }),
                    cur.partial.end());
  std::optional<int64_t> scatterDim = scatterDimFor(reduce);
  if (scatterDim)
    llvm::append_range(cur.split[*scatterDim], reduce);
  FailureOr<RankedTensorType> type = localType();
  if (failed(type))
    return failure();
  auto kind = ReductionKindAttr::get(builder.getContext(), cur.partialType);
  if (scatterDim)
    local = ReduceScatterOp::create(builder, loc, *type, meshAttr,
                                    axesAttr(reduce), local, kind,
                                    builder.getIndexAttr(*scatterDim));
  else
    local = AllReduceOp::create(builder, loc, *type, meshAttr,
                                axesAttr(reduce), local, kind);
  return success();
}

std::optional<int64_t>
EvenResharding::scatterDimFor(ArrayRef<MeshAxis> reduce) const {
  for (size_t dim = 0; dim < rank; ++dim) {
    ArrayRef<MeshAxis> have = cur.split[dim], want = target.split[dim];
    if (want.size() == have.size() + reduce.size() &&
        want.take_front(have.size()) == have &&
        want.drop_front(have.size()) == reduce)
      return dim;
  }
  return std::nullopt;
}

/// 2. Move a trailing axis from one dimension to the end of another.
LogicalResult EvenResharding::moveTrailingAxes() {
  for (size_t src = 0; src < rank; ++src) {
    DimSplitAxes &have = cur.split[src];
    ArrayRef<MeshAxis> want = target.split[src];
    if (have.empty() || (have.size() <= want.size() &&
                         ArrayRef<MeshAxis>(have) == want.take_front(have.size())))
      continue;
    MeshAxis axis = have.back();
    for (size_t dst = 0; dst < rank; ++dst) {
      ArrayRef<MeshAxis> dstHave = cur.split[dst], dstWant = target.split[dst];
      if (dst == src || dstWant.size() != dstHave.size() + 1 ||
          dstWant.take_front(dstHave.size()) != dstHave ||
          dstWant.back() != axis)
        continue;
      have.pop_back();
      cur.split[dst].push_back(axis);
      FailureOr<RankedTensorType> type = localType();
      if (failed(type))
        return failure();
      local = AllToAllOp::create(builder, loc, *type, meshAttr,
                                 axesAttr({axis}), local,
                                 builder.getIndexAttr(dst),
                                 builder.getIndexAttr(src));
      break;
    }
  }
  return success();
}

/// 3. Gather the trailing axes each dimension does not keep.
LogicalResult EvenResharding::gatherLostAxes() {
  for (size_t dim = 0; dim < rank; ++dim) {
    DimSplitAxes &have = cur.split[dim];
    ArrayRef<MeshAxis> want = target.split[dim];
    size_t common = 0;
    while (common < have.size() && common < want.size() &&
           have[common] == want[common])
      ++common;
    if (common == have.size())
      continue;
    SmallVector<MeshAxis> gathered(have.begin() + common, have.end());
    have.resize(common);
    FailureOr<RankedTensorType> type = localType();
    if (failed(type))
      return failure();
    local = AllGatherOp::create(builder, loc, *type, meshAttr,
                                axesAttr(gathered), local,
                                builder.getIndexAttr(dim));
  }
  return success();
}

/// 4. Slice the axes each dimension gains.
LogicalResult EvenResharding::sliceGainedAxes() {
  for (size_t dim = 0; dim < rank; ++dim) {
    DimSplitAxes &have = cur.split[dim];
    ArrayRef<MeshAxis> want = target.split[dim];
    if (want.size() == have.size())
      continue;
    SmallVector<MeshAxis> sliced(want.begin() + have.size(), want.end());
    llvm::append_range(have, sliced);
    FailureOr<RankedTensorType> type = localType();
    if (failed(type))
      return failure();
    local = AllSliceOp::create(builder, loc, *type, meshAttr,
                               axesAttr(sliced), local,
                               builder.getIndexAttr(dim));
  }
  return success();
}

} // namespace

/// Dispatches on what the two shardings hold, most specific first: nothing
/// to do, values to rebuild rather than move, pieces of different sizes,
/// halos, and the even case.
FailureOr<Value> mlir::mesh::reshard(OpBuilder &builder, Location loc,
                                     MeshOp mesh, Value local,
                                     RankedTensorType global,
                                     const MeshSharding &from,
                                     const MeshSharding &to) {
  FlatSymbolRefAttr meshAttr =
      FlatSymbolRefAttr::get(builder.getContext(), mesh.getSymName());
  if ((from ? from : MeshSharding(meshAttr, {})) ==
      (to ? to : MeshSharding(meshAttr, {})))
    return local;
  if ((from && from.getMesh() != mesh.getSymName()) ||
      (to && to.getMesh() != mesh.getSymName()))
    return emitError(loc)
           << "unsupported by mesh-spmdization: resharding between meshes";
  if (Value rebuilt = rebuildWithoutValues(builder, loc, mesh, local, global,
                                           from, to))
    return rebuilt;
  // Pieces of different sizes (offsets, sizes that do not divide).
  SmallVector<int64_t> unevenFrom = getUnevenDims(global, mesh, from);
  SmallVector<int64_t> unevenTo = getUnevenDims(global, mesh, to);
  bool uneven = !unevenFrom.empty() || !unevenTo.empty();
  if (uneven && (hasHalos(from) || hasHalos(to)))
    return emitError(loc) << "unsupported by mesh-spmdization: halos on "
                             "shards of different sizes";
  auto keptAsIs = [&](int64_t dim) { return keepsPieces(from, to, dim); };
  llvm::erase_if(unevenFrom, keptAsIs);
  llvm::erase_if(unevenTo, keptAsIs);
  if (!unevenFrom.empty() || !unevenTo.empty())
    return reshardUneven(builder, loc, mesh, local, global, from, to,
                         unevenFrom, unevenTo);
  if ((from && !from.getStaticShardedDimsOffsets().empty()) ||
      (to && !to.getStaticShardedDimsOffsets().empty()))
    return emitError(loc) << "unsupported by mesh-spmdization: resharding "
                             "with sharded_dims_offsets";
  if (hasHalos(from) || hasHalos(to))
    return reshardThroughHalos(builder, loc, mesh, local, global, from, to);
  return EvenResharding(builder, loc, mesh, global, from, to,
                        /*allowUneven=*/uneven)
      .run(local);
}
