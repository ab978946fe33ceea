//===- PointToPoint.cpp - all_gather, all_to_all as mpi transfers ---------===//
//
// The upstream mpi dialect has no allgather or alltoall. Both are loops of
// sends and receives over the group's communicator, on a
// staging buffer that holds the group's pieces as [g, piece...] (contiguous
// blocks); tensor reshapes and transposes move the pieces between that
// layout and the tensors' gather / split / concat axes.
//
//===----------------------------------------------------------------------===//

#include "MPIHelpers.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// `permutation` moving dimension `from` of a rank-`rank` tensor to `to`.
SmallVector<int64_t> moveDim(int64_t rank, int64_t from, int64_t to) {
  SmallVector<int64_t> order;
  for (int64_t d = 0; d < rank; ++d)
    if (d != from)
      order.push_back(d);
  order.insert(order.begin() + to, from);
  return order;
}

Value transposeTensor(OpBuilder &builder, Location loc, Value value,
                      ArrayRef<int64_t> permutation) {
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t d : permutation)
    shape.push_back(type.getDimSize(d));
  Value init = tensor::EmptyOp::create(builder, loc, shape,
                                       type.getElementType());
  return linalg::TransposeOp::create(builder, loc, value, init, permutation)
      .getResult()[0];
}

/// Reassociation of a rank-`rank` tensor with dimension `axis` split in two.
SmallVector<ReassociationIndices> splitDimGroups(int64_t rank, int64_t axis) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d)
    groups.push_back(d == axis ? ReassociationIndices{d, d + 1}
                               : ReassociationIndices{d < axis ? d : d + 1});
  return groups;
}

/// tensor<..., g*p at `axis`, ...> as tensor<g, ..., p, ...>: piece k of
/// the axis becomes block k.
Value toBlocks(OpBuilder &builder, Location loc, Value value, int64_t axis,
               int64_t count) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] /= count;
  shape.insert(shape.begin() + axis, count);
  Value split = tensor::ExpandShapeOp::create(
      builder, loc, type.clone(shape), value,
      splitDimGroups(type.getRank(), axis));
  return transposeTensor(builder, loc, split,
                         moveDim(type.getRank() + 1, axis, 0));
}

/// `toBlocks` in a new buffer, with its type.
std::pair<Value, MemRefType> blocksBuffer(OpBuilder &builder, Location loc,
                                          Value value, int64_t axis,
                                          int64_t count) {
  Value buffer =
      meshsdy::bufferCopy(builder, loc, toBlocks(builder, loc, value, axis, count));
  return {buffer, cast<MemRefType>(buffer.getType())};
}

/// The inverse of `toBlocks`: block k becomes piece k of `axis`.
Value fromBlocks(OpBuilder &builder, Location loc, Value blocks,
                 int64_t axis) {
  auto type = cast<RankedTensorType>(blocks.getType());
  int64_t rank = type.getRank() - 1;
  Value moved =
      transposeTensor(builder, loc, blocks, moveDim(rank + 1, 0, axis));
  return tensor::CollapseShapeOp::create(builder, loc, moved,
                                         splitDimGroups(rank, axis));
}

/// Block `index` of the [g, piece...] buffer `blocks`, as a rank-reduced view.
Value blockView(OpBuilder &builder, Location loc, Value blocks, Value index) {
  auto type = cast<MemRefType>(blocks.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), builder.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(),
                                           builder.getIndexAttr(1));
  offsets[0] = index;
  sizes.push_back(builder.getIndexAttr(1));
  for (int64_t size : type.getShape().drop_front())
    sizes.push_back(builder.getIndexAttr(size));
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      type.getShape().drop_front(), type, offsets, sizes, strides);
  return memref::SubViewOp::create(builder, loc, cast<MemRefType>(viewType),
                                   blocks, offsets, sizes, strides);
}

Value toI32(OpBuilder &builder, Location loc, Value index) {
  return arith::IndexCastOp::create(builder, loc, builder.getI32Type(), index);
}

/// `(a + b) mod g` for in-group indices a, b in [0, g).
Value addMod(OpBuilder &builder, Location loc, Value a, Value b, Value g) {
  return arith::RemUIOp::create(builder, loc,
                                arith::AddIOp::create(builder, loc, a, b), g);
}

