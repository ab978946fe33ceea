//===- Rooted.cpp - broadcast, gather, scatter, reduce, shift, send/recv ---===//
//
// The collectives partitioning never emits but a hand-written partitioned
// program may hold, as blocking mpi.send / mpi.recv on the group's
// communicator (the root's transfers one after another, reduce combining
// each at the root).
//
//===----------------------------------------------------------------------===//

#include "MPIHelpers.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::mesh;

namespace {

Value indexConstant(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

/// The in-group index (row-major over `axes`) of the device at `coords`.
int64_t inGroupIndexOf(ArrayRef<int64_t> coords, ArrayRef<MeshAxis> axes,
                       ArrayRef<int64_t> meshShape) {
  int64_t index = 0;
  for (auto [axis, coord] : llvm::zip(axes, coords))
    index = index * meshShape[axis] + coord;
  return index;
}

/// Sends or receives all of `buffer` (through a contiguous view) to / from
/// in-group rank `peer`.
void sendBuffer(OpBuilder &b, Location loc, Value buffer, Value peer,
                Value comm) {
  mpi::SendOp::create(
      b, loc, Type(), meshsdy::flattenBuffer(b, loc, buffer),
      arith::ConstantIntOp::create(b, loc, 2, 32),
      arith::IndexCastOp::create(b, loc, b.getI32Type(), peer), comm);
}
void recvBuffer(OpBuilder &b, Location loc, Value buffer, Value peer,
                Value comm) {
  mpi::RecvOp::create(
      b, loc, Type(), meshsdy::flattenBuffer(b, loc, buffer),
      arith::ConstantIntOp::create(b, loc, 2, 32),
      arith::IndexCastOp::create(b, loc, b.getI32Type(), peer), comm);
}

/// A fresh identity-layout copy of `tensor`, which the transfers may write.
Value bufferOf(OpBuilder &b, Location loc, Value tensor) {
  return meshsdy::bufferCopy(b, loc, tensor);
}

Value tensorOf(OpBuilder &b, Location loc, Value buffer, Type type) {
  return bufferization::ToTensorOp::create(b, loc, type, buffer,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

/// `body(k)` for every in-group index k but `skip`.
void forOthers(OpBuilder &b, Location loc, int64_t count, Value skip,
               function_ref<void(OpBuilder &, Value)> body) {
  scf::ForOp::create(
      b, loc, indexConstant(b, loc, 0), indexConstant(b, loc, count),
      indexConstant(b, loc, 1), ValueRange{},
      [&](OpBuilder &lb, Location, Value k, ValueRange) {
        Value other =
            arith::CmpIOp::create(lb, loc, arith::CmpIPredicate::ne, k, skip);
        scf::IfOp::create(lb, loc, other, [&](OpBuilder &ib, Location) {
          body(ib, k);
          scf::YieldOp::create(ib, loc);
        });
        scf::YieldOp::create(lb, loc);
      });
}

/// What the rooted patterns share: the mesh, the group size, the
/// communicator, the in-group index and the root's; fails (a match
/// failure) on dynamic meshes, shapes or roots.
struct RootedGroup {
  MeshOp mesh;
  int64_t count = 0;
  Value comm, me, root, isRoot;

  /// The shape of every rooted collective: the root runs `atRoot`, then
  /// `withOther(k)` for each other device k in group order; the others run
  /// `elsewhere`.
  void emit(OpBuilder &b, Location loc, function_ref<void(OpBuilder &)> atRoot,
            function_ref<void(OpBuilder &, Value)> withOther,
            function_ref<void(OpBuilder &)> elsewhere) const {
    scf::IfOp::create(
        b, loc, isRoot,
        [&](OpBuilder &rb, Location) {
          atRoot(rb);
          forOthers(rb, loc, count, root, withOther);
          scf::YieldOp::create(rb, loc);
        },
        [&](OpBuilder &eb, Location) {
          elsewhere(eb);
          scf::YieldOp::create(eb, loc);
        });
  }
};

/// `body(scratch)` with a scratch buffer of `type`, freed after.
void withScratch(OpBuilder &b, Location loc, MemRefType type,
                 function_ref<void(Value)> body) {
  Value scratch = memref::AllocOp::create(b, loc, type);
  body(scratch);
  memref::DeallocOp::create(b, loc, scratch);
}

template <typename OpTy>
FailureOr<RootedGroup> getRootedGroup(OpTy op, PatternRewriter &rewriter) {
  ScanningSymbolTableCollection symbolTables;
  RootedGroup group;
  group.mesh = getMesh(op, symbolTables);
  if (!group.mesh || ShapedType::isDynamicShape(group.mesh.getShape()) ||
      !op.getRootDynamic().empty())
    return failure();
  ArrayRef<MeshAxis> axes = op.getMeshAxes();
  group.count = collectiveProcessGroupSize(axes, group.mesh.getShape());
  Location loc = op.getLoc();
  group.comm = meshsdy::buildGroupComm(rewriter, loc, group.mesh, axes);
  group.me = buildInGroupIndex(rewriter, loc, group.mesh, axes);
  group.root = indexConstant(
      rewriter, loc,
      inGroupIndexOf(op.getRoot(), axes, group.mesh.getShape()));
  group.isRoot = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       group.me, group.root);
  return group;
}

/// broadcast: the root sends its input to every other device of the group.
struct BroadcastAsSends : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<RootedGroup> group = getRootedGroup(op, rewriter);
    if (failed(group))
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    Location loc = op.getLoc();
    Value buffer = bufferOf(rewriter, loc, op.getInput());
    group->emit(
        rewriter, loc, [](OpBuilder &) {},
        [&](OpBuilder &b, Value k) {
          sendBuffer(b, loc, buffer, k, group->comm);
        },
        [&](OpBuilder &b) {
          recvBuffer(b, loc, buffer, group->root, group->comm);
        });
    rewriter.replaceOp(op, tensorOf(rewriter, loc, buffer, op.getType()));
    return success();
  }
};

/// gather: every other device sends its input to the root, which puts the
/// pieces in group order along gather_axis; the others' result is
/// undefined (left as allocated).
struct GatherAsSends : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto input = cast<RankedTensorType>(op.getInput().getType());
    FailureOr<RootedGroup> group = getRootedGroup(op, rewriter);
    if (failed(group) || !input.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    Location loc = op.getLoc();
    SmallVector<int64_t> blocksShape{group->count};
    llvm::append_range(blocksShape, input.getShape());
    Value blocks = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(blocksShape, input.getElementType()));
    Value own = bufferOf(rewriter, loc, op.getInput());
    auto pieceType = cast<MemRefType>(own.getType());
    group->emit(
        rewriter, loc,
        [&](OpBuilder &b) {
          memref::CopyOp::create(
              b, loc, own, meshsdy::blockView(b, loc, blocks, group->root));
        },
        [&](OpBuilder &b, Value k) {
          withScratch(b, loc, pieceType, [&](Value piece) {
            recvBuffer(b, loc, piece, k, group->comm);
            memref::CopyOp::create(b, loc, piece,
                                   meshsdy::blockView(b, loc, blocks, k));
          });
        },
        [&](OpBuilder &b) { sendBuffer(b, loc, own, group->root, group->comm); });
    Value gathered = tensorOf(
        rewriter, loc, blocks,
        RankedTensorType::get(blocksShape, input.getElementType()));
    rewriter.replaceOp(op, meshsdy::joinBlocks(rewriter, loc, gathered,
                                               op.getGatherAxis().getSExtValue(),
                                               op.getType()));
    return success();
  }
};

