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

LogicalResult mlir::mesh::getPieces(RankedTensorType global, MeshOp mesh,
                                    const MeshSharding &sharding, int64_t dim,
                                    SmallVectorImpl<int64_t> &offsets,
                                    SmallVectorImpl<int64_t> &sizes) {
  ArrayRef<int64_t> meshShape = mesh.getShape();
  ArrayRef<DimSplitAxes> split = sharding.getSplitAxes();
  ArrayRef<MeshAxis> axes =
      dim < static_cast<int64_t>(split.size()) ? ArrayRef<MeshAxis>(split[dim])
                                               : ArrayRef<MeshAxis>();
  int64_t count = collectiveProcessGroupSize(axes, meshShape);
  if (ShapedType::isDynamic(count))
    return failure();
  offsets.clear();
  sizes.clear();
  int64_t offset = 0;
  SmallVector<int64_t> origin(meshShape.size(), 0);
  for (int64_t k = 0; k < count; ++k) {
    // The device with in-group index `k`, at coordinate 0 on the other axes.
    SmallVector<int64_t> device =
        inGroupDevice(origin, inGroupMultiIndex(k, meshShape, axes), axes);
    FailureOr<SmallVector<int64_t>> shape = getShardShapeForDevice(
        global.getShape(), meshShape, sharding, device);
    if (failed(shape) || ShapedType::isDynamic((*shape)[dim]) ||
        (*shape)[dim] < 0)
      return failure();
    offsets.push_back(offset);
    sizes.push_back((*shape)[dim]);
    offset += (*shape)[dim];
  }
  // Offsets that do not cover the dimension exactly describe no tensor.
  return success(global.isDynamicDim(dim) || offset == global.getDimSize(dim));
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
    SmallVector<int64_t> offsets, sizes;
    if (succeeded(getPieces(global, mesh, sharding, dim, offsets, sizes)) &&
        llvm::any_of(sizes, [&](int64_t s) { return s != sizes.front(); }))
      dims.push_back(dim);
  }
  return dims;
}

FailureOr<std::pair<Value, Value>>
mlir::mesh::buildLocalPiece(OpBuilder &builder, Location loc, MeshOp mesh,
                            RankedTensorType global,
                            const MeshSharding &sharding, int64_t dim) {
  SmallVector<int64_t> offsets, sizes;
  if (dim >= static_cast<int64_t>(sharding.getSplitAxes().size()) ||
      failed(getPieces(global, mesh, sharding, dim, offsets, sizes)))
    return failure();
  Value index = buildInGroupIndex(builder, loc, mesh,
                                  sharding.getSplitAxes()[dim]);
  auto lookup = [&](ArrayRef<int64_t> table) -> Value {
    auto type = RankedTensorType::get({static_cast<int64_t>(table.size())},
                                      builder.getIndexType());
    Value values = arith::ConstantOp::create(
        builder, loc, type,
        DenseElementsAttr::get(
            type, llvm::to_vector(llvm::map_range(table, [&](int64_t v) {
                    return Attribute(builder.getIndexAttr(v));
                  }))));
    return tensor::ExtractOp::create(builder, loc, values, ValueRange{index});
  };
  return std::make_pair(lookup(offsets), lookup(sizes));
}
