//===- ShardShape.cpp - shard_shape across shard and mesh -----------------===//

#include "ShardShape.h"

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::meshsdy::shardmesh;

namespace {

/// What a sharding op of either dialect says, as far as shard shapes care.
struct ShardingInfo {
  FlatSymbolRefAttr grid;
  SmallVector<SmallVector<int64_t>> splitAxes;
  bool halos = false;
  bool offsets = false;
};

template <typename ShardingOpT>
ShardingInfo readShardingOp(ShardingOpT op, FlatSymbolRefAttr grid) {
  ShardingInfo info;
  info.grid = grid;
  for (DenseI16ArrayAttr axes : op.getSplitAxes().getAxes())
    info.splitAxes.emplace_back(axes.asArrayRef().begin(),
                                axes.asArrayRef().end());
  info.halos =
      !op.getStaticHaloSizes().empty() || !op.getDynamicHaloSizes().empty();
  info.offsets = !op.getStaticShardedDimsOffsets().empty() ||
                 !op.getDynamicShardedDimsOffsets().empty();
  return info;
}

/// The sharding defining `sharding`, from a `shard.sharding` or a
/// `mesh.sharding` (both occur while a module is half converted).
std::optional<ShardingInfo> readSharding(Value sharding) {
  Operation *def = sharding.getDefiningOp();
  if (auto op = dyn_cast_or_null<shard::ShardingOp>(def))
    return readShardingOp(op, op.getGridAttr());
  if (auto op = dyn_cast_or_null<mesh::ShardingOp>(def))
    return readShardingOp(op, op.getMeshAttr());
  return std::nullopt;
}

/// The shape of the `shard.grid` or `mesh.mesh` named `grid`, seen from
/// `from`.
std::optional<SmallVector<int64_t>> gridShape(Operation *from,
                                              FlatSymbolRefAttr grid) {
  Operation *symbol =
      SymbolTable::lookupNearestSymbolFrom(from, grid.getAttr());
  if (auto op = dyn_cast_or_null<shard::GridOp>(symbol))
    return llvm::to_vector(op.getShape());
  if (auto op = dyn_cast_or_null<mesh::MeshOp>(symbol))
    return llvm::to_vector(op.getShape());
  return std::nullopt;
}

/// The sharding and dimensions of a `shard_shape` of either dialect. The
/// sharding is read untyped: mid-conversion it may be of the other dialect's
/// type already, which the typed accessors would not accept.
std::pair<Value, ArrayRef<int64_t>> shardingAndDims(Operation *op) {
  if (auto ss = dyn_cast<shard::ShardShapeOp>(op))
    return {ss.getODSOperands(1).front(), ss.getDims()};
  auto ms = cast<mesh::ShardShapeOp>(op);
  return {ms.getODSOperands(0).front(), ms.getShape()};
}

/// The number of devices of a grid of shape `shape`; none if dynamic or
/// beyond int64.
std::optional<int64_t> deviceCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    if (ShapedType::isDynamic(size) || llvm::MulOverflow(count, size, count))
      return std::nullopt;
  return count;
}

/// Checks the device operand(s) against a grid of shape `shape`.
LogicalResult checkDevice(Direction direction, Operation *op,
                          ArrayRef<int64_t> shape, FlatSymbolRefAttr grid) {
  if (auto ss = dyn_cast<shard::ShardShapeOp>(op)) {
    if (ss.getDevice().size() != shape.size())
      return op->emitOpError("unsupported by ")
             << passName(direction) << ": the device multi-index has "
             << ss.getDevice().size() << " indices, grid " << grid << " has "
             << shape.size() << " axes";
    return success();
  }
  auto ms = cast<mesh::ShardShapeOp>(op);
  APInt device;
  std::optional<int64_t> devices = deviceCount(shape);
  if (!devices || !matchPattern(ms.getDevice(), m_ConstantInt(&device)))
    return success();
  if (device.getSExtValue() < 0 || device.getSExtValue() >= *devices)
    return op->emitOpError("unsupported by ")
           << passName(direction) << ": device " << device.getSExtValue()
           << " is not one of the " << *devices << " devices of " << grid;
  return success();
}

