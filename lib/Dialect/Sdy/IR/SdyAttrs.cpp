//===- SdyAttrs.cpp - sdy attribute verifiers and helpers -----------------===//

#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::sdy;

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

int64_t MeshAttr::getTotalSize() const {
  int64_t total = 1;
  for (MeshAxisAttr axis : getAxes())
    total *= axis.getSize();
  return total;
}

MeshAxisAttr MeshAttr::getAxis(StringRef name) const {
  for (MeshAxisAttr axis : getAxes())
    if (axis.getName() == name)
      return axis;
  return {};
}

LogicalResult MeshAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<MeshAxisAttr> axes,
                               ArrayRef<int64_t> deviceIds) {
  for (int64_t id : deviceIds)
    if (id < 0)
      return emitError() << "device id must be non-negative, got " << id;

  if (axes.empty()) {
    if (deviceIds.size() > 1)
      return emitError() << "a mesh without axes takes at most one device "
                            "id, got "
                         << deviceIds.size();
    return success();
  }

  llvm::StringSet<> names;
  int64_t total = 1;
  for (MeshAxisAttr axis : axes) {
    if (axis.getName().empty())
      return emitError() << "axis name must not be empty";
    if (axis.getSize() <= 0)
      return emitError() << "axis \"" << axis.getName()
                         << "\" must have a positive size, got "
                         << axis.getSize();
    if (!names.insert(axis.getName()).second)
      return emitError() << "duplicate axis name \"" << axis.getName()
                         << "\"";
    total *= axis.getSize();
  }
  if (deviceIds.empty())
    return success();

  if (static_cast<int64_t>(deviceIds.size()) != total)
    return emitError() << "number of device ids must match the product of "
                          "the axis sizes: "
                       << deviceIds.size() << " != " << total;
  // Each id in [0, total) exactly once <=> sorted ids == iota(total).
  SmallVector<bool> seen(total, false);
  for (int64_t id : deviceIds) {
    if (id >= total || seen[id])
      return emitError() << "sorted device ids must be iota(" << total
                         << "), but device id " << id
                         << (id >= total ? " is out of range" : " repeats");
    seen[id] = true;
  }
  if (llvm::all_of(llvm::enumerate(deviceIds),
                   [](auto it) { return it.value() == (int64_t)it.index(); }))
    return emitError() << "device ids equal to iota(" << total
                       << ") must be omitted";
  return success();
}
