//===- MeshGroups.cpp - mesh lookup and device-group arithmetic -----------===//

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mesh;

Operation *
ScanningSymbolTableCollection::lookupNearestSymbolFrom(Operation *from,
                                                       StringAttr symbol) {
  Operation *table = SymbolTable::getNearestSymbolTable(from);
  if (!table)
    return nullptr;
  auto [it, inserted] = resolved.try_emplace({table, symbol}, nullptr);
  if (inserted)
    it->second = SymbolTable::lookupSymbolIn(table, symbol);
  return it->second;
}

Operation *
ScanningSymbolTableCollection::lookupNearestSymbolFrom(Operation *from,
                                                       SymbolRefAttr symbol) {
  if (symbol.getNestedReferences().empty())
    return lookupNearestSymbolFrom(from, symbol.getRootReference());
  return SymbolTableCollection::lookupNearestSymbolFrom(from, symbol);
}

MeshOp mlir::mesh::getMesh(Operation *from, FlatSymbolRefAttr meshSymbol,
                           SymbolTableCollection &symbolTable) {
  if (!from || !meshSymbol)
    return nullptr;
  // lookupNearestSymbolFrom tolerates ops without an enclosing symbol table.
  Operation *symbol = symbolTable.lookupNearestSymbolFrom(from, meshSymbol);
  return dyn_cast_or_null<MeshOp>(symbol);
}

FailureOr<MeshOp> mlir::mesh::getMeshOrError(Operation *from,
                                             FlatSymbolRefAttr meshSymbol,
                                             SymbolTableCollection &symbolTable) {
  if (!meshSymbol)
    return from->emitOpError("expected a 'mesh' symbol");
  Operation *symbol = symbolTable.lookupNearestSymbolFrom(from, meshSymbol);
  if (!symbol)
    return from->emitOpError("undefined mesh symbol ") << meshSymbol;
  auto mesh = dyn_cast<MeshOp>(symbol);
  if (!mesh) {
    InFlightDiagnostic diag = from->emitOpError()
                              << meshSymbol << " does not name a 'mesh.mesh'";
    diag.attachNote(symbol->getLoc()) << "symbol defined here";
    return diag;
  }
  return mesh;
}

SmallVector<int64_t> mlir::mesh::meshAxesSizes(ArrayRef<MeshAxis> meshAxes,
                                               ArrayRef<int64_t> meshShape) {
  SmallVector<int64_t> sizes;
  sizes.reserve(meshAxes.size());
  for (MeshAxis axis : meshAxes) {
    bool inRange = axis >= 0 && static_cast<size_t>(axis) < meshShape.size();
    sizes.push_back(inRange ? meshShape[axis] : ShapedType::kDynamic);
  }
  return sizes;
}

int64_t mlir::mesh::collectiveProcessGroupSize(ArrayRef<MeshAxis> meshAxes,
                                               ArrayRef<int64_t> meshShape) {
  int64_t size = 1;
  for (int64_t axisSize : meshAxesSizes(meshAxes, meshShape)) {
    // Dynamic, or too large to count (treated as unknown, never UB).
    if (ShapedType::isDynamic(axisSize) ||
        llvm::MulOverflow(size, axisSize, size))
      return ShapedType::kDynamic;
  }
  return size;
}

int64_t mlir::mesh::collectiveProcessGroupSize(ArrayRef<MeshAxis> meshAxes,
                                               MeshOp mesh) {
  return collectiveProcessGroupSize(meshAxes, mesh.getShape());
}

int64_t mlir::mesh::linearIndex(ArrayRef<int64_t> multiIndex,
                                ArrayRef<int64_t> shape) {
  if (multiIndex.size() != shape.size())
    return ShapedType::kDynamic;
  int64_t index = 0;
  for (auto [coord, size] : llvm::zip_equal(multiIndex, shape)) {
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(coord) ||
        llvm::MulOverflow(index, size, index) ||
        llvm::AddOverflow(index, coord, index))
      return ShapedType::kDynamic;
  }
  return index;
}

SmallVector<int64_t> mlir::mesh::multiIndex(int64_t linear,
                                            ArrayRef<int64_t> shape) {
  if (llvm::any_of(shape, [](int64_t s) { return s <= 0; }))
    return {};
  SmallVector<int64_t> coords(shape.size());
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    coords[i] = linear % shape[i];
    linear /= shape[i];
  }
  return coords;
}

