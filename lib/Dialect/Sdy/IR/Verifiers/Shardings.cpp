//===- Shardings.cpp - verification of axis refs and shardings ------------===//

#include "Verifiers.h"

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::sdy;

InFlightDiagnostic mlir::sdy::emitOpErrorWithPrefix(Operation *op,
                                                    StringRef prefix) {
  InFlightDiagnostic diag = op->emitOpError();
  diag << prefix;
  return diag;
}

MeshAttr mlir::sdy::resolveMesh(Attribute meshOrRef, Operation *op,
                                SymbolTableCollection *symbols,
                                EmitErrorFn emitError) {
  if (auto mesh = dyn_cast_or_null<MeshAttr>(meshOrRef))
    return mesh;
  auto name = dyn_cast_or_null<FlatSymbolRefAttr>(meshOrRef);
  if (!name) {
    emitError() << "a sharding must be bound to a mesh or to a flat mesh "
                   "symbol reference";
    return {};
  }
  Operation *symbol =
      symbols ? symbols->lookupNearestSymbolFrom(op, name.getAttr())
              : SymbolTable::lookupNearestSymbolFrom(op, name.getAttr());
  auto meshOp = dyn_cast_or_null<MeshOp>(symbol);
  if (!meshOp) {
    emitError() << "unknown mesh: " << name;
    return {};
  }
  return meshOp.getMesh();
}

LogicalResult mlir::sdy::verifyAxisRefList(ArrayRef<AxisRefAttr> axes,
                                           MeshAttr mesh,
                                           EmitErrorFn emitError) {
  for (AxisRefAttr axis : axes) {
    MeshAxisAttr meshAxis = mesh.getAxis(axis.getName());
    if (!meshAxis)
      return emitError() << "unknown axis name: \"" << axis.getName() << "\"";
    SubAxisInfoAttr subAxis = axis.getSubAxisInfo();
    if (!subAxis)
      continue;
    int64_t preSize = subAxis.getPreSize(), size = subAxis.getSize();
    int64_t axisSize = meshAxis.getSize();
    if (preSize < 1)
      return emitError() << "sub-axis pre-size must be at least 1: "
                         << axisRefToString(axis);
    if (size <= 1)
      return emitError() << "sub-axis size must be greater than 1: "
                         << axisRefToString(axis);
    if (axisSize % preSize != 0 || (axisSize / preSize) % size != 0)
      return emitError() << "sub-axis " << axisRefToString(axis)
                         << " doesn't fit in axis \"" << axis.getName()
                         << "\" of size " << axisSize
                         << ": pre-size times size must divide the axis size";
    if (size == axisSize)
      return emitError() << "sub-axis " << axisRefToString(axis)
                         << " is the full axis; use \"" << axis.getName()
                         << "\" instead";
  }
  for (auto [i, a] : llvm::enumerate(axes)) {
    for (AxisRefAttr b : axes.drop_front(i + 1)) {
      if (a == b)
        return emitError() << "duplicate axis ref " << axisRefToString(a);
      if (overlaps(a, b))
        return emitError() << "axis refs " << axisRefToString(a) << " and "
                           << axisRefToString(b) << " overlap";
    }
    if (i + 1 < axes.size() && canMerge(a, axes[i + 1]))
      return emitError() << "adjacent axis refs " << axisRefToString(a)
                         << " and " << axisRefToString(axes[i + 1])
                         << " can be merged into "
                         << axisRefToString(merge(a, axes[i + 1], mesh));
  }
  return success();
}

/// Verifies one list of a sharding (a dimension, replicated or unreduced),
/// prefixing errors with `where` (a temporary of the caller's expression,
/// only rendered on error: verification runs after every pass).
static LogicalResult verifyPart(ArrayRef<AxisRefAttr> axes, MeshAttr mesh,
                                EmitErrorFn emitError, const Twine &where) {
  if (axes.empty())
    return success();
  return verifyAxisRefList(axes, mesh, [&]() {
    InFlightDiagnostic diag = emitError();
    diag << where.str() << " - ";
    return diag;
  });
}

