//===- AxisRefs.cpp - algebra of axis refs and shardings ------------------===//

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::sdy;

std::string mlir::sdy::axisRefToString(AxisRefAttr axis) {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << '"';
  llvm::printEscapedString(axis.getName(), os);
  os << '"';
  if (SubAxisInfoAttr subAxis = axis.getSubAxisInfo())
    os << ":(" << subAxis.getPreSize() << ")" << subAxis.getSize();
  return result;
}

std::string mlir::sdy::axisRefsToString(ArrayRef<AxisRefAttr> axes) {
  std::string result = "{";
  llvm::interleave(
      axes, [&](AxisRefAttr axis) { result += axisRefToString(axis); },
      [&] { result += ", "; });
  return result + "}";
}

bool mlir::sdy::overlaps(AxisRefAttr a, AxisRefAttr b) {
  if (a.getName() != b.getName())
    return false;
  if (!a.isSubAxis() || !b.isSubAxis())
    return true;
  SubAxisInfoAttr x = a.getSubAxisInfo(), y = b.getSubAxisInfo();
  return x.getPreSize() < y.getNextPreSize() &&
         y.getPreSize() < x.getNextPreSize();
}

bool mlir::sdy::contains(AxisRefAttr a, AxisRefAttr b) {
  if (a.getName() != b.getName())
    return false;
  if (!a.isSubAxis())
    return true;
  if (!b.isSubAxis())
    return false; // A valid sub-axis is strictly smaller than its axis.
  SubAxisInfoAttr x = a.getSubAxisInfo(), y = b.getSubAxisInfo();
  return x.getPreSize() <= y.getPreSize() &&
         y.getNextPreSize() <= x.getNextPreSize();
}

bool mlir::sdy::isPrefixOf(AxisRefAttr a, AxisRefAttr b) {
  if (a.getName() != b.getName())
    return false;
  if (!b.isSubAxis())
    return a.getPreSize() == 1;
  if (!a.isSubAxis())
    return false;
  return a.getPreSize() == b.getPreSize() &&
         a.getSubAxisInfo().getSize() <= b.getSubAxisInfo().getSize();
}

bool mlir::sdy::isStrictPrefixOf(AxisRefAttr a, AxisRefAttr b) {
  return a != b && isPrefixOf(a, b);
}

bool mlir::sdy::canMerge(AxisRefAttr a, AxisRefAttr b) {
  return a.getName() == b.getName() && a.isSubAxis() && b.isSubAxis() &&
         a.getSubAxisInfo().getNextPreSize() == b.getPreSize();
}

AxisRefAttr mlir::sdy::merge(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh) {
  MLIRContext *ctx = a.getContext();
  int64_t preSize = a.getPreSize();
  int64_t size = a.getSubAxisInfo().getSize() * b.getSubAxisInfo().getSize();
  MeshAxisAttr axis = mesh ? mesh.getAxis(a.getName()) : MeshAxisAttr();
  if (axis && preSize == 1 && size == axis.getSize())
    return AxisRefAttr::get(ctx, a.getName(), SubAxisInfoAttr());
  return AxisRefAttr::get(ctx, a.getName(),
                          SubAxisInfoAttr::get(ctx, preSize, size));
}

AxisRefAttr mlir::sdy::getGreatestCommonPrefix(AxisRefAttr a, AxisRefAttr b) {
  if (isPrefixOf(a, b))
    return a;
  if (isPrefixOf(b, a))
    return b;
  return {};
}

AxisRefAttr mlir::sdy::getPrefixWithoutOverlap(AxisRefAttr a, AxisRefAttr b) {
  if (!overlaps(a, b))
    return a;
  // They overlap: the part of `a` before `b` starts, if any.
  if (b.getPreSize() <= a.getPreSize())
    return {};
  MLIRContext *ctx = a.getContext();
  return AxisRefAttr::get(
      ctx, a.getName(),
      SubAxisInfoAttr::get(ctx, a.getPreSize(),
                           b.getPreSize() / a.getPreSize()));
}