/// scatter: the root cuts its input along scatter_axis and sends piece k to
/// device k.
struct ScatterAsSends : OpRewritePattern<ScatterOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScatterOp op,
                                PatternRewriter &rewriter) const override {
    auto result = cast<RankedTensorType>(op.getType());
    FailureOr<RootedGroup> group = getRootedGroup(op, rewriter);
    if (failed(group) || !result.hasStaticShape() ||
        !cast<RankedTensorType>(op.getInput().getType()).hasStaticShape())
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    Location loc = op.getLoc();
    Value blocks = bufferOf(
        rewriter, loc,
        meshsdy::splitBlocks(rewriter, loc, op.getInput(),
                             op.getScatterAxis().getSExtValue(), group->count));
    Value piece = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(result.getShape(), result.getElementType()));
    group->emit(
        rewriter, loc,
        [&](OpBuilder &b) {
          memref::CopyOp::create(
              b, loc, meshsdy::blockView(b, loc, blocks, group->root), piece);
        },
        [&](OpBuilder &b, Value k) {
          withScratch(b, loc, cast<MemRefType>(piece.getType()), [&](Value out) {
            memref::CopyOp::create(b, loc, meshsdy::blockView(b, loc, blocks, k),
                                   out);
            sendBuffer(b, loc, out, k, group->comm);
          });
        },
        [&](OpBuilder &b) {
          recvBuffer(b, loc, piece, group->root, group->comm);
        });
    rewriter.replaceOp(op, tensorOf(rewriter, loc, piece, result));
    return success();
  }
};

