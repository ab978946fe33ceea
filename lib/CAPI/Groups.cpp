//===- Groups.cpp - C API for the mesh device-group arithmetic -----------===//

#include "meshsdy-c/Groups.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mesh;

int64_t mlirMeshLinearIndex(intptr_t rank, const int64_t *multiIndex,
                            const int64_t *shape) {
  return linearIndex(ArrayRef<int64_t>(multiIndex, rank),
                     ArrayRef<int64_t>(shape, rank));
}

bool mlirMeshMultiIndex(int64_t linear, intptr_t rank, const int64_t *shape,
                        int64_t *multiIndex) {
  SmallVector<int64_t> coords =
      mesh::multiIndex(linear, ArrayRef<int64_t>(shape, rank));
  if (static_cast<intptr_t>(coords.size()) != rank)
    return false;
  llvm::copy(coords, multiIndex);
  return true;
}

bool mlirMeshAreValidGroupAxes(intptr_t rank, const int64_t *shape,
                               intptr_t nAxes, const int16_t *meshAxes) {
  return areValidGroupAxes(ArrayRef<int64_t>(shape, rank),
                           ArrayRef<MeshAxis>(meshAxes, nAxes));
}

int64_t mlirMeshDeviceGroups(intptr_t rank, const int64_t *shape,
                             intptr_t nAxes, const int16_t *meshAxes,
                             int64_t capacity, int64_t *devices) {
  ArrayRef<int64_t> meshShape(shape, rank);
  ArrayRef<MeshAxis> axes(meshAxes, nAxes);
  if (!areValidGroupAxes(meshShape, axes))
    return -1;
  int64_t count = 1;
  for (int64_t size : meshShape)
    if (llvm::MulOverflow(count, size, count))
      return -1;
  // Counted first, so that a mesh too large for the caller's buffer is never
  // enumerated.
  if (count > capacity)
    return count;
  llvm::copy(deviceGroups(meshShape, axes), devices);
  return count;
}
