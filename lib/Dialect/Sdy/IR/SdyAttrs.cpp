//===- SdyAttrs.cpp - sdy attribute verifiers and helpers -----------------===//

#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"

#include "AttrSyntax.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <limits>

using namespace mlir;
using namespace mlir::sdy;

#include "meshsdy/Dialect/Sdy/IR/SdyEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.cpp.inc"

void SdyDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.cpp.inc"
      >();
}

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
    if (total > std::numeric_limits<int64_t>::max() / axis.getSize())
      return emitError() << "the product of the axis sizes overflows int64";
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

//===----------------------------------------------------------------------===//
// AxisRefAttr
//===----------------------------------------------------------------------===//

int64_t AxisRefAttr::getSize(MeshAttr mesh) const {
  if (SubAxisInfoAttr subAxis = getSubAxisInfo())
    return subAxis.getSize();
  if (!mesh)
    return -1;
  MeshAxisAttr axis = mesh.getAxis(getName());
  return axis ? axis.getSize() : -1;
}

//===----------------------------------------------------------------------===//
// TensorShardingAttr
//===----------------------------------------------------------------------===//

LogicalResult
TensorShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           Attribute meshOrRef,
                           ArrayRef<DimensionShardingAttr> dimShardings,
                           ArrayRef<AxisRefAttr>, ArrayRef<AxisRefAttr>) {
  if (!isa_and_nonnull<MeshAttr, FlatSymbolRefAttr>(meshOrRef))
    return emitError() << "a sharding must be bound to a mesh or to a flat "
                          "mesh symbol reference";
  for (auto [dim, dimSharding] : llvm::enumerate(dimShardings)) {
    if (!dimSharding)
      return emitError() << "dim " << dim << " has no dimension sharding";
    std::optional<int64_t> priority = dimSharding.getPriority();
    if (!priority)
      continue;
    if (*priority < 0)
      return emitError() << "dim " << dim << " has a negative priority "
                         << *priority;
    if (dimSharding.getIsClosed() && dimSharding.emptyAxes())
      return emitError() << "dim " << dim
                         << " is closed and has no axes but has a priority";
  }
  return success();
}

MeshAttr TensorShardingAttr::getMesh(Operation *op) const {
  if (MeshAttr mesh = getInlinedMesh())
    return mesh;
  FlatSymbolRefAttr name = getMeshSymName();
  if (!op || !name)
    return {};
  auto meshOp = dyn_cast_or_null<MeshOp>(
      SymbolTable::lookupNearestSymbolFrom(op, name.getAttr()));
  return meshOp ? meshOp.getMesh() : MeshAttr();
}

bool TensorShardingAttr::isFullyReplicated() const {
  return getReplicatedAxes().empty() && getUnreducedAxes().empty() &&
         llvm::all_of(getDimShardings(), [](DimensionShardingAttr dim) {
           return dim.getIsClosed() && dim.emptyAxes();
         });
}

bool TensorShardingAttr::isFullyClosed() const {
  return llvm::all_of(getDimShardings(), [](DimensionShardingAttr dim) {
    return dim.getIsClosed();
  });
}

static TensorShardingAttr getUniform(MLIRContext *ctx, int64_t rank,
                                     Attribute meshOrRef, bool isClosed) {
  SmallVector<DimensionShardingAttr> dims(
      rank, DimensionShardingAttr::get(ctx, {}, isClosed, std::nullopt));
  return TensorShardingAttr::get(ctx, meshOrRef, dims, {}, {});
}

TensorShardingAttr TensorShardingAttr::getFullyClosed(MLIRContext *ctx,
                                                      int64_t rank,
                                                      Attribute meshOrRef) {
  return getUniform(ctx, rank, meshOrRef, /*isClosed=*/true);
}

TensorShardingAttr TensorShardingAttr::getFullyOpen(MLIRContext *ctx,
                                                    int64_t rank,
                                                    Attribute meshOrRef) {
  return getUniform(ctx, rank, meshOrRef, /*isClosed=*/false);
}

//===----------------------------------------------------------------------===//
// OpShardingRuleAttr
//===----------------------------------------------------------------------===//

