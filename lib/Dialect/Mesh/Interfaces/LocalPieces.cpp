//===- LocalPieces.cpp - where a device's piece lies, as IR ---------------===//

#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mesh;

Value mlir::mesh::buildInGroupIndex(OpBuilder &builder, Location loc,
                                    MeshOp mesh, ArrayRef<MeshAxis> meshAxes) {
  // (process_multi_index with no axes would mean all of them.)
  if (meshAxes.empty())
    return arith::ConstantIndexOp::create(builder, loc, 0);
  SmallVector<Type> indexTypes(meshAxes.size(), builder.getIndexType());
  auto coords = ProcessMultiIndexOp::create(
      builder, loc, indexTypes,
      FlatSymbolRefAttr::get(builder.getContext(), mesh.getSymName()),
      builder.getDenseI16ArrayAttr(meshAxes));
  Value index = arith::ConstantIndexOp::create(builder, loc, 0);
  for (auto [axis, coord] : llvm::zip(meshAxes, coords.getResults())) {
    Value size =
        arith::ConstantIndexOp::create(builder, loc, mesh.getShape()[axis]);
    index = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, index, size), coord);
  }
  return index;
}

int64_t DimPieces::size(int64_t k) const {
  if (isExplicit())
    return offsets[k + 1] - offsets[k];
  return k < remainder ? first : rest;
}

int64_t DimPieces::offset(int64_t k) const {
  if (isExplicit())
    return offsets[k];
  return k * rest + std::min(k, remainder) * (first - rest);
}

int64_t DimPieces::largest() const {
  if (!isExplicit())
    return remainder > 0 ? std::max(first, rest) : rest;
  int64_t result = 0;
  for (int64_t k = 0; k < count; ++k)
    result = std::max(result, size(k));
  return result;
}

bool DimPieces::isUneven() const {
  if (!isExplicit())
    return remainder > 0 && remainder < count && first != rest;
  for (int64_t k = 1; k < count; ++k)
    if (size(k) != size(0))
      return true;
  return false;
}

FailureOr<DimPieces> mlir::mesh::getDimPieces(RankedTensorType global,
                                              MeshOp mesh,
                                              const MeshSharding &sharding,
                                              int64_t dim) {
  ArrayRef<int64_t> meshShape = mesh.getShape();
  ArrayRef<DimSplitAxes> split = sharding.getSplitAxes();
  ArrayRef<MeshAxis> axes =
      dim < static_cast<int64_t>(split.size()) ? ArrayRef<MeshAxis>(split[dim])
                                               : ArrayRef<MeshAxis>();
  DimPieces pieces;
  pieces.count = collectiveProcessGroupSize(axes, meshShape);
  if (ShapedType::isDynamic(pieces.count) || pieces.count <= 0 ||
      global.isDynamicDim(dim))
    return failure();
  // The size of the piece of the device with in-group index `k` (at
  // coordinate 0 on the other axes).
  SmallVector<int64_t> origin(meshShape.size(), 0);
  auto sizeOf = [&](int64_t k) -> int64_t {
    SmallVector<int64_t> device =
        inGroupDevice(origin, inGroupMultiIndex(k, meshShape, axes), axes);
    FailureOr<SmallVector<int64_t>> shape = getShardShapeForDevice(
        global.getShape(), meshShape, sharding, device);
    if (failed(shape) || ShapedType::isDynamic((*shape)[dim]) ||
        (*shape)[dim] < 0)
      return ShapedType::kDynamic;
    return (*shape)[dim];
  };
  if (!sharding.getStaticShardedDimsOffsets().empty() && !axes.empty()) {
    // Explicit offsets: the table is the sharding's own, as long as it.
    int64_t offset = 0;
    pieces.offsets.push_back(0);
    for (int64_t k = 0; k < pieces.count; ++k) {
      int64_t size = sizeOf(k);
      if (ShapedType::isDynamic(size))
        return failure();
      offset += size;
      pieces.offsets.push_back(offset);
    }
    // Offsets that do not cover the dimension describe no tensor.
    if (offset != global.getDimSize(dim))
      return failure();
    return pieces;
  }
  pieces.remainder =
      axes.empty() ? 0 : global.getDimSize(dim) % pieces.count;
  pieces.first = sizeOf(0);
  pieces.rest = sizeOf(pieces.count - 1);
  if (ShapedType::isDynamic(pieces.first) || ShapedType::isDynamic(pieces.rest))
    return failure();
  return pieces;
}

SmallVector<int64_t> mlir::mesh::getUnevenDims(RankedTensorType global,
                                               MeshOp mesh,
                                               const MeshSharding &sharding) {
  SmallVector<int64_t> dims;
  if (!sharding)
    return dims;
  // Only dimensions without one static shard size can be uneven: checking
  // that first keeps the common, even case cheap.
  SmallVector<int64_t> shape =
      getShardShape(global.getShape(), mesh.getShape(), sharding);
  for (int64_t dim = 0; dim < global.getRank(); ++dim) {
    if (!ShapedType::isDynamic(shape[dim]))
      continue;
    FailureOr<DimPieces> pieces = getDimPieces(global, mesh, sharding, dim);
    if (succeeded(pieces) && pieces->isUneven())
      dims.push_back(dim);
  }
  return dims;
}

FailureOr<std::pair<Value, Value>>
mlir::mesh::buildLocalPiece(OpBuilder &builder, Location loc, MeshOp mesh,
                            RankedTensorType global,
                            const MeshSharding &sharding, int64_t dim) {
  if (dim >= static_cast<int64_t>(sharding.getSplitAxes().size()))
    return failure();
  FailureOr<DimPieces> pieces = getDimPieces(global, mesh, sharding, dim);
  if (failed(pieces))
    return failure();
  Value index = buildInGroupIndex(builder, loc, mesh,
                                  sharding.getSplitAxes()[dim]);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  if (!pieces->isExplicit()) {
    // offset = k * rest + min(k, remainder) * (first - rest),
    // size = k < remainder ? first : rest.
    Value below = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                        index, constant(pieces->remainder));
    Value size = arith::SelectOp::create(builder, loc, below,
                                         constant(pieces->first),
                                         constant(pieces->rest));
    Value longer = arith::MinUIOp::create(builder, loc, index,
                                          constant(pieces->remainder));
    Value offset = arith::AddIOp::create(
        builder, loc,
        arith::MulIOp::create(builder, loc, index, constant(pieces->rest)),
        arith::MulIOp::create(builder, loc, longer,
                              constant(pieces->first - pieces->rest)));
    return std::make_pair(offset, size);
  }
  auto lookup = [&](auto valueAt) -> Value {
    auto type = RankedTensorType::get({pieces->count}, builder.getIndexType());
    SmallVector<Attribute> values;
    for (int64_t k = 0; k < pieces->count; ++k)
      values.push_back(builder.getIndexAttr(valueAt(k)));
    Value table = arith::ConstantOp::create(
        builder, loc, type, DenseElementsAttr::get(type, values));
    return tensor::ExtractOp::create(builder, loc, table, ValueRange{index});
  };
  return std::make_pair(
      lookup([&](int64_t k) { return pieces->offset(k); }),
      lookup([&](int64_t k) { return pieces->size(k); }));
}
