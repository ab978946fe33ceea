//===- SdyShardingAttributes.cpp - C API for sdy sharding attributes ------===//
//
// Builders check the kinds of the attributes they are given and return null
// on a mismatch; accessors are only called on attributes of their kind (the
// Python classes guarantee it) but still return null/-1 instead of crashing.
//
//===----------------------------------------------------------------------===//

#include "meshsdy-c/SdyAttributes.h"

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::sdy;

#define MESHSDY_DEFINE_SDY_ATTR_KIND(K)                                        \
  bool mlirAttributeIsASdy##K(MlirAttribute attr) {                            \
    return isa_and_nonnull<K>(unwrap(attr));                                   \
  }                                                                            \
  MlirTypeID mlirSdy##K##GetTypeID(void) { return wrap(K::getTypeID()); }

MESHSDY_DEFINE_SDY_ATTR_KIND(SubAxisInfoAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(AxisRefAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(AxisRefListAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(ListOfAxisRefListsAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(DimensionShardingAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(TensorShardingAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(TensorShardingPerValueAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(ManualAxesAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(DimMappingAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(TensorMappingAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(OpShardingRuleAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(AllToAllParamAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(AllToAllParamListAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(EdgeValueRefAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(AxisToPropagationDetailsAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(PropagationOneStepAttr)
MESHSDY_DEFINE_SDY_ATTR_KIND(PropagationEdgesAttr)

namespace {
/// Unwraps `n` attributes of kind T into `out`; false if one isn't a T.
template <typename T>
bool unwrapList(intptr_t n, const MlirAttribute *attrs,
                SmallVectorImpl<T> &out) {
  for (intptr_t i = 0; i < n; ++i) {
    auto attr = dyn_cast_or_null<T>(unwrap(attrs[i]));
    if (!attr)
      return false;
    out.push_back(attr);
  }
  return true;
}

template <typename T>
MlirAttribute getList(MlirContext ctx, intptr_t n, const MlirAttribute *elems,
                      function_ref<Attribute(ArrayRef<T>)> build) {
  SmallVector<T> list;
  if (!unwrapList(n, elems, list))
    return MlirAttribute{nullptr};
  return wrap(build(list));
}
} // namespace

//===----------------------------------------------------------------------===//
// Axis refs
//===----------------------------------------------------------------------===//

MlirAttribute mlirSdySubAxisInfoAttrGet(MlirContext ctx, int64_t preSize,
                                        int64_t size) {
  return wrap(SubAxisInfoAttr::get(unwrap(ctx), preSize, size));
}

int64_t mlirSdySubAxisInfoAttrGetPreSize(MlirAttribute attr) {
  auto sub = dyn_cast_or_null<SubAxisInfoAttr>(unwrap(attr));
  return sub ? sub.getPreSize() : -1;
}

int64_t mlirSdySubAxisInfoAttrGetSize(MlirAttribute attr) {
  auto sub = dyn_cast_or_null<SubAxisInfoAttr>(unwrap(attr));
  return sub ? sub.getSize() : -1;
}

MlirAttribute mlirSdyAxisRefAttrGet(MlirContext ctx, MlirStringRef name,
                                    MlirAttribute subAxisInfo) {
  Attribute sub = unwrap(subAxisInfo);
  if (sub && !isa<SubAxisInfoAttr>(sub))
    return MlirAttribute{nullptr};
  return wrap(AxisRefAttr::get(unwrap(ctx), unwrap(name),
                               cast_or_null<SubAxisInfoAttr>(sub)));
}

MlirStringRef mlirSdyAxisRefAttrGetName(MlirAttribute attr) {
  auto axis = dyn_cast_or_null<AxisRefAttr>(unwrap(attr));
  return axis ? wrap(axis.getName()) : mlirStringRefCreate(nullptr, 0);
}

MlirAttribute mlirSdyAxisRefAttrGetSubAxisInfo(MlirAttribute attr) {
  auto axis = dyn_cast_or_null<AxisRefAttr>(unwrap(attr));
  return wrap(axis ? Attribute(axis.getSubAxisInfo()) : Attribute());
}

MlirAttribute mlirSdyAxisRefListAttrGet(MlirContext ctx, intptr_t n,
                                        const MlirAttribute *axisRefs) {
  return getList<AxisRefAttr>(ctx, n, axisRefs, [&](auto list) {
    return AxisRefListAttr::get(unwrap(ctx), list);
  });
}

MlirAttribute mlirSdyListOfAxisRefListsAttrGet(MlirContext ctx, intptr_t n,
                                               const MlirAttribute *lists) {
  return getList<AxisRefListAttr>(ctx, n, lists, [&](auto list) {
    return ListOfAxisRefListsAttr::get(unwrap(ctx), list);
  });
}

//===----------------------------------------------------------------------===//
// Shardings
//===----------------------------------------------------------------------===//

MlirAttribute mlirSdyDimensionShardingAttrGet(MlirContext ctx, intptr_t nAxes,
                                              const MlirAttribute *axisRefs,
                                              bool isClosed, bool hasPriority,
                                              int64_t priority) {
  return getList<AxisRefAttr>(ctx, nAxes, axisRefs, [&](auto list) {
    return DimensionShardingAttr::get(
        unwrap(ctx), list, isClosed,
        hasPriority ? std::optional<int64_t>(priority) : std::nullopt);
  });
}

bool mlirSdyDimensionShardingAttrGetIsClosed(MlirAttribute attr) {
  auto dim = dyn_cast_or_null<DimensionShardingAttr>(unwrap(attr));
  return dim && dim.getIsClosed();
}

bool mlirSdyDimensionShardingAttrHasPriority(MlirAttribute attr) {
  auto dim = dyn_cast_or_null<DimensionShardingAttr>(unwrap(attr));
  return dim && dim.getPriority().has_value();
}

int64_t mlirSdyDimensionShardingAttrGetPriority(MlirAttribute attr) {
  auto dim = dyn_cast_or_null<DimensionShardingAttr>(unwrap(attr));
  return dim ? dim.getPriority().value_or(-1) : -1;
}

MlirAttribute mlirSdyTensorShardingAttrGet(
    MlirContext ctx, MlirAttribute meshOrRef, intptr_t nDims,
    const MlirAttribute *dimShardings, intptr_t nReplicated,
    const MlirAttribute *replicatedAxes, intptr_t nUnreduced,
    const MlirAttribute *unreducedAxes) {
  MLIRContext *context = unwrap(ctx);
  SmallVector<DimensionShardingAttr> dims;
  SmallVector<AxisRefAttr> replicated, unreduced;
  if (!unwrapList(nDims, dimShardings, dims) ||
      !unwrapList(nReplicated, replicatedAxes, replicated) ||
      !unwrapList(nUnreduced, unreducedAxes, unreduced)) {
    emitError(UnknownLoc::get(context))
        << "sharding parts must be dimension shardings and axis refs";
    return MlirAttribute{nullptr};
  }
  auto emitError = mlir::detail::getDefaultDiagnosticEmitFn(context);
  return wrap(TensorShardingAttr::getChecked(emitError, context,
                                             unwrap(meshOrRef),
                                             ArrayRef<DimensionShardingAttr>(dims),
                                             ArrayRef<AxisRefAttr>(replicated),
                                             ArrayRef<AxisRefAttr>(unreduced)));
}

MlirAttribute mlirSdyTensorShardingAttrGetMeshOrRef(MlirAttribute attr) {
  auto sharding = dyn_cast_or_null<TensorShardingAttr>(unwrap(attr));
  return wrap(sharding ? sharding.getMeshOrRef() : Attribute());
}

MlirAttribute mlirSdyTensorShardingPerValueAttrGet(
    MlirContext ctx, intptr_t n, const MlirAttribute *shardings) {
  return getList<TensorShardingAttr>(ctx, n, shardings, [&](auto list) {
    return TensorShardingPerValueAttr::get(unwrap(ctx), list);
  });
}

MlirAttribute mlirSdyManualAxesAttrGet(MlirContext ctx, intptr_t n,
                                       const MlirStringRef *names) {
  SmallVector<StringAttr> axes;
  for (intptr_t i = 0; i < n; ++i)
    axes.push_back(StringAttr::get(unwrap(ctx), unwrap(names[i])));
  return wrap(ManualAxesAttr::get(unwrap(ctx), axes));
}

//===----------------------------------------------------------------------===//
// Sharding rules
//===----------------------------------------------------------------------===//

MlirAttribute mlirSdyDimMappingAttrGet(MlirContext ctx, intptr_t n,
                                       const int64_t *factorIndices) {
  return wrap(DimMappingAttr::get(unwrap(ctx), ArrayRef(factorIndices, n)));
}

MlirAttribute mlirSdyTensorMappingAttrGet(MlirContext ctx, intptr_t n,
                                          const MlirAttribute *dimMappings) {
  return getList<DimMappingAttr>(ctx, n, dimMappings, [&](auto list) {
    return TensorMappingAttr::get(unwrap(ctx), list);
  });
}

MlirAttribute mlirSdyOpShardingRuleAttrGet(
    MlirContext ctx, intptr_t nFactors, const int64_t *factorSizes,
    intptr_t nOperands, const MlirAttribute *operandMappings,
    intptr_t nResults, const MlirAttribute *resultMappings,
    intptr_t nReduction, const int64_t *reductionFactors,
    intptr_t nNeedReplication, const int64_t *needReplicationFactors,
    intptr_t nPermutation, const int64_t *permutationFactors,
    intptr_t nBlocked, const int64_t *blockedPropagationFactors,
    bool isCustomRule) {
  MLIRContext *context = unwrap(ctx);
  SmallVector<TensorMappingAttr> operands, results;
  if (!unwrapList(nOperands, operandMappings, operands) ||
      !unwrapList(nResults, resultMappings, results)) {
    emitError(UnknownLoc::get(context))
        << "operand and result mappings must be tensor mappings";
    return MlirAttribute{nullptr};
  }
  auto emitError = mlir::detail::getDefaultDiagnosticEmitFn(context);
  return wrap(OpShardingRuleAttr::getChecked(
      emitError, context, ArrayRef(factorSizes, nFactors),
      ArrayRef<TensorMappingAttr>(operands),
      ArrayRef<TensorMappingAttr>(results),
      ArrayRef(reductionFactors, nReduction),
      ArrayRef(needReplicationFactors, nNeedReplication),
      ArrayRef(permutationFactors, nPermutation),
      ArrayRef(blockedPropagationFactors, nBlocked), isCustomRule));
}

bool mlirSdyOpShardingRuleAttrIsCustom(MlirAttribute attr) {
  auto rule = dyn_cast_or_null<OpShardingRuleAttr>(unwrap(attr));
  return rule && rule.getIsCustomRule();
}

//===----------------------------------------------------------------------===//
// Collective parameters and propagation edges
//===----------------------------------------------------------------------===//

MlirAttribute mlirSdyAllToAllParamAttrGet(MlirContext ctx, intptr_t nAxes,
                                          const MlirAttribute *axisRefs,
                                          int64_t srcDim, int64_t tgtDim) {
  return getList<AxisRefAttr>(ctx, nAxes, axisRefs, [&](auto list) {
    return AllToAllParamAttr::get(unwrap(ctx), list, srcDim, tgtDim);
  });
}

int64_t mlirSdyAllToAllParamAttrGetSrcDim(MlirAttribute attr) {
  auto param = dyn_cast_or_null<AllToAllParamAttr>(unwrap(attr));
  return param ? param.getSrcDim() : -1;
}

int64_t mlirSdyAllToAllParamAttrGetTgtDim(MlirAttribute attr) {
  auto param = dyn_cast_or_null<AllToAllParamAttr>(unwrap(attr));
  return param ? param.getTgtDim() : -1;
}

MlirAttribute mlirSdyAllToAllParamListAttrGet(MlirContext ctx, intptr_t n,
                                              const MlirAttribute *params) {
  return getList<AllToAllParamAttr>(ctx, n, params, [&](auto list) {
    return AllToAllParamListAttr::get(unwrap(ctx), list);
  });
}

MlirAttribute mlirSdyEdgeValueRefAttrGet(MlirContext ctx, int32_t type,
                                         int64_t index) {
  std::optional<EdgeNodeType> kind = symbolizeEdgeNodeType(type);
  if (!kind)
    return MlirAttribute{nullptr};
  return wrap(EdgeValueRefAttr::get(unwrap(ctx), *kind, index));
}

int32_t mlirSdyEdgeValueRefAttrGetType(MlirAttribute attr) {
  auto ref = dyn_cast_or_null<EdgeValueRefAttr>(unwrap(attr));
  return ref ? static_cast<int32_t>(ref.getType()) : -1;
}

int64_t mlirSdyEdgeValueRefAttrGetIndex(MlirAttribute attr) {
  auto ref = dyn_cast_or_null<EdgeValueRefAttr>(unwrap(attr));
  return ref ? ref.getIndex() : -1;
}

MlirAttribute mlirSdyAxisToPropagationDetailsAttrGet(
    MlirContext ctx, MlirAttribute axisRef, MlirAttribute source, intptr_t n,
    const MlirAttribute *targets) {
  auto axis = dyn_cast_or_null<AxisRefAttr>(unwrap(axisRef));
  auto src = dyn_cast_or_null<EdgeValueRefAttr>(unwrap(source));
  if (!axis || !src)
    return MlirAttribute{nullptr};
  return getList<EdgeValueRefAttr>(ctx, n, targets, [&](auto list) {
    return AxisToPropagationDetailsAttr::get(unwrap(ctx), axis, src, list);
  });
}

MlirAttribute mlirSdyAxisToPropagationDetailsAttrGetAxis(MlirAttribute attr) {
  auto details = dyn_cast_or_null<AxisToPropagationDetailsAttr>(unwrap(attr));
  return wrap(details ? Attribute(details.getAxisName()) : Attribute());
}

MlirAttribute
mlirSdyAxisToPropagationDetailsAttrGetSource(MlirAttribute attr) {
  auto details = dyn_cast_or_null<AxisToPropagationDetailsAttr>(unwrap(attr));
  return wrap(details ? Attribute(details.getSource()) : Attribute());
}

MlirAttribute mlirSdyPropagationOneStepAttrGet(MlirContext ctx,
                                               int64_t stepIndex, intptr_t n,
                                               const MlirAttribute *entries) {
  return getList<AxisToPropagationDetailsAttr>(ctx, n, entries, [&](auto l) {
    return PropagationOneStepAttr::get(unwrap(ctx), stepIndex, l);
  });
}

int64_t mlirSdyPropagationOneStepAttrGetStepIndex(MlirAttribute attr) {
  auto step = dyn_cast_or_null<PropagationOneStepAttr>(unwrap(attr));
  return step ? step.getStepIndex() : -1;
}

MlirAttribute mlirSdyPropagationEdgesAttrGet(MlirContext ctx, intptr_t n,
                                             const MlirAttribute *steps) {
  return getList<PropagationOneStepAttr>(ctx, n, steps, [&](auto list) {
    return PropagationEdgesAttr::get(unwrap(ctx), list);
  });
}

//===----------------------------------------------------------------------===//
// Generic list access
//===----------------------------------------------------------------------===//

/// The attribute list `field` of `attr` as attributes; false if none.
static bool getAttrList(Attribute attr, int field,
                        SmallVectorImpl<Attribute> &out) {
  auto take = [&](auto range) {
    for (auto elem : range)
      out.push_back(elem);
    return true;
  };
  if (auto a = dyn_cast_or_null<AxisRefListAttr>(attr))
    return field == 0 && take(a.getValue());
  if (auto a = dyn_cast_or_null<ListOfAxisRefListsAttr>(attr))
    return field == 0 && take(a.getValue());
  if (auto a = dyn_cast_or_null<TensorShardingPerValueAttr>(attr))
    return field == 0 && take(a.getShardings());
  if (auto a = dyn_cast_or_null<ManualAxesAttr>(attr))
    return field == 0 && take(a.getValue());
  if (auto a = dyn_cast_or_null<TensorMappingAttr>(attr))
    return field == 0 && take(a.getDimMappings());
  if (auto a = dyn_cast_or_null<AllToAllParamListAttr>(attr))
    return field == 0 && take(a.getValue());
  if (auto a = dyn_cast_or_null<PropagationEdgesAttr>(attr))
    return field == 0 && take(a.getValue());
  if (auto a = dyn_cast_or_null<DimensionShardingAttr>(attr))
    return field == 0 && take(a.getAxes());
  if (auto a = dyn_cast_or_null<AllToAllParamAttr>(attr))
    return field == 0 && take(a.getAxes());
  if (auto a = dyn_cast_or_null<AxisToPropagationDetailsAttr>(attr))
    return field == 0 && take(a.getTargets());
  if (auto a = dyn_cast_or_null<PropagationOneStepAttr>(attr))
    return field == 0 && take(a.getAxisEntries());
  if (auto a = dyn_cast_or_null<TensorShardingAttr>(attr)) {
    switch (field) {
    case 0:
      return take(a.getDimShardings());
    case 1:
      return take(a.getReplicatedAxes());
    case 2:
      return take(a.getUnreducedAxes());
    default:
      return false;
    }
  }
  if (auto a = dyn_cast_or_null<OpShardingRuleAttr>(attr)) {
    if (field == 0)
      return take(a.getOperandMappings());
    if (field == 1)
      return take(a.getResultMappings());
  }
  return false;
}

intptr_t mlirSdyAttrGetListSize(MlirAttribute attr, int field) {
  SmallVector<Attribute> list;
  return getAttrList(unwrap(attr), field, list) ? list.size() : -1;
}

MlirAttribute mlirSdyAttrGetListElement(MlirAttribute attr, int field,
                                        intptr_t pos) {
  SmallVector<Attribute> list;
  if (!getAttrList(unwrap(attr), field, list) || pos < 0 ||
      pos >= static_cast<intptr_t>(list.size()))
    return MlirAttribute{nullptr};
  return wrap(list[pos]);
}

/// The integer list `field` of `attr`; false if none.
static bool getIntList(Attribute attr, int field, ArrayRef<int64_t> &out) {
  if (auto a = dyn_cast_or_null<DimMappingAttr>(attr)) {
    out = a.getFactorIndices();
    return field == 0;
  }
  auto rule = dyn_cast_or_null<OpShardingRuleAttr>(attr);
  if (!rule)
    return false;
  switch (field) {
  case 0:
    out = rule.getFactorSizes();
    return true;
  case 1:
    out = rule.getReductionFactors();
    return true;
  case 2:
    out = rule.getNeedReplicationFactors();
    return true;
  case 3:
    out = rule.getPermutationFactors();
    return true;
  case 4:
    out = rule.getBlockedPropagationFactors();
    return true;
  default:
    return false;
  }
}

intptr_t mlirSdyAttrGetIntListSize(MlirAttribute attr, int field) {
  ArrayRef<int64_t> list;
  return getIntList(unwrap(attr), field, list) ? list.size() : -1;
}

int64_t mlirSdyAttrGetIntListElement(MlirAttribute attr, int field,
                                     intptr_t pos) {
  ArrayRef<int64_t> list;
  if (!getIntList(unwrap(attr), field, list) || pos < 0 ||
      pos >= static_cast<intptr_t>(list.size()))
    return 0;
  return list[pos];
}

//===----------------------------------------------------------------------===//
// Axis algebra
//===----------------------------------------------------------------------===//

namespace {
/// Both as axis refs, or nothing.
bool twoAxes(MlirAttribute a, MlirAttribute b, AxisRefAttr &x, AxisRefAttr &y) {
  x = dyn_cast_or_null<AxisRefAttr>(unwrap(a));
  y = dyn_cast_or_null<AxisRefAttr>(unwrap(b));
  return x && y;
}
} // namespace

bool mlirSdyAxisRefsOverlap(MlirAttribute a, MlirAttribute b) {
  AxisRefAttr x, y;
  return twoAxes(a, b, x, y) && overlaps(x, y);
}

bool mlirSdyAxisRefContains(MlirAttribute a, MlirAttribute b) {
  AxisRefAttr x, y;
  return twoAxes(a, b, x, y) && contains(x, y);
}

bool mlirSdyAxisRefIsPrefixOf(MlirAttribute a, MlirAttribute b) {
  AxisRefAttr x, y;
  return twoAxes(a, b, x, y) && isPrefixOf(x, y);
}

bool mlirSdyAxisRefsCanMerge(MlirAttribute a, MlirAttribute b) {
  AxisRefAttr x, y;
  return twoAxes(a, b, x, y) && canMerge(x, y);
}

MlirAttribute mlirSdyAxisRefsMerge(MlirAttribute a, MlirAttribute b,
                                   MlirAttribute mesh) {
  AxisRefAttr x, y;
  if (!twoAxes(a, b, x, y) || !canMerge(x, y))
    return MlirAttribute{nullptr};
  return wrap(merge(x, y, dyn_cast_or_null<MeshAttr>(unwrap(mesh))));
}

MlirAttribute mlirSdyAxisRefsGreatestCommonPrefix(MlirAttribute a,
                                                  MlirAttribute b) {
  AxisRefAttr x, y;
  if (!twoAxes(a, b, x, y))
    return MlirAttribute{nullptr};
  return wrap(Attribute(getGreatestCommonPrefix(x, y)));
}

MlirAttribute mlirSdyAxisRefPrefixWithoutOverlap(MlirAttribute a,
                                                 MlirAttribute b) {
  AxisRefAttr x, y;
  if (!twoAxes(a, b, x, y))
    return MlirAttribute{nullptr};
  return wrap(Attribute(getPrefixWithoutOverlap(x, y)));
}

bool mlirSdyAxisRefLessInMesh(MlirAttribute a, MlirAttribute b,
                              MlirAttribute mesh) {
  AxisRefAttr x, y;
  return twoAxes(a, b, x, y) &&
         lessInMesh(x, y, dyn_cast_or_null<MeshAttr>(unwrap(mesh)));
}

int64_t mlirSdyAxisRefsTotalSize(intptr_t n, const MlirAttribute *axes,
                                 MlirAttribute mesh) {
  SmallVector<AxisRefAttr> list;
  if (!unwrapList(n, axes, list))
    return -1;
  return getTotalSize(list, dyn_cast_or_null<MeshAttr>(unwrap(mesh)));
}

void mlirSdyGetLocalShape(intptr_t n, const int64_t *globalShape,
                          MlirAttribute sharding, MlirAttribute mesh,
                          int64_t *localShape) {
  auto s = dyn_cast_or_null<TensorShardingAttr>(unwrap(sharding));
  SmallVector<int64_t> local(ArrayRef(globalShape, n));
  if (s)
    local = getLocalShape(local, s, dyn_cast_or_null<MeshAttr>(unwrap(mesh)));
  llvm::copy(local, localShape);
}

bool mlirSdyTensorShardingsAreEquivalent(MlirAttribute a, MlirAttribute b) {
  return areEquivalent(dyn_cast_or_null<TensorShardingAttr>(unwrap(a)),
                       dyn_cast_or_null<TensorShardingAttr>(unwrap(b)));
}