/// One exchange step: sends block `sendBlock` of `source` to the device
/// `distance` ahead in the group and receives block `recvBlock` of `target`
/// from the one `distance` behind, through contiguous buffers. Upstream's
/// mpi-to-llvm lowers only blocking send and recv, so the order avoids a
/// cycle of waiting senders: a device whose destination wraps around the
/// group receives first, the others send first (every cycle of x -> x +
/// distance mod g wraps, so each has a receiver that unblocks it).
void exchange(OpBuilder &builder, Location loc, Value comm, Value me,
              Value count, Value distance, Value source, Value sendBlock,
              Value target, Value recvBlock, Value sendBuffer,
              Value recvBuffer) {
  Value tag = arith::ConstantIntOp::create(builder, loc, 0, 32);
  Value ahead = arith::AddIOp::create(builder, loc, me, distance);
  Value dest = toI32(builder, loc,
                     arith::RemUIOp::create(builder, loc, ahead, count));
  Value from = toI32(
      builder, loc,
      addMod(builder, loc, me,
             arith::SubIOp::create(builder, loc, count, distance), count));
  memref::CopyOp::create(builder, loc,
                         blockView(builder, loc, source, sendBlock),
                         sendBuffer);
  Value sendView = meshsdy::flattenBuffer(builder, loc, sendBuffer);
  Value recvView = meshsdy::flattenBuffer(builder, loc, recvBuffer);
  auto send = [&](OpBuilder &b) {
    mpi::SendOp::create(b, loc, Type(), sendView, tag, dest, comm);
  };
  auto recv = [&](OpBuilder &b) {
    mpi::RecvOp::create(b, loc, Type(), recvView, tag, from, comm);
  };
  Value sendFirst = arith::CmpIOp::create(builder, loc,
                                          arith::CmpIPredicate::ult, ahead,
                                          count);
  scf::IfOp::create(
      builder, loc, sendFirst,
      [&](OpBuilder &b, Location) {
        send(b);
        recv(b);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location) {
        recv(b);
        send(b);
        scf::YieldOp::create(b, loc);
      });
  if (target) // else the caller reads recvBuffer
    memref::CopyOp::create(builder, loc, recvBuffer,
                           blockView(builder, loc, target, recvBlock));
}

/// The mesh of collective `op` and its group size over `axes`, if both
/// are static and so are its tensor operands (the pass checked them).
template <typename OpTy>
std::optional<std::pair<MeshOp, int64_t>> getStaticGroup(OpTy op) {
  ScanningSymbolTableCollection symbolTables;
  MeshOp mesh = getMesh(op, symbolTables);
  if (!mesh)
    return std::nullopt;
  int64_t count = collectiveProcessGroupSize(op.getMeshAxes(), mesh.getShape());
  bool staticShapes = llvm::all_of(op->getOperandTypes(), [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return !tensor || tensor.hasStaticShape();
  });
  if (ShapedType::isDynamic(count) || count <= 0 || !staticShapes)
    return std::nullopt;
  return std::make_pair(mesh, count);
}

/// What a step of the exchange loop works with.
struct Group {
  Value comm, me, count, one, sendBuffer, recvBuffer;
};

