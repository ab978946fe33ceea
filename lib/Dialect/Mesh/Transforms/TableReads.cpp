//===- TableReads.cpp - a gather's table read where it lies ---------------===//

#include "TableReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::mesh;

std::optional<TableRead> mlir::mesh::matchTableRead(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || op->getNumResults() != 1 ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops() ||
      op->getNumRegions() != 1 || !op->getRegion(0).hasOneBlock())
    return std::nullopt;
  SetVector<Value> above;
  getUsedValuesDefinedAbove(op->getRegions(), above);
  SmallVector<Value> tensors(llvm::make_filter_range(
      above, [](Value v) { return isa<RankedTensorType>(v.getType()); }));
  if (tensors.size() != 1 || llvm::is_contained(op->getOperands(), tensors[0]))
    return std::nullopt;
  Value table = tensors[0];
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
  Type element = read.getType();
  if (!isa<FloatType>(element) &&
      !(isa<IntegerType>(element) && element.getIntOrFloatBitWidth() > 1))
    return std::nullopt;
  // What the body yields is the element read, and nothing reads the init:
  // a device whose piece lacks the row contributes the neutral element.
  if (!read->hasOneUse() || !isa<linalg::YieldOp>(*read->user_begin()) ||
      !linalgOp.getMatchingBlockArgument(linalgOp.getDpsInitOperand(0))
           .use_empty())
    return std::nullopt;
  TableRead match{table, {}};
  for (auto [dim, index] : llvm::enumerate(read.getIndices())) {
    auto loop = index.getDefiningOp<linalg::IndexOp>();
    if (!loop || loop->getParentOp() != op)
      match.computedDims.push_back(dim);
  }
  if (match.computedDims.empty())
    return std::nullopt;
  return match;
}

LogicalResult mlir::mesh::maskTableRead(Operation *clone, Value localTable,
                                        ArrayRef<int64_t> dims,
                                        ArrayRef<std::pair<Value, Value>> pieces,
                                        OpBuilder &builder) {
  tensor::ExtractOp read;
  clone->walk([&](tensor::ExtractOp extract) {
    if (extract.getTensor() == localTable)
      read = extract;
  });
  if (!read)
    return clone->emitOpError(
        "mesh-spmdization lost the read of its table (internal error)");
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(read);
  Location loc = read.getLoc();
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  SmallVector<Value> indices(read.getIndices());
  Value owned;
  for (auto [dim, piece] : llvm::zip_equal(dims, pieces)) {
    Value local = arith::SubIOp::create(builder, loc, indices[dim], piece.first);
    // Unsigned: a row before the piece is a large number too.
    Value inPiece = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, local, piece.second);
    indices[dim] = arith::SelectOp::create(builder, loc, inPiece, local, zero);
    owned = owned ? arith::AndIOp::create(builder, loc, owned, inPiece)
                        .getResult()
                  : inPiece;
  }
  Value element =
      tensor::ExtractOp::create(builder, loc, localTable, indices);
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
  Value masked = arith::SelectOp::create(builder, loc, owned, element, none);
  read.getResult().replaceAllUsesWith(masked);
  read.erase();
  return success();
}