/// reduce: every other device sends its input to the root, which adds
/// (combines) each into its own; the others' result is undefined (their
/// input). `average` divides at the root.
struct ReduceAtRoot : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    FailureOr<RootedGroup> group = getRootedGroup(op, rewriter);
    if (failed(group) || !type.hasStaticShape() ||
        type.getElementType() !=
            cast<RankedTensorType>(op.getInput().getType()).getElementType())
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    Location loc = op.getLoc();
    Value own = bufferOf(rewriter, loc, op.getInput());
    group->emit(
        rewriter, loc, [](OpBuilder &) {},
        [&](OpBuilder &b, Value k) {
          withScratch(b, loc, cast<MemRefType>(own.getType()), [&](Value piece) {
            recvBuffer(b, loc, piece, k, group->comm);
            meshsdy::combineInto(b, loc, op.getReduction(), piece, own);
          });
        },
        [&](OpBuilder &b) { sendBuffer(b, loc, own, group->root, group->comm); });
    Value reduced = tensorOf(rewriter, loc, own, type);
    if (op.getReduction() == ReductionKind::Average)
      reduced = meshsdy::divideByCount(rewriter, loc, reduced, group->count);
    rewriter.replaceOp(op, reduced);
    return success();
  }
};

/// shift along one mesh axis: each device sends its input `offset` devices
/// ahead and receives from `offset` behind (modulo the axis with rotate;
/// without, the edge devices only send or only receive, and those nobody
/// sends to keep an undefined result). Blocking: with rotate, a device
/// whose destination wraps around receives first (as the ring exchanges);
/// without, the transfers form chains that end at a receiver.
struct ShiftAsExchange : OpRewritePattern<ShiftOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ShiftOp op,
                                PatternRewriter &rewriter) const override {
    ScanningSymbolTableCollection symbolTables;
    MeshOp mesh = getMesh(op, symbolTables);
    auto type = cast<RankedTensorType>(op.getInput().getType());
    if (!mesh || ShapedType::isDynamicShape(mesh.getShape()) ||
        !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    Location loc = op.getLoc();
    auto axis = static_cast<MeshAxis>(op.getShiftAxis().getSExtValue());
    int64_t count = mesh.getShape()[axis];
    int64_t offset = op.getOffset();
    if (op.getRotate())
      offset = ((offset % count) + count) % count;
    Value input = bufferOf(rewriter, loc, op.getInput());
    Value output = memref::AllocOp::create(
        rewriter, loc, cast<MemRefType>(input.getType()));
    if (op.getRotate() && offset == 0) {
      rewriter.replaceOp(op, op.getInput());
      return success();
    }
    Value comm = meshsdy::buildGroupComm(rewriter, loc, mesh, {axis});
    Value me = buildInGroupIndex(rewriter, loc, mesh, {axis});
    Value g = indexConstant(rewriter, loc, count);
    Value ahead = arith::AddIOp::create(rewriter, loc, me,
                                        indexConstant(rewriter, loc, offset));
    Value behind = arith::SubIOp::create(rewriter, loc, me,
                                         indexConstant(rewriter, loc, offset));
    auto inRange = [&](Value v) -> Value {
      Value low = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                        v, indexConstant(rewriter, loc, 0));
      Value high = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::slt, v, g);
      return arith::AndIOp::create(rewriter, loc, low, high);
    };
    if (op.getRotate()) {
      Value dest = arith::RemUIOp::create(rewriter, loc, ahead, g);
      Value source = arith::RemUIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, behind, g), g);
      Value sendFirst = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ult, ahead, g);
      scf::IfOp::create(
          rewriter, loc, sendFirst,
          [&](OpBuilder &b, Location) {
            sendBuffer(b, loc, input, dest, comm);
            recvBuffer(b, loc, output, source, comm);
            scf::YieldOp::create(b, loc);
          },
          [&](OpBuilder &b, Location) {
            recvBuffer(b, loc, output, source, comm);
            sendBuffer(b, loc, input, dest, comm);
            scf::YieldOp::create(b, loc);
          });
    } else {
      scf::IfOp::create(rewriter, loc, inRange(ahead), [&](OpBuilder &b, Location) {
        sendBuffer(b, loc, input, ahead, comm);
        scf::YieldOp::create(b, loc);
      });
      scf::IfOp::create(rewriter, loc, inRange(behind), [&](OpBuilder &b, Location) {
        recvBuffer(b, loc, output, behind, comm);
        scf::YieldOp::create(b, loc);
      });
    }
    rewriter.replaceOp(op, tensorOf(rewriter, loc, output, op.getType()));
    return success();
  }
};