/// The scaffolding all_gather and all_to_all share: the group's
/// communicator and in-group index, the device's own block (`ownBlock`)
/// copied into block `me` of the [g, piece...] buffer `target`, a loop
/// s = 1 .. g-1 whose body `step` builds, and the result: `target`'s blocks
/// joined along `axis`, as `resultType`.
Value exchangeBlocks(PatternRewriter &rewriter, Location loc, MeshOp mesh,
                     ArrayRef<MeshAxis> axes, int64_t count, Value target,
                     Value ownBlock, int64_t axis, Type resultType,
                     function_ref<void(OpBuilder &, Value, const Group &)> step) {
  auto targetType = cast<MemRefType>(target.getType());
  auto pieceType = MemRefType::get(targetType.getShape().drop_front(),
                                   targetType.getElementType());
  Group group;
  group.sendBuffer = memref::AllocOp::create(rewriter, loc, pieceType);
  group.recvBuffer = memref::AllocOp::create(rewriter, loc, pieceType);
  group.comm = meshsdy::buildGroupComm(rewriter, loc, mesh, axes);
  group.me = buildInGroupIndex(rewriter, loc, mesh, axes);
  group.count = arith::ConstantIndexOp::create(rewriter, loc, count);
  group.one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value ownTarget = blockView(rewriter, loc, target, group.me);
  if (isa<RankedTensorType>(ownBlock.getType()))
    meshsdy::copyInto(rewriter, loc, ownBlock, ownTarget);
  else
    memref::CopyOp::create(rewriter, loc, ownBlock, ownTarget);
  scf::ForOp::create(rewriter, loc, group.one, group.count, group.one,
                     ValueRange{},
                     [&](OpBuilder &body, Location, Value s, ValueRange) {
                       step(body, s, group);
                       scf::YieldOp::create(body, loc);
                     });
  memref::DeallocOp::create(rewriter, loc, group.sendBuffer);
  memref::DeallocOp::create(rewriter, loc, group.recvBuffer);
  Value blocks = bufferization::ToTensorOp::create(
      rewriter, loc,
      RankedTensorType::get(targetType.getShape(), targetType.getElementType()),
      target, /*restrict=*/true, /*writable=*/true);
  return meshsdy::joinBlocks(rewriter, loc, blocks, axis, resultType);
}

/// all_gather as a ring: in step s, each device sends the block it got in
/// step s-1 (its own at first) to the next device and receives the previous
/// device's into block (me - s) mod g.
struct AllGatherAsRing : OpRewritePattern<AllGatherOp> {
  AllGatherAsRing(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    auto group = getStaticGroup(op);
    if (!group)
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    auto [mesh, count] = *group;
    Location loc = op.getLoc();
    auto input = cast<RankedTensorType>(op.getInput().getType());
    SmallVector<int64_t> blocksShape{count};
    llvm::append_range(blocksShape, input.getShape());
    Value blocks = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(blocksShape, input.getElementType()));
    // The input itself: written into its block where it is read.
    Value own = op.getInput();
    rewriter.replaceOp(
        op, exchangeBlocks(
                rewriter, loc, mesh, op.getMeshAxes(), count, blocks, own,
                op.getGatherAxis().getSExtValue(), op.getType(),
                [&](OpBuilder &body, Value s, const Group &group) {
                  // Sent: block (me - s + 1) mod g; received: (me - s) mod g.
                  Value back =
                      arith::SubIOp::create(body, loc, group.count, s);
                  Value received =
                      addMod(body, loc, group.me, back, group.count);
                  Value sent =
                      addMod(body, loc, received, group.one, group.count);
                  exchange(body, loc, group.comm, group.me, group.count,
                           group.one, blocks, sent, blocks, received,
                           group.sendBuffer, group.recvBuffer);
                }));
    return success();
  }
};