/// The full `process_multi_index` (every axis, in order) of `grid` whose
/// results are `device`, in order; null if `device` is anything else.
Operation *fullProcessMultiIndex(ArrayRef<OpFoldResult> device,
                                 FlatSymbolRefAttr grid) {
  Operation *def = nullptr;
  for (auto [i, index] : llvm::enumerate(device)) {
    auto result = dyn_cast_or_null<OpResult>(dyn_cast<Value>(index));
    if (!result || result.getResultNumber() != i ||
        (def && result.getOwner() != def))
      return nullptr;
    def = result.getOwner();
  }
  if (!def || def->getNumResults() != device.size())
    return nullptr;
  FlatSymbolRefAttr defGrid;
  ArrayRef<int16_t> axes;
  if (auto op = dyn_cast<shard::ProcessMultiIndexOp>(def)) {
    defGrid = op.getGridAttr();
    axes = op.getAxes();
  } else if (auto op = dyn_cast<mesh::ProcessMultiIndexOp>(def)) {
    defGrid = op.getMeshAttr();
    axes = op.getAxes();
  } else {
    return nullptr;
  }
  for (auto [i, axis] : llvm::enumerate(axes))
    if (axis != static_cast<int64_t>(i))
      return nullptr;
  return defGrid == grid ? def : nullptr;
}

/// The grid of the `process_linear_index` defining `device`, if it is one.
FlatSymbolRefAttr processLinearIndexGrid(Value device) {
  Operation *def = device.getDefiningOp();
  if (auto op = dyn_cast_or_null<shard::ProcessLinearIndexOp>(def))
    return op.getGridAttr();
  if (auto op = dyn_cast_or_null<mesh::ProcessLinearIndexOp>(def))
    return op.getMeshAttr();
  return nullptr;
}

/// The size of grid axis `axis`: a constant, or asked of the target
/// dialect's `mesh_shape` / `grid_shape` when dynamic.
Value axisSize(Direction direction, OpBuilder &b, Location loc,
               FlatSymbolRefAttr grid, ArrayRef<int64_t> shape, int64_t axis) {
  if (!ShapedType::isDynamic(shape[axis]))
    return arith::ConstantIndexOp::create(b, loc, shape[axis]);
  auto axes = DenseI16ArrayAttr::get(b.getContext(),
                                     {static_cast<int16_t>(axis)});
  if (direction == Direction::ShardToMesh)
    return mesh::MeshShapeOp::create(b, loc, TypeRange{b.getIndexType()}, grid,
                                     axes)
        .getResult()
        .front();
  return shard::GridShapeOp::create(b, loc, TypeRange{b.getIndexType()}, grid,
                                    axes)
      .getResult()
      .front();
}

Value toValue(OpBuilder &b, Location loc, OpFoldResult index) {
  if (auto value = dyn_cast<Value>(index))
    return value;
  return arith::ConstantIndexOp::create(
      b, loc, cast<IntegerAttr>(cast<Attribute>(index)).getInt());
}

/// The linear index of the device `device` (a multi-index on `grid`).
Value linearize(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> device,
                FlatSymbolRefAttr grid, ArrayRef<int64_t> shape,
                SmallVectorImpl<Operation *> &maybeDead) {
  if (Operation *multi = fullProcessMultiIndex(device, grid)) {
    if (isa<mesh::ProcessMultiIndexOp>(multi))
      maybeDead.push_back(multi);
    return mesh::ProcessLinearIndexOp::create(b, loc, grid);
  }
  if (!ShapedType::isDynamicShape(shape) &&
      llvm::all_of(device, [](OpFoldResult i) { return isa<Attribute>(i); })) {
    int64_t linear = 0;
    bool overflow = false;
    for (auto [index, size] : llvm::zip_equal(device, shape))
      overflow |= llvm::MulOverflow(linear, size, linear) ||
                  llvm::AddOverflow(
                      linear,
                      cast<IntegerAttr>(cast<Attribute>(index)).getInt(),
                      linear);
    if (!overflow)
      return arith::ConstantIndexOp::create(b, loc, linear);
  }
  Value linear = toValue(b, loc, device.front());
  for (int64_t axis = 1; axis < static_cast<int64_t>(device.size()); ++axis) {
    Value size =
        axisSize(Direction::ShardToMesh, b, loc, grid, shape, axis);
    linear = arith::MulIOp::create(b, loc, linear, size);
    linear = arith::AddIOp::create(b, loc, linear,
                                   toValue(b, loc, device[axis]));
  }
  return linear;
}