int64_t mlir::mesh::inGroupIndex(ArrayRef<int64_t> device,
                                 ArrayRef<int64_t> meshShape,
                                 ArrayRef<MeshAxis> meshAxes) {
  SmallVector<int64_t> coords;
  for (MeshAxis axis : meshAxes) {
    if (axis < 0 || static_cast<size_t>(axis) >= device.size())
      return ShapedType::kDynamic;
    coords.push_back(device[axis]);
  }
  return linearIndex(coords, meshAxesSizes(meshAxes, meshShape));
}

SmallVector<int64_t> mlir::mesh::groupIndex(ArrayRef<int64_t> device,
                                            ArrayRef<MeshAxis> meshAxes) {
  SmallVector<int64_t> coords;
  for (auto [axis, coord] : llvm::enumerate(device))
    if (!llvm::is_contained(meshAxes, static_cast<MeshAxis>(axis)))
      coords.push_back(coord);
  return coords;
}

SmallVector<int64_t> mlir::mesh::inGroupDevice(ArrayRef<int64_t> device,
                                               ArrayRef<int64_t> inGroup,
                                               ArrayRef<MeshAxis> meshAxes) {
  if (inGroup.size() != meshAxes.size())
    return {};
  SmallVector<int64_t> coords(device);
  for (auto [axis, coord] : llvm::zip_equal(meshAxes, inGroup)) {
    if (axis < 0 || static_cast<size_t>(axis) >= coords.size())
      return {};
    coords[axis] = coord;
  }
  return coords;
}

SmallVector<int64_t> mlir::mesh::inGroupMultiIndex(int64_t index,
                                                   ArrayRef<int64_t> meshShape,
                                                   ArrayRef<MeshAxis> meshAxes) {
  return multiIndex(index, meshAxesSizes(meshAxes, meshShape));
}

bool mlir::mesh::areValidGroupAxes(ArrayRef<int64_t> meshShape,
                                   ArrayRef<MeshAxis> meshAxes) {
  if (llvm::any_of(meshShape, [](int64_t size) { return size <= 0; }))
    return false;
  SmallVector<bool> seen(meshShape.size(), false);
  for (MeshAxis axis : meshAxes) {
    if (axis < 0 || static_cast<size_t>(axis) >= meshShape.size() ||
        seen[axis])
      return false;
    seen[axis] = true;
  }
  return true;
}

SmallVector<int64_t> mlir::mesh::deviceGroups(ArrayRef<int64_t> meshShape,
                                              ArrayRef<MeshAxis> meshAxes) {
  if (!areValidGroupAxes(meshShape, meshAxes))
    return {};
  int64_t devices = 1;
  for (int64_t size : meshShape)
    if (llvm::MulOverflow(devices, size, devices))
      return {};
  // Row-major strides of the mesh, then the axes in visiting order: the
  // outer ones (not in `meshAxes`, in axis order) pick the group, the group's
  // own ones (in the listed order) the device inside it.
  SmallVector<int64_t> stride(meshShape.size(), 1);
  for (int64_t axis = static_cast<int64_t>(meshShape.size()) - 2; axis >= 0;
       --axis)
    stride[axis] = stride[axis + 1] * meshShape[axis + 1];
  SmallVector<int64_t> order;
  for (auto [axis, size] : llvm::enumerate(meshShape))
    if (!llvm::is_contained(meshAxes, static_cast<MeshAxis>(axis)))
      order.push_back(axis);
  llvm::append_range(order, meshAxes);
  // An odometer over `order`, its last axis turning fastest.
  SmallVector<int64_t> coords(order.size(), 0);
  SmallVector<int64_t> groups;
  groups.reserve(devices);
  for (int64_t linear = 0, n = 0; n < devices; ++n) {
    groups.push_back(linear);
    for (int64_t k = static_cast<int64_t>(order.size()) - 1; k >= 0; --k) {
      int64_t axis = order[k];
      linear += stride[axis];
      if (++coords[k] < meshShape[axis])
        break;
      linear -= coords[k] * stride[axis];
      coords[k] = 0;
    }
  }
  return groups;
}