/// all_to_all as pairwise exchanges: in step s, each device sends its block
/// for device (me + s) mod g and receives from device (me - s) mod g.
struct AllToAllAsExchanges : OpRewritePattern<AllToAllOp> {
  AllToAllAsExchanges(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(AllToAllOp op,
                                PatternRewriter &rewriter) const override {
    auto group = getStaticGroup(op);
    if (!group)
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    auto [mesh, count] = *group;
    Location loc = op.getLoc();
    // Plain variables, not a structured binding: the lambda below uses them.
    Value source;
    MemRefType bufferType;
    std::tie(source, bufferType) = blocksBuffer(
        rewriter, loc, op.getInput(), op.getSplitAxis().getSExtValue(), count);
    Value target = memref::AllocOp::create(rewriter, loc, bufferType);
    // The device's own block stays: it is copied from source to target.
    Value me = buildInGroupIndex(rewriter, loc, mesh, op.getMeshAxes());
    Value result = exchangeBlocks(
        rewriter, loc, mesh, op.getMeshAxes(), count, target,
        blockView(rewriter, loc, source, me), op.getConcatAxis().getSExtValue(),
        op.getType(), [&](OpBuilder &body, Value s, const Group &group) {
          Value to = addMod(body, loc, group.me, s, group.count);
          Value back = arith::SubIOp::create(body, loc, group.count, s);
          Value from = addMod(body, loc, group.me, back, group.count);
          exchange(body, loc, group.comm, group.me, group.count, s, source, to,
                   target, from, group.sendBuffer, group.recvBuffer);
        });
    memref::DeallocOp::create(rewriter, loc, source);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::meshsdy::combineInto(OpBuilder &b, Location loc, ReductionKind kind,
                                Value from, Value into) {
  auto type = cast<MemRefType>(into.getType());
  int64_t rank = type.getRank();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  bool isFloat = isa<FloatType>(type.getElementType());
  linalg::GenericOp::create(
      b, loc, ValueRange{from}, ValueRange{into},
      ArrayRef<AffineMap>{identity, identity}, parallel,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value x = args[0], acc = args[1], combined;
        switch (kind) {
        case ReductionKind::Sum:
        case ReductionKind::Average:
          combined = isFloat ? arith::AddFOp::create(nb, nloc, acc, x).getResult()
                             : arith::AddIOp::create(nb, nloc, acc, x).getResult();
          break;
        case ReductionKind::Product:
          combined = isFloat ? arith::MulFOp::create(nb, nloc, acc, x).getResult()
                             : arith::MulIOp::create(nb, nloc, acc, x).getResult();
          break;
        case ReductionKind::Max:
          combined =
              isFloat ? arith::MaximumFOp::create(nb, nloc, acc, x).getResult()
                      : arith::MaxSIOp::create(nb, nloc, acc, x).getResult();
          break;
        case ReductionKind::Min:
          combined =
              isFloat ? arith::MinimumFOp::create(nb, nloc, acc, x).getResult()
                      : arith::MinSIOp::create(nb, nloc, acc, x).getResult();
          break;
        case ReductionKind::BitwiseAnd:
          combined = arith::AndIOp::create(nb, nloc, acc, x);
          break;
        case ReductionKind::BitwiseOr:
          combined = arith::OrIOp::create(nb, nloc, acc, x);
          break;
        case ReductionKind::BitwiseXor:
        case ReductionKind::Generic: // rejected by the pass
          combined = arith::XOrIOp::create(nb, nloc, acc, x);
          break;
        }
        linalg::YieldOp::create(nb, nloc, combined);
      });
}

namespace {

/// reduce_scatter as a ring: the input cut into [g, piece] blocks; in step
/// t = 0 .. g-2 each device sends its partial block (me - t - 1) mod g to
/// the next device and adds the previous device's partial block
/// (me - t - 2) mod g into its own. Block j starts at device j+1 and picks
/// up every device's contribution on its way round to device j, which ends
/// with it whole: (g-1)/g of the input sent per device.
struct ReduceScatterAsRing : OpRewritePattern<ReduceScatterOp> {
  ReduceScatterAsRing(MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(ReduceScatterOp op,
                                PatternRewriter &rewriter) const override {
    auto group = getStaticGroup(op);
    auto result = cast<RankedTensorType>(op.getType());
    if (!group || !result.hasStaticShape() ||
        result.getElementType() !=
            getElementTypeOrSelf(op.getInput().getType()) ||
        op.getReduction() == ReductionKind::Generic)
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    auto [mesh, count] = *group;
    Location loc = op.getLoc();
    Value blocksIn;
    MemRefType bufferType;
    std::tie(blocksIn, bufferType) = blocksBuffer(
        rewriter, loc, op.getInput(), op.getScatterAxis().getSExtValue(), count);
    auto pieceType = MemRefType::get(bufferType.getShape().drop_front(),
                                     bufferType.getElementType());
    // The partial sums accumulate in place, in the copy of the blocks.
    Value blocks = blocksIn;
    Value sendBuffer = memref::AllocOp::create(rewriter, loc, pieceType);
    Value recvBuffer = memref::AllocOp::create(rewriter, loc, pieceType);
    Value comm = meshsdy::buildGroupComm(rewriter, loc, mesh, op.getMeshAxes());
    Value me = buildInGroupIndex(rewriter, loc, mesh, op.getMeshAxes());
    Value g = arith::ConstantIndexOp::create(rewriter, loc, count);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    scf::ForOp::create(
        rewriter, loc, one, g, one, ValueRange{},
        [&](OpBuilder &body, Location, Value s, ValueRange) {
          // With s = t + 1: sent (me - s) mod g, received (me - s - 1) mod g.
          Value back = arith::SubIOp::create(body, loc, g, s);
          Value sent = addMod(body, loc, me, back, g);
          Value received = addMod(
              body, loc, sent, arith::SubIOp::create(body, loc, g, one), g);
          exchange(body, loc, comm, me, g, one, blocks, sent,
                   /*target=*/Value(), /*recvBlock=*/Value(), sendBuffer,
                   recvBuffer);
          meshsdy::combineInto(body, loc, op.getReduction(), recvBuffer,
                      blockView(body, loc, blocks, received));
          scf::YieldOp::create(body, loc);
        });
    Value piece = memref::AllocOp::create(rewriter, loc, pieceType);
    memref::CopyOp::create(rewriter, loc, blockView(rewriter, loc, blocks, me),
                           piece);
    memref::DeallocOp::create(rewriter, loc, sendBuffer);
    memref::DeallocOp::create(rewriter, loc, recvBuffer);
    memref::DeallocOp::create(rewriter, loc, blocks);
    Value reduced = bufferization::ToTensorOp::create(
        rewriter, loc,
        RankedTensorType::get(pieceType.getShape(), pieceType.getElementType()),
        piece, /*restrict=*/true, /*writable=*/true);
    if (op.getReduction() == ReductionKind::Average)
      reduced = meshsdy::divideByCount(rewriter, loc, reduced, count);
    if (reduced.getType() != op.getType())
      reduced = tensor::CastOp::create(rewriter, loc, op.getType(), reduced);
    rewriter.replaceOp(op, reduced);
    return success();
  }
};

/// A strided window of `buffer`: `size` elements from `offset` along `dim`,
/// everything along the other dimensions.
Value window(OpBuilder &builder, Location loc, Value buffer, int64_t dim,
             int64_t offset, int64_t size) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), builder.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(),
                                           builder.getIndexAttr(1));
  for (int64_t extent : type.getShape())
    sizes.push_back(builder.getIndexAttr(extent));
  offsets[dim] = builder.getIndexAttr(offset);
  sizes[dim] = builder.getIndexAttr(size);
  return memref::SubViewOp::create(builder, loc, buffer, offsets, sizes,
                                   strides);
}

/// Sends `view` to in-group rank `peer` if `condition`, through a
/// contiguous copy.
void sendIf(OpBuilder &builder, Location loc, Value condition, Value view,
            Value peer, Value comm) {
  scf::IfOp::create(builder, loc, condition, [&](OpBuilder &b, Location) {
    auto type = cast<MemRefType>(view.getType());
    Value staging = memref::AllocOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()));
    memref::CopyOp::create(b, loc, view, staging);
    mpi::SendOp::create(b, loc, Type(), meshsdy::flattenBuffer(b, loc, staging),
                        arith::ConstantIntOp::create(b, loc, 1, 32),
                        toI32(b, loc, peer), comm);
    memref::DeallocOp::create(b, loc, staging);
    scf::YieldOp::create(b, loc);
  });
}