static std::string factorsToString(ArrayRef<int64_t> factors) {
  std::string result;
  for (int64_t factor : factors)
    result += factorName(factor);
  return result.empty() ? "*" : result;
}

/// Checks one factor group (e.g. `reduction`): in range, no duplicates.
static LogicalResult
verifyFactorGroup(function_ref<InFlightDiagnostic()> emitError,
                  StringRef group, ArrayRef<int64_t> factors,
                  int64_t numFactors) {
  SmallVector<bool> seen(numFactors, false);
  for (int64_t factor : factors) {
    if (factor < 0 || factor >= numFactors)
      return emitError() << group << " factor index " << factor
                         << " is out of range [0, " << numFactors << ")";
    if (seen[factor])
      return emitError() << "duplicate " << group << " factor '"
                         << factorName(factor) << "'";
    seen[factor] = true;
  }
  return success();
}

LogicalResult OpShardingRuleAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> factorSizes,
    ArrayRef<TensorMappingAttr> operandMappings,
    ArrayRef<TensorMappingAttr> resultMappings,
    ArrayRef<int64_t> reductionFactors, ArrayRef<int64_t> needReplicationFactors,
    ArrayRef<int64_t> permutationFactors,
    ArrayRef<int64_t> blockedPropagationFactors, bool) {
  int64_t numFactors = factorSizes.size();
  for (auto [factor, size] : llvm::enumerate(factorSizes))
    if (size < 0)
      return emitError() << "factor '" << factorName(factor)
                         << "' has a negative size " << size;
  if (operandMappings.empty() && resultMappings.empty())
    return emitError() << "a sharding rule needs at least one operand or "
                          "result mapping";

  auto verifyMappings = [&](ArrayRef<TensorMappingAttr> mappings,
                            StringRef kind) -> LogicalResult {
    for (auto [index, mapping] : llvm::enumerate(mappings)) {
      if (!mapping)
        return emitError() << kind << " " << index << " has no mapping";
      SmallVector<int64_t> dimOfFactor(numFactors, -1);
      for (auto [dim, dimMapping] : llvm::enumerate(mapping.getDimMappings())) {
        if (!dimMapping)
          return emitError() << kind << " " << index << " dim " << dim
                             << " has no mapping";
        ArrayRef<int64_t> factors = dimMapping.getFactorIndices();
        for (int64_t factor : factors) {
          if (factor < 0 || factor >= numFactors)
            return emitError() << kind << " " << index << " dim " << dim
                               << " - factor index " << factor
                               << " is out of range [0, " << numFactors << ")";
          if (factors.size() > 1 && factorSizes[factor] == 1)
            return emitError()
                   << kind << " " << index << " dim " << dim
                   << " - compound mapping '" << factorsToString(factors)
                   << "' has factor '" << factorName(factor) << "' of size 1";
          if (dimOfFactor[factor] != -1)
            return emitError()
                   << kind << " " << index << " - factor '"
                   << factorName(factor) << "' is mapped to dims "
                   << dimOfFactor[factor] << " and " << dim;
          dimOfFactor[factor] = dim;
        }
      }
    }
    return success();
  };
  if (failed(verifyMappings(operandMappings, "operand")) ||
      failed(verifyMappings(resultMappings, "result")))
    return failure();

  if (failed(verifyFactorGroup(emitError, "reduction", reductionFactors,
                               numFactors)) ||
      failed(verifyFactorGroup(emitError, "need_replication",
                               needReplicationFactors, numFactors)) ||
      failed(verifyFactorGroup(emitError, "permutation", permutationFactors,
                               numFactors)) ||
      failed(verifyFactorGroup(emitError, "blocked_propagation",
                               blockedPropagationFactors, numFactors)))
    return failure();
  // A factor has at most one type.
  SmallVector<StringRef> typeOf(numFactors);
  for (auto [group, factors] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"reduction", reductionFactors},
        {"need_replication", needReplicationFactors},
        {"permutation", permutationFactors}}) {
    for (int64_t factor : factors) {
      if (!typeOf[factor].empty())
        return emitError() << "factor '" << factorName(factor)
                           << "' is both " << typeOf[factor] << " and "
                           << group;
      typeOf[factor] = group;
    }
  }
  return success();
}