/// The MPI_COMM_WORLD rank of the device of the running device's group
/// whose coordinates on `axes` are `coords` (the others are the running
/// device's). Point-to-point ops use the world communicator: they may sit
/// in code only some devices run, where a collective comm_split would hang.
Value worldRankOf(OpBuilder &b, Location loc, MeshOp mesh,
                  ArrayRef<MeshAxis> axes, ArrayRef<int64_t> coords) {
  ArrayRef<int64_t> shape = mesh.getShape();
  Value rank = indexConstant(b, loc, 0);
  for (MeshAxis axis = 0; axis < static_cast<MeshAxis>(shape.size()); ++axis) {
    const auto *it = llvm::find(axes, axis);
    Value coord = it != axes.end()
                      ? indexConstant(b, loc, coords[it - axes.begin()])
                      : buildInGroupIndex(b, loc, mesh, {axis});
    rank = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, rank, indexConstant(b, loc, shape[axis])),
        coord);
  }
  return rank;
}

Value world(OpBuilder &b, Location loc) {
  return mpi::CommWorldOp::create(b, loc, mpi::CommType::get(b.getContext()));
}

/// send: a blocking mpi.send to `destination` (its result is its input),
/// on the world communicator.
struct SendAsMPI : OpRewritePattern<SendOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SendOp op,
                                PatternRewriter &rewriter) const override {
    ScanningSymbolTableCollection symbolTables;
    MeshOp mesh = getMesh(op, symbolTables);
    if (!mesh || ShapedType::isDynamicShape(mesh.getShape()) ||
        !op.getDestinationDynamic().empty())
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    Location loc = op.getLoc();
    sendBuffer(rewriter, loc, bufferOf(rewriter, loc, op.getInput()),
               worldRankOf(rewriter, loc, mesh, op.getMeshAxes(),
                           op.getDestination()),
               world(rewriter, loc));
    rewriter.replaceOp(op, op.getInput());
    return success();
  }
};

/// recv from an explicit `source`: a blocking mpi.recv into a new buffer.
struct RecvAsMPI : OpRewritePattern<RecvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RecvOp op,
                                PatternRewriter &rewriter) const override {
    ScanningSymbolTableCollection symbolTables;
    MeshOp mesh = getMesh(op, symbolTables);
    if (!mesh || ShapedType::isDynamicShape(mesh.getShape()) ||
        !op.getSource() || !op.getSourceDynamic().empty())
      return rewriter.notifyMatchFailure(op, "checked by the pass");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Value buffer = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()));
    recvBuffer(rewriter, loc, buffer,
               worldRankOf(rewriter, loc, mesh, op.getMeshAxes(),
                           *op.getSource()),
               world(rewriter, loc));
    rewriter.replaceOp(op, tensorOf(rewriter, loc, buffer, type));
    return success();
  }
};

} // namespace

void mlir::meshsdy::populateRootedCollectivePatterns(
    RewritePatternSet &patterns) {
  patterns.add<BroadcastAsSends, GatherAsSends, ScatterAsSends,
               ReduceAtRoot, ShiftAsExchange, SendAsMPI, RecvAsMPI>(
      patterns.getContext());
}