/// Receives `view` from in-group rank `peer` if `condition`.
void recvIf(OpBuilder &builder, Location loc, Value condition, Value view,
            Value peer, Value comm) {
  scf::IfOp::create(builder, loc, condition, [&](OpBuilder &b, Location) {
    auto type = cast<MemRefType>(view.getType());
    Value staging = memref::AllocOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()));
    mpi::RecvOp::create(b, loc, Type(), meshsdy::flattenBuffer(b, loc, staging),
                        arith::ConstantIntOp::create(b, loc, 1, 32),
                        toI32(b, loc, peer), comm);
    memref::CopyOp::create(b, loc, staging, view);
    memref::DeallocOp::create(b, loc, staging);
    scf::YieldOp::create(b, loc);
  });
}

/// update_halo as neighbour exchanges, dimension after dimension (over the
/// full extent of the others, so corners come from diagonal neighbours): the
/// low halo from the end of the previous device's core, the high halo from
/// the start of the next one's. Each exchange is a chain, not a cycle (the
/// edge devices only receive or only send), so blocking send-then-receive
/// cannot deadlock; devices at the edges keep their halos.
struct UpdateHaloAsExchanges : OpRewritePattern<UpdateHaloOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(UpdateHaloOp op,
                                PatternRewriter &rewriter) const override {
    ScanningSymbolTableCollection symbolTables;
    MeshOp mesh = getMesh(op, symbolTables);
    auto type = dyn_cast<RankedTensorType>(op.getDestination().getType());
    if (!mesh || ShapedType::isDynamicShape(mesh.getShape()) || !type ||
        !type.hasStaticShape() || !op.getHaloSizes().empty())
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    Location loc = op.getLoc();
    auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
    Value buffer = meshsdy::bufferCopy(rewriter, loc, op.getDestination());
    ArrayRef<int64_t> halos = op.getStaticHaloSizes();
    size_t pair = 0;
    for (auto [dim, axesAttr] : llvm::enumerate(op.getSplitAxes().getAxes())) {
      ArrayRef<MeshAxis> axes = axesAttr.asArrayRef();
      if (axes.empty())
        continue;
      if (2 * pair + 1 >= halos.size())
        break;
      int64_t low = halos[2 * pair], high = halos[2 * pair + 1];
      ++pair;
      int64_t count = collectiveProcessGroupSize(axes, mesh.getShape());
      int64_t core = type.getDimSize(dim) - low - high;
      if ((low == 0 && high == 0) || count <= 1)
        continue;
      Value comm = meshsdy::buildGroupComm(rewriter, loc, mesh, axes);
      Value me = buildInGroupIndex(rewriter, loc, mesh, axes);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value next = arith::AddIOp::create(rewriter, loc, me, one);
      Value previous = arith::SubIOp::create(rewriter, loc, me, one);
      Value hasNext = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, next,
          arith::ConstantIndexOp::create(rewriter, loc, count));
      Value hasPrevious = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ugt, me, zero);
      if (low > 0) {
        // My last `low` core elements are the next device's low halo.
        sendIf(rewriter, loc, hasNext,
               window(rewriter, loc, buffer, dim, core, low), next,
               comm);
        recvIf(rewriter, loc, hasPrevious,
               window(rewriter, loc, buffer, dim, 0, low), previous, comm);
      }
      if (high > 0) {
        // My first `high` core elements are the previous device's high halo.
        sendIf(rewriter, loc, hasPrevious,
               window(rewriter, loc, buffer, dim, low, high), previous, comm);
        recvIf(rewriter, loc, hasNext,
               window(rewriter, loc, buffer, dim, low + core, high), next,
               comm);
      }
    }
    rewriter.replaceOp(op, bufferization::ToTensorOp::create(
                               rewriter, loc, type, buffer, /*restrict=*/true,
                               /*writable=*/true));
    return success();
  }
};

} // namespace

void mlir::meshsdy::populatePointToPointCollectivePatterns(
    RewritePatternSet &patterns) {
  patterns.add<AllGatherAsRing, AllToAllAsExchanges, ReduceScatterAsRing,
               UpdateHaloAsExchanges>(patterns.getContext());
}

Value mlir::meshsdy::blockView(OpBuilder &builder, Location loc, Value blocks,
                               Value index) {
  return ::blockView(builder, loc, blocks, index);
}

Value mlir::meshsdy::splitBlocks(OpBuilder &builder, Location loc, Value value,
                                 int64_t axis, int64_t count) {
  return toBlocks(builder, loc, value, axis, count);
}

Value mlir::meshsdy::joinBlocks(OpBuilder &builder, Location loc, Value blocks,
                                int64_t axis, Type resultType) {
  Value result = fromBlocks(builder, loc, blocks, axis);
  if (result.getType() != resultType)
    result = tensor::CastOp::create(builder, loc, resultType, result);
  return result;
}