/// Position of `name` in `mesh`, or the number of axes if absent.
static int64_t axisIndex(MeshAttr mesh, StringRef name) {
  ArrayRef<MeshAxisAttr> axes = mesh ? mesh.getAxes() : ArrayRef<MeshAxisAttr>();
  for (auto [index, axis] : llvm::enumerate(axes))
    if (axis.getName() == name)
      return index;
  return axes.size();
}

bool mlir::sdy::lessInMesh(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh) {
  int64_t indexA = axisIndex(mesh, a.getName());
  int64_t indexB = axisIndex(mesh, b.getName());
  if (indexA != indexB)
    return indexA < indexB;
  if (a.getName() != b.getName())
    return a.getName() < b.getName(); // Both unknown.
  if (a.getPreSize() != b.getPreSize())
    return a.getPreSize() < b.getPreSize();
  return a.getSize(mesh) < b.getSize(mesh);
}

std::function<bool(AxisRefAttr, AxisRefAttr)>
mlir::sdy::getMeshComparator(MeshAttr mesh) {
  return [mesh](AxisRefAttr a, AxisRefAttr b) { return lessInMesh(a, b, mesh); };
}

std::function<bool(AxisRefAttr, AxisRefAttr)>
AxisRefAttr::getMeshComparator(MeshAttr mesh) {
  return mlir::sdy::getMeshComparator(mesh);
}

int64_t mlir::sdy::getTotalSize(ArrayRef<AxisRefAttr> axes, MeshAttr mesh) {
  int64_t total = 1;
  for (AxisRefAttr axis : axes)
    total *= std::max<int64_t>(axis.getSize(mesh), 1);
  return total;
}

SmallVector<int64_t> mlir::sdy::getLocalShape(ArrayRef<int64_t> globalShape,
                                              TensorShardingAttr sharding,
                                              MeshAttr mesh) {
  SmallVector<ArrayRef<AxisRefAttr>> dimAxes;
  for (DimensionShardingAttr dim : sharding.getDimShardings())
    dimAxes.push_back(dim.getAxes());
  return getLocalShape(globalShape, dimAxes, mesh);
}

SmallVector<int64_t>
mlir::sdy::getLocalShape(ArrayRef<int64_t> globalShape,
                         ArrayRef<ArrayRef<AxisRefAttr>> dimAxes,
                         MeshAttr mesh) {
  SmallVector<int64_t> local(globalShape);
  for (auto [dim, size] : llvm::enumerate(local)) {
    if (dim >= dimAxes.size() || size < 0) // Dynamic sizes stay dynamic.
      continue;
    size = llvm::divideCeil(size, getTotalSize(dimAxes[dim], mesh));
  }
  return local;
}

bool mlir::sdy::areEquivalent(TensorShardingAttr a, TensorShardingAttr b) {
  if (a == b)
    return true;
  if (!a || !b || a.getMeshOrRef() != b.getMeshOrRef() ||
      a.getRank() != b.getRank())
    return false;
  for (auto [x, y] : llvm::zip_equal(a.getDimShardings(), b.getDimShardings()))
    if (x.getAxes() != y.getAxes())
      return false;
  return a.getUnreducedAxes() == b.getUnreducedAxes();
}

bool mlir::sdy::anyOverlap(ArrayRef<AxisRefAttr> axes,
                           ArrayRef<AxisRefAttr> others) {
  return llvm::any_of(axes, [&](AxisRefAttr axis) {
    return llvm::any_of(others,
                        [&](AxisRefAttr other) { return overlaps(axis, other); });
  });
}

void mlir::sdy::appendOrMerge(SmallVectorImpl<AxisRefAttr> &axes,
                              AxisRefAttr axis, MeshAttr mesh) {
  if (!axes.empty() && canMerge(axes.back(), axis))
    axes.back() = merge(axes.back(), axis, mesh);
  else
    axes.push_back(axis);
}

SmallVector<AxisRefAttr, 4> mlir::sdy::mergedAxes(ArrayRef<AxisRefAttr> axes,
                                                  MeshAttr mesh) {
  SmallVector<AxisRefAttr, 4> result;
  for (AxisRefAttr axis : axes)
    appendOrMerge(result, axis, mesh);
  return result;
}
