//===- TableReads.cpp - a gather's table read where it lies ---------------===//

#include "TableReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::mesh;

std::optional<TableRead> mlir::mesh::matchTableRead(Operation *op,
                                                    Value table) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  // One result at least: the partitioner finds the op's copy through it.
  if (!linalgOp || op->getNumResults() == 0 || op->getNumRegions() != 1 ||
      !op->getRegion(0).hasOneBlock() ||
      !isa<RankedTensorType>(table.getType()) ||
      llvm::is_contained(op->getOperands(), table))
    return std::nullopt;
  Block *body = linalgOp.getBlock();
  tensor::ExtractOp read;
  for (Operation *user : table.getUsers()) {
    if (!op->isProperAncestor(user))
      continue;
    auto extract = dyn_cast<tensor::ExtractOp>(user);
    if (!extract || read || extract->getBlock() != body)
      return std::nullopt;
    read = extract;
  }
  TableRead match{table, {}, false};
  for (Value index : read.getIndices()) {
    auto loop = index.getDefiningOp<linalg::IndexOp>();
    match.loops.push_back(loop && loop->getParentOp() == op
                              ? static_cast<int64_t>(loop.getDim())
                              : -1);
  }
  match.yieldsElement =
      op->getNumResults() == 1 &&
      linalgOp.getNumParallelLoops() == linalgOp.getNumLoops() &&
      read->hasOneUse() && isa<linalg::YieldOp>(*read->user_begin()) &&
      linalgOp.getMatchingBlockArgument(linalgOp.getDpsInitOperand(0))
          .use_empty();
  return match;
}

LogicalResult mlir::mesh::maskTableRead(Operation *clone, Value localTable,
                                        ArrayRef<TablePieceDim> dims,
                                        OpBuilder &builder) {
  tensor::ExtractOp read;
  if (clone)
    clone->walk([&](tensor::ExtractOp extract) {
      if (extract.getTensor() == localTable)
        read = extract;
    });
  if (!read)
    return emitError(localTable.getLoc(),
                     "mesh-spmdization lost the read of its table (internal "
                     "error)");
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(read);
  Location loc = read.getLoc();
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  SmallVector<Value> indices(read.getIndices());
  Value owned;
  for (const TablePieceDim &piece : dims) {
    Value local =
        arith::SubIOp::create(builder, loc, indices[piece.dim], piece.offset);
    indices[piece.dim] = local;
    if (!piece.masked)
      continue;
    // Unsigned: a row before the piece is a large number too.
    Value inPiece = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, local, piece.size);
    indices[piece.dim] =
        arith::SelectOp::create(builder, loc, inPiece, local, zero);
    owned = owned ? arith::AndIOp::create(builder, loc, owned, inPiece)
                        .getResult()
                  : inPiece;
  }
  Value element =
      tensor::ExtractOp::create(builder, loc, localTable, indices);
  Value result = element;
  if (owned) {
    Type type = element.getType();
    // -0.0 is a sum's neutral element for every float, -0.0 included.
    TypedAttr neutral =
        isa<FloatType>(type)
            ? TypedAttr(builder.getFloatAttr(
                  type, APFloat::getZero(
                            cast<FloatType>(type).getFloatSemantics(),
                            /*Negative=*/true)))
            : TypedAttr(builder.getIntegerAttr(type, 0));
    Value none = arith::ConstantOp::create(builder, loc, neutral);
    result = arith::SelectOp::create(builder, loc, owned, element, none);
  }
  read.getResult().replaceAllUsesWith(result);
  read.erase();
  return success();
}