LogicalResult mlir::sdy::verifyTensorSharding(TensorShardingAttr sharding,
                                              Type type, Operation *op,
                                              SymbolTableCollection *symbols,
                                              EmitErrorFn emitError,
                                              MeshAttr *meshOut) {
  MeshAttr mesh =
      resolveMesh(sharding.getMeshOrRef(), op, symbols, emitError);
  if (!mesh)
    return failure();
  if (meshOut)
    *meshOut = mesh;

  ArrayRef<DimensionShardingAttr> dims = sharding.getDimShardings();
  auto shapedType = dyn_cast<ShapedType>(type);
  if (!shapedType) {
    if (!dims.empty() || !sharding.getReplicatedAxes().empty())
      return emitError() << "non-shaped tensors can only have a sharding "
                            "with rank 0 and no replicated axes";
  } else if (!shapedType.hasRank()) {
    if (!dims.empty())
      return emitError() << "unranked tensors can only have a sharding with "
                            "rank 0, got rank "
                         << dims.size();
  } else if (shapedType.getRank() != static_cast<int64_t>(dims.size())) {
    return emitError() << "sharding doesn't match tensor rank: " << dims.size()
                       << " != " << shapedType.getRank();
  }

  for (auto [dim, dimSharding] : llvm::enumerate(dims)) {
    if (failed(verifyPart(dimSharding.getAxes(), mesh, emitError,
                          "dim " + Twine(dim))))
      return failure();
    if (shapedType && shapedType.hasRank() &&
        shapedType.getDimSize(dim) == 0 && !dimSharding.emptyAxes())
      return emitError() << "dim " << dim << " of size 0 can't be sharded, "
                         << "got " << axisRefsToString(dimSharding.getAxes());
  }
  auto comparator = getMeshComparator(mesh);
  for (auto [name, axes] : {std::pair<StringRef, ArrayRef<AxisRefAttr>>{
                                "replicated", sharding.getReplicatedAxes()},
                            {"unreduced", sharding.getUnreducedAxes()}}) {
    if (failed(verifyPart(axes, mesh, emitError, name + " axes")))
      return failure();
    if (!llvm::is_sorted(axes, comparator))
      return emitError() << name << " axes are not ordered w.r.t. the mesh: "
                         << axisRefsToString(axes);
  }

  // Inside a manual_computation body values are local w.r.t. its manual
  // axes, which a sharding can't refer to.
  for (auto manual = op ? op->getParentOfType<ManualComputationOp>()
                        : ManualComputationOp();
       manual; manual = manual->getParentOfType<ManualComputationOp>()) {
    ManualAxesAttr manualAxes = manual.getManualAxes();
    auto check = [&](ArrayRef<AxisRefAttr> axes) -> LogicalResult {
      for (AxisRefAttr axis : axes)
        if (manualAxes.contains(axis.getName()))
          return emitError() << "axis \"" << axis.getName()
                             << "\" is manual in an enclosing "
                                "sdy.manual_computation";
      return success();
    };
    for (DimensionShardingAttr dim : dims)
      if (failed(check(dim.getAxes())))
        return failure();
    if (failed(check(sharding.getReplicatedAxes())) ||
        failed(check(sharding.getUnreducedAxes())))
      return failure();
  }

  // No axis is used twice across dimensions, replicated and unreduced axes.
  // Where an axis is: a dimension, or kReplicated / kUnreduced.
  constexpr int64_t kReplicated = -1, kUnreduced = -2;
  SmallVector<std::pair<AxisRefAttr, int64_t>, 8> used;
  for (auto [dim, dimSharding] : llvm::enumerate(dims))
    for (AxisRefAttr axis : dimSharding.getAxes())
      used.emplace_back(axis, dim);
  for (AxisRefAttr axis : sharding.getReplicatedAxes())
    used.emplace_back(axis, kReplicated);
  for (AxisRefAttr axis : sharding.getUnreducedAxes())
    used.emplace_back(axis, kUnreduced);
  auto placeName = [&](int64_t place) -> std::string {
    if (place == kReplicated)
      return "replicated axes";
    if (place == kUnreduced)
      return "unreduced axes";
    return "dim " + std::to_string(place);
  };
  for (auto [i, a] : llvm::enumerate(used))
    for (const auto &b : ArrayRef(used).drop_front(i + 1))
      if (a.second != b.second && overlaps(a.first, b.first))
        return emitError() << "axis ref " << axisRefToString(a.first)
                           << " in " << placeName(a.second)
                           << " overlaps with " << axisRefToString(b.first)
                           << " in " << placeName(b.second);
  return success();
}

LogicalResult mlir::sdy::verifyShardingPerValue(
    TensorShardingPerValueAttr shardings, TypeRange types, StringRef valueKind,
    Operation *op, SymbolTableCollection *symbols, StringRef prefix) {
  ArrayRef<TensorShardingAttr> list = shardings.getShardings();
  if (list.size() != types.size())
    return op->emitOpError()
           << prefix << "shardings don't match number of " << valueKind
           << "s: " << list.size() << " != " << types.size();
  for (auto [index, sharding, type] : llvm::enumerate(list, types)) {
    // Rendered only on error.
    auto where = [&, index = index] {
      return (prefix + valueKind + " " + Twine(index) + " - ").str();
    };
    if (!sharding)
      return op->emitOpError() << where() << "missing sharding";
    if (failed(verifyTensorSharding(sharding, type, op, symbols, [&]() {
          return emitOpErrorWithPrefix(op, where());
        })))
      return failure();
  }
  return success();
}

LogicalResult mlir::sdy::verifyShardingRuleForOp(OpShardingRuleAttr rule,
                                                 Operation *op) {
  auto check = [&](ArrayRef<TensorMappingAttr> mappings, TypeRange types,
                   StringRef kind) -> LogicalResult {
    if (mappings.size() != types.size())
      return op->emitOpError()
             << "sharding rule has " << mappings.size() << " " << kind
             << " mappings but the op has " << types.size() << " " << kind
             << "s";
    for (auto [index, mapping, type] : llvm::enumerate(mappings, types)) {
      auto shapedType = dyn_cast<ShapedType>(type);
      int64_t rank =
          shapedType && shapedType.hasRank() ? shapedType.getRank() : 0;
      if (mapping.getRank() != rank)
        return op->emitOpError()
               << "sharding rule " << kind << " " << index
               << " - mapping rank doesn't match tensor rank: "
               << mapping.getRank() << " != " << rank;
    }
    return success();
  };
  return failure(
      failed(check(rule.getOperandMappings(), op->getOperandTypes(),
                   "operand")) ||
      failed(check(rule.getResultMappings(), op->getResultTypes(), "result")));
}
