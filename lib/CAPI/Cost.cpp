//===- Cost.cpp - C API for meshsdy's cost model -------------------------===//

#include "meshsdy-c/Cost.h"

#include "meshsdy/Dialect/Mesh/Transforms/CostModel.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mlir::mesh;

bool mlirMeshCostIsPricedCollective(MlirOperation op) {
  return unwrap(op) && isPricedCollective(unwrap(op));
}

bool mlirMeshCostRingFactor(MlirStringRef name, int64_t groupSize,
                            double *factor) {
  std::optional<double> value = ringFactor(unwrap(name), groupSize);
  if (!value)
    return false;
  *factor = *value;
  return true;
}

bool mlirMeshCostCollectiveBytesSent(MlirOperation op, intptr_t rank,
                                     const int64_t *operandShape,
                                     double *bytes) {
  if (!unwrap(op))
    return false;
  std::optional<ArrayRef<int64_t>> shape;
  if (operandShape)
    shape = ArrayRef<int64_t>(operandShape, rank);
  std::optional<double> sent = collectiveBytesSent(unwrap(op), shape);
  if (!sent)
    return false;
  *bytes = *sent;
  return true;
}

int64_t mlirMeshCostTensorBytes(MlirType type) {
  return tensorBytes(unwrap(type)).value_or(-1);
}

int64_t mlirMeshCostPeakLiveTensorBytes(MlirOperation op) {
  auto func = dyn_cast_or_null<func::FuncOp>(unwrap(op));
  return func ? peakLiveTensorBytes(func) : -1;
}