/// The multi-index on `grid` of the device with linear index `device`.
SmallVector<OpFoldResult> split(OpBuilder &b, Location loc, Value device,
                                FlatSymbolRefAttr grid,
                                ArrayRef<int64_t> shape,
                                SmallVectorImpl<Operation *> &maybeDead) {
  SmallVector<OpFoldResult> multi(shape.size());
  APInt constant;
  if (!ShapedType::isDynamicShape(shape) &&
      matchPattern(device, m_ConstantInt(&constant))) {
    int64_t rest = constant.getSExtValue();
    for (int64_t axis = shape.size() - 1; axis >= 0; --axis) {
      multi[axis] = b.getIndexAttr(rest % shape[axis]);
      rest /= shape[axis];
    }
    maybeDead.push_back(device.getDefiningOp());
    return multi;
  }
  if (processLinearIndexGrid(device) == grid) {
    SmallVector<Type> types(shape.size(), b.getIndexType());
    auto op = shard::ProcessMultiIndexOp::create(
        b, loc, types, grid, DenseI16ArrayAttr::get(b.getContext(), {}));
    if (isa<shard::ProcessLinearIndexOp>(device.getDefiningOp()))
      maybeDead.push_back(device.getDefiningOp());
    return getAsOpFoldResult(op.getResult());
  }
  Value rest = device;
  for (int64_t axis = shape.size() - 1; axis > 0; --axis) {
    Value size = axisSize(Direction::MeshToShard, b, loc, grid, shape, axis);
    multi[axis] = arith::RemUIOp::create(b, loc, rest, size).getResult();
    rest = arith::DivUIOp::create(b, loc, rest, size);
  }
  multi[0] = rest;
  return multi;
}

} // namespace

LogicalResult mlir::meshsdy::shardmesh::checkShardShape(Direction direction,
                                                        Operation *op) {
  auto unsupported = [&]() {
    return op->emitOpError("unsupported by ") << passName(direction) << ": ";
  };
  auto [sharding, dims] = shardingAndDims(op);
  if (auto ss = dyn_cast<shard::ShardShapeOp>(op);
      ss && !ss.getDimsDynamic().empty())
    return unsupported() << "dynamic dimensions (mesh.shard_shape takes "
                            "static ones)";
  if (isa<mesh::ShardShapeOp>(op) && ShapedType::isDynamicShape(dims))
    return unsupported() << "a '?' dimension (shard.shard_shape takes its "
                            "size as a value)";
  std::optional<ShardingInfo> info = readSharding(sharding);
  if (!info)
    return unsupported() << "a sharding not defined by a '"
                         << sourceDialect(direction) << ".sharding' op";
  std::optional<SmallVector<int64_t>> shape = gridShape(op, info->grid);
  if (!shape)
    return unsupported() << "no grid " << info->grid << " in sight";
  if (failed(checkDevice(direction, op, *shape, info->grid)))
    return failure();
  if (info->halos)
    return unsupported() << "a sharding with halos (upstream's lowering "
                            "leaves them out of the shard shape)";
  if (info->offsets)
    return success();
  for (auto [dim, axes] : llvm::enumerate(info->splitAxes)) {
    if (dim >= dims.size() || axes.empty())
      continue;
    int64_t group = 1;
    for (int64_t axis : axes) {
      if (axis < 0 || axis >= static_cast<int64_t>(shape->size()) ||
          ShapedType::isDynamic((*shape)[axis]) ||
          llvm::MulOverflow(group, (*shape)[axis], group))
        return unsupported() << "dimension " << dim
                             << " is split over a mesh axis of unknown size "
                                "without sharded_dims_offsets";
    }
    if (group > 0 && dims[dim] % group != 0)
      return unsupported()
             << "dimension " << dim << " of size " << dims[dim]
             << " is split unevenly over " << group
             << " devices without sharded_dims_offsets (upstream gives the "
                "extra elements to the last shards, mesh to the first)";
  }
  return success();
}

Operation *mlir::meshsdy::shardmesh::convertShardShape(
    Direction direction, OpBuilder &builder, Operation *op,
    SmallVectorImpl<Operation *> &maybeDead) {
  Location loc = op->getLoc();
  auto [sharding, dims] = shardingAndDims(op);
  // checkShardShape accepted `op`: the sharding and its grid are in sight.
  ShardingInfo info = *readSharding(sharding);
  SmallVector<int64_t> shape = *gridShape(op, info.grid);
  SmallVector<Type> types(op->getNumResults(), builder.getIndexType());
  if (auto ss = dyn_cast<shard::ShardShapeOp>(op)) {
    SmallVector<OpFoldResult> device =
        getMixedValues(ss.getDevice(), ss.getDeviceDynamic(), builder);
    Value linear = linearize(builder, loc, device, info.grid, shape, maybeDead);
    return mesh::ShardShapeOp::create(builder, loc, types, dims, sharding,
                                      linear);
  }
  auto ms = cast<mesh::ShardShapeOp>(op);
  SmallVector<OpFoldResult> device =
      split(builder, loc, ms.getDevice(), info.grid, shape, maybeDead);
  SmallVector<Value> dynamicDevice;
  SmallVector<int64_t> staticDevice;
  dispatchIndexOpFoldResults(device, dynamicDevice, staticDevice);
  return shard::ShardShapeOp::create(builder, loc, types, dims, ValueRange{},
                                     sharding, staticDevice, dynamicDevice);
}
