//===- MeshAttributes.cpp - C API for mesh attributes and types -----------===//

#include "meshsdy-c/MeshAttributes.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::mesh;

bool mlirAttributeIsAMeshAxesArrayAttr(MlirAttribute attr) {
  return isa<MeshAxesArrayAttr>(unwrap(attr));
}

MlirTypeID mlirMeshAxesArrayAttrGetTypeID(void) {
  return wrap(MeshAxesArrayAttr::getTypeID());
}

MlirAttribute mlirMeshAxesArrayAttrGet(MlirContext ctx, intptr_t nDims,
                                       const intptr_t *dimSizes,
                                       const int16_t *axes) {
  MLIRContext *context = unwrap(ctx);
  SmallVector<DenseI16ArrayAttr> dims;
  intptr_t pos = 0;
  for (intptr_t i = 0; i < nDims; ++i) {
    if (dimSizes[i] < 0) {
      emitError(UnknownLoc::get(context))
          << "sub-array " << i << " has a negative size";
      return MlirAttribute{nullptr};
    }
    dims.push_back(DenseI16ArrayAttr::get(
        context, ArrayRef<int16_t>(axes + pos, dimSizes[i])));
    pos += dimSizes[i];
  }
  auto emitError = mlir::detail::getDefaultDiagnosticEmitFn(context);
  return wrap(MeshAxesArrayAttr::getChecked(emitError, context,
                                            ArrayRef<DenseI16ArrayAttr>(dims)));
}

intptr_t mlirMeshAxesArrayAttrGetNumDims(MlirAttribute attr) {
  return cast<MeshAxesArrayAttr>(unwrap(attr)).size();
}

intptr_t mlirMeshAxesArrayAttrGetDimSize(MlirAttribute attr, intptr_t dim) {
  return cast<MeshAxesArrayAttr>(unwrap(attr)).getAxes()[dim].size();
}

int16_t mlirMeshAxesArrayAttrGetAxis(MlirAttribute attr, intptr_t dim,
                                     intptr_t pos) {
  return cast<MeshAxesArrayAttr>(unwrap(attr)).getAxes()[dim][pos];
}

bool mlirAttributeIsAMeshReductionKindAttr(MlirAttribute attr) {
  return isa<ReductionKindAttr>(unwrap(attr));
}

MlirTypeID mlirMeshReductionKindAttrGetTypeID(void) {
  return wrap(ReductionKindAttr::getTypeID());
}

MlirAttribute mlirMeshReductionKindAttrGet(MlirContext ctx, int32_t kind) {
  MLIRContext *context = unwrap(ctx);
  std::optional<ReductionKind> value = symbolizeReductionKind(kind);
  if (!value) {
    emitError(UnknownLoc::get(context))
        << "invalid reduction kind " << kind;
    return MlirAttribute{nullptr};
  }
  return wrap(ReductionKindAttr::get(context, *value));
}

int32_t mlirMeshReductionKindAttrGetValue(MlirAttribute attr) {
  return static_cast<int32_t>(cast<ReductionKindAttr>(unwrap(attr)).getValue());
}

bool mlirTypeIsAMeshShardingType(MlirType type) {
  return isa<ShardingType>(unwrap(type));
}

MlirTypeID mlirMeshShardingTypeGetTypeID(void) {
  return wrap(ShardingType::getTypeID());
}

MlirType mlirMeshShardingTypeGet(MlirContext ctx) {
  return wrap(ShardingType::get(unwrap(ctx)));
}

int64_t mlirMeshCollectiveProcessGroupSize(intptr_t nAxes,
                                           const int16_t *meshAxes,
                                           intptr_t rank,
                                           const int64_t *meshShape) {
  return collectiveProcessGroupSize(ArrayRef<MeshAxis>(meshAxes, nAxes),
                                    ArrayRef<int64_t>(meshShape, rank));
}

int64_t mlirMeshInGroupIndex(intptr_t rank, const int64_t *device,
                             const int64_t *meshShape, intptr_t nAxes,
                             const int16_t *meshAxes) {
  return inGroupIndex(ArrayRef<int64_t>(device, rank),
                      ArrayRef<int64_t>(meshShape, rank),
                      ArrayRef<MeshAxis>(meshAxes, nAxes));
}

bool mlirMeshShardingOpsEqual(MlirOperation lhs, MlirOperation rhs) {
  auto l = dyn_cast_or_null<ShardingOp>(unwrap(lhs));
  auto r = dyn_cast_or_null<ShardingOp>(unwrap(rhs));
  return l && r && MeshSharding::get(l) == MeshSharding::get(r);
}

bool mlirMeshShardShapeForDevice(MlirOperation sharding, intptr_t rank,
                                 const int64_t *globalShape, intptr_t meshRank,
                                 const int64_t *meshShape,
                                 const int64_t *device, int64_t *result) {
  auto op = dyn_cast_or_null<ShardingOp>(unwrap(sharding));
  if (!op)
    return false;
  FailureOr<SmallVector<int64_t>> shape = getShardShapeForDevice(
      ArrayRef<int64_t>(globalShape, rank),
      ArrayRef<int64_t>(meshShape, meshRank), MeshSharding::get(op),
      ArrayRef<int64_t>(device, meshRank));
  if (failed(shape) || static_cast<intptr_t>(shape->size()) != rank)
    return false;
  llvm::copy(*shape, result);
  return true;
}

bool mlirMeshShardShape(MlirOperation sharding, intptr_t rank,
                        const int64_t *globalShape, intptr_t meshRank,
                        const int64_t *meshShape, int64_t *result) {
  auto op = dyn_cast_or_null<ShardingOp>(unwrap(sharding));
  if (!op)
    return false;
  SmallVector<int64_t> shape = getShardShape(
      ArrayRef<int64_t>(globalShape, rank),
      ArrayRef<int64_t>(meshShape, meshRank), MeshSharding::get(op));
  llvm::copy(shape, result);
  return true;
}

intptr_t mlirMeshGroupIndex(intptr_t rank, const int64_t *device,
                            intptr_t nAxes, const int16_t *meshAxes,
                            int64_t *result) {
  SmallVector<int64_t> index = groupIndex(ArrayRef<int64_t>(device, rank),
                                          ArrayRef<MeshAxis>(meshAxes, nAxes));
  llvm::copy(index, result);
  return index.size();
}

bool mlirMeshInGroupDevice(intptr_t rank, const int64_t *device,
                           intptr_t nAxes, const int64_t *inGroup,
                           const int16_t *meshAxes, int64_t *result) {
  SmallVector<int64_t> coords = inGroupDevice(
      ArrayRef<int64_t>(device, rank), ArrayRef<int64_t>(inGroup, nAxes),
      ArrayRef<MeshAxis>(meshAxes, nAxes));
  if (static_cast<intptr_t>(coords.size()) != rank)
    return false;
  llvm::copy(coords, result);
  return true;
}
