/*===- SdyAttributes.h - C API for sdy attributes -----------------*- C -*-===*/
/*
 * Builders return a null attribute (check with mlirAttributeIsNull) when the
 * arguments violate the attribute's constraints; the reason is reported as an
 * error diagnostic on the context.
 */

#ifndef MESHSDY_C_SDYATTRIBUTES_H
#define MESHSDY_C_SDYATTRIBUTES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/*---- MeshAxisAttr ---------------------------------------------------------*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsASdyMeshAxisAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirTypeID mlirSdyMeshAxisAttrGetTypeID(void);
/// Not checked on its own: a MeshAttr checks its axes (non-empty name,
/// positive size).
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyMeshAxisAttrGet(MlirContext ctx,
                                                        MlirStringRef name,
                                                        int64_t size);
MLIR_CAPI_EXPORTED MlirStringRef mlirSdyMeshAxisAttrGetName(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirSdyMeshAxisAttrGetSize(MlirAttribute attr);

/*---- MeshAttr -------------------------------------------------------------*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsASdyMeshAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirTypeID mlirSdyMeshAttrGetTypeID(void);
/// `axes` must hold MeshAxisAttr values; any other attribute yields null.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyMeshAttrGet(MlirContext ctx,
                                                    intptr_t nAxes,
                                                    const MlirAttribute *axes,
                                                    intptr_t nDeviceIds,
                                                    const int64_t *deviceIds);
MLIR_CAPI_EXPORTED intptr_t mlirSdyMeshAttrGetNumAxes(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyMeshAttrGetAxis(MlirAttribute attr,
                                                        intptr_t pos);
MLIR_CAPI_EXPORTED intptr_t mlirSdyMeshAttrGetNumDeviceIds(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirSdyMeshAttrGetDeviceId(MlirAttribute attr,
                                                      intptr_t pos);


/*---- Common ---------------------------------------------------------------*/
/* For every attribute kind K below: mlirAttributeIsASdyK(attr) and
 * mlirSdyKGetTypeID(). List accessors take an index in [0, size). */

#define MESHSDY_DECLARE_SDY_ATTR_KIND(K)                                        \
  MLIR_CAPI_EXPORTED bool mlirAttributeIsASdy##K(MlirAttribute attr);          \
  MLIR_CAPI_EXPORTED MlirTypeID mlirSdy##K##GetTypeID(void);

MESHSDY_DECLARE_SDY_ATTR_KIND(SubAxisInfoAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(AxisRefAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(AxisRefListAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(ListOfAxisRefListsAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(DimensionShardingAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(TensorShardingAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(TensorShardingPerValueAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(ManualAxesAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(DimMappingAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(TensorMappingAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(OpShardingRuleAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(AllToAllParamAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(AllToAllParamListAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(EdgeValueRefAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(AxisToPropagationDetailsAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(PropagationOneStepAttr)
MESHSDY_DECLARE_SDY_ATTR_KIND(PropagationEdgesAttr)

/*---- Axis refs ------------------------------------------------------------*/

/// `(preSize)size`; checked against a mesh where it is used.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdySubAxisInfoAttrGet(MlirContext ctx,
                                                           int64_t preSize,
                                                           int64_t size);
MLIR_CAPI_EXPORTED int64_t mlirSdySubAxisInfoAttrGetPreSize(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirSdySubAxisInfoAttrGetSize(MlirAttribute attr);

/// `subAxisInfo` may be null (a full axis); otherwise a SubAxisInfoAttr.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyAxisRefAttrGet(
    MlirContext ctx, MlirStringRef name, MlirAttribute subAxisInfo);
MLIR_CAPI_EXPORTED MlirStringRef mlirSdyAxisRefAttrGetName(MlirAttribute attr);
/// Null for a full axis.
MLIR_CAPI_EXPORTED MlirAttribute
mlirSdyAxisRefAttrGetSubAxisInfo(MlirAttribute attr);

/// Lists of attributes: `elems` must all be of the element kind, else null.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyAxisRefListAttrGet(
    MlirContext ctx, intptr_t n, const MlirAttribute *axisRefs);
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyListOfAxisRefListsAttrGet(
    MlirContext ctx, intptr_t n, const MlirAttribute *axisRefLists);

/*---- Shardings ------------------------------------------------------------*/

/// `hasPriority` false means no priority.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyDimensionShardingAttrGet(
    MlirContext ctx, intptr_t nAxes, const MlirAttribute *axisRefs,
    bool isClosed, bool hasPriority, int64_t priority);
MLIR_CAPI_EXPORTED bool
mlirSdyDimensionShardingAttrGetIsClosed(MlirAttribute attr);
MLIR_CAPI_EXPORTED bool
mlirSdyDimensionShardingAttrHasPriority(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
mlirSdyDimensionShardingAttrGetPriority(MlirAttribute attr);

/// `meshOrRef` is a MeshAttr or a FlatSymbolRefAttr. Null (with an error on
/// the context) when the attribute-local constraints fail.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyTensorShardingAttrGet(
    MlirContext ctx, MlirAttribute meshOrRef, intptr_t nDims,
    const MlirAttribute *dimShardings, intptr_t nReplicated,
    const MlirAttribute *replicatedAxes, intptr_t nUnreduced,
    const MlirAttribute *unreducedAxes);
MLIR_CAPI_EXPORTED MlirAttribute
mlirSdyTensorShardingAttrGetMeshOrRef(MlirAttribute attr);

MLIR_CAPI_EXPORTED MlirAttribute mlirSdyTensorShardingPerValueAttrGet(
    MlirContext ctx, intptr_t n, const MlirAttribute *shardings);

MLIR_CAPI_EXPORTED MlirAttribute mlirSdyManualAxesAttrGet(
    MlirContext ctx, intptr_t n, const MlirStringRef *names);

/*---- Sharding rules -------------------------------------------------------*/

MLIR_CAPI_EXPORTED MlirAttribute mlirSdyDimMappingAttrGet(
    MlirContext ctx, intptr_t n, const int64_t *factorIndices);
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyTensorMappingAttrGet(
    MlirContext ctx, intptr_t n, const MlirAttribute *dimMappings);

/// Null (with an error on the context) when the rule's own constraints fail.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyOpShardingRuleAttrGet(
    MlirContext ctx, intptr_t nFactors, const int64_t *factorSizes,
    intptr_t nOperands, const MlirAttribute *operandMappings,
    intptr_t nResults, const MlirAttribute *resultMappings,
    intptr_t nReduction, const int64_t *reductionFactors,
    intptr_t nNeedReplication, const int64_t *needReplicationFactors,
    intptr_t nPermutation, const int64_t *permutationFactors,
    intptr_t nBlocked, const int64_t *blockedPropagationFactors,
    bool isCustomRule);
MLIR_CAPI_EXPORTED bool
mlirSdyOpShardingRuleAttrIsCustom(MlirAttribute attr);

/*---- Collective parameters and propagation edges --------------------------*/

MLIR_CAPI_EXPORTED MlirAttribute mlirSdyAllToAllParamAttrGet(
    MlirContext ctx, intptr_t nAxes, const MlirAttribute *axisRefs,
    int64_t srcDim, int64_t tgtDim);
MLIR_CAPI_EXPORTED int64_t mlirSdyAllToAllParamAttrGetSrcDim(MlirAttribute a);
MLIR_CAPI_EXPORTED int64_t mlirSdyAllToAllParamAttrGetTgtDim(MlirAttribute a);
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyAllToAllParamListAttrGet(
    MlirContext ctx, intptr_t n, const MlirAttribute *params);

/// `type` is 0 (operand) or 1 (result); anything else yields null.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyEdgeValueRefAttrGet(MlirContext ctx,
                                                            int32_t type,
                                                            int64_t index);
MLIR_CAPI_EXPORTED int32_t mlirSdyEdgeValueRefAttrGetType(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirSdyEdgeValueRefAttrGetIndex(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyAxisToPropagationDetailsAttrGet(
    MlirContext ctx, MlirAttribute axisRef, MlirAttribute source, intptr_t n,
    const MlirAttribute *targets);
MLIR_CAPI_EXPORTED MlirAttribute
mlirSdyAxisToPropagationDetailsAttrGetAxis(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute
mlirSdyAxisToPropagationDetailsAttrGetSource(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyPropagationOneStepAttrGet(
    MlirContext ctx, int64_t stepIndex, intptr_t n,
    const MlirAttribute *axisEntries);
MLIR_CAPI_EXPORTED int64_t
mlirSdyPropagationOneStepAttrGetStepIndex(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyPropagationEdgesAttrGet(
    MlirContext ctx, intptr_t n, const MlirAttribute *steps);

/*---- Generic list access ----------------------------------------------------*/

/// The lists held by sdy attributes, selected by `field`:
///   0: the main list (AxisRefList, ListOfAxisRefLists, TensorShardingPerValue,
///      ManualAxes (StringAttrs), TensorMapping, AllToAllParamList,
///      PropagationEdges, DimensionSharding axes, AllToAllParam axes,
///      AxisToPropagationDetails targets, PropagationOneStep entries,
///      TensorSharding dim shardings, OpShardingRule operand mappings)
///   1: TensorSharding replicated axes, OpShardingRule result mappings
///   2: TensorSharding unreduced axes
/// Returns -1 if `attr` has no such list.
MLIR_CAPI_EXPORTED intptr_t mlirSdyAttrGetListSize(MlirAttribute attr,
                                                   int field);
/// Element `pos` of that list (null if out of range).
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyAttrGetListElement(MlirAttribute attr,
                                                           int field,
                                                           intptr_t pos);
/// Integer lists, selected by `field`:
///   0: DimMapping factor indices, OpShardingRule factor sizes
///   1..4: OpShardingRule reduction, need_replication, permutation,
///         blocked_propagation factors
/// Returns -1 if `attr` has no such list.
MLIR_CAPI_EXPORTED intptr_t mlirSdyAttrGetIntListSize(MlirAttribute attr,
                                                      int field);
MLIR_CAPI_EXPORTED int64_t mlirSdyAttrGetIntListElement(MlirAttribute attr,
                                                        int field,
                                                        intptr_t pos);

/*---- Axis algebra (see meshsdy/Dialect/Sdy/IR/AxisRefs.h) -----------------*/

MLIR_CAPI_EXPORTED bool mlirSdyAxisRefsOverlap(MlirAttribute a,
                                               MlirAttribute b);
MLIR_CAPI_EXPORTED bool mlirSdyAxisRefContains(MlirAttribute a,
                                               MlirAttribute b);
MLIR_CAPI_EXPORTED bool mlirSdyAxisRefIsPrefixOf(MlirAttribute a,
                                                 MlirAttribute b);
MLIR_CAPI_EXPORTED bool mlirSdyAxisRefsCanMerge(MlirAttribute a,
                                                MlirAttribute b);
/// Null unless mlirSdyAxisRefsCanMerge(a, b).
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyAxisRefsMerge(MlirAttribute a,
                                                      MlirAttribute b,
                                                      MlirAttribute mesh);
/// Null if there is none.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyAxisRefsGreatestCommonPrefix(
    MlirAttribute a, MlirAttribute b);
/// Null if there is none.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyAxisRefPrefixWithoutOverlap(
    MlirAttribute a, MlirAttribute b);
MLIR_CAPI_EXPORTED bool mlirSdyAxisRefLessInMesh(MlirAttribute a,
                                                 MlirAttribute b,
                                                 MlirAttribute mesh);
/// The product of the sizes of `n` axis refs in `mesh`.
MLIR_CAPI_EXPORTED int64_t mlirSdyAxisRefsTotalSize(intptr_t n,
                                                    const MlirAttribute *axes,
                                                    MlirAttribute mesh);
/// Writes the local shape of `globalShape` (rank `n`) under `sharding` on
/// `mesh` into `localShape`.
MLIR_CAPI_EXPORTED void mlirSdyGetLocalShape(intptr_t n,
                                             const int64_t *globalShape,
                                             MlirAttribute sharding,
                                             MlirAttribute mesh,
                                             int64_t *localShape);
MLIR_CAPI_EXPORTED bool mlirSdyTensorShardingsAreEquivalent(MlirAttribute a,
                                                            MlirAttribute b);

/*---- Value shardings and data flow edges ----------------------------------*/

/// The sharding of `value` (see meshsdy/Dialect/Sdy/IR/ValueShardings.h), or
/// null if it has none.
MLIR_CAPI_EXPORTED MlirAttribute mlirSdyValueGetSharding(MlirValue value);
/// Whether `op` implements ShardableDataFlowOpInterface.
MLIR_CAPI_EXPORTED bool mlirSdyOpIsShardableDataFlowOp(MlirOperation op);
/// ShardableDataFlowOpInterface::getEdgeOwnerFromTarget (null value if `op`
/// has no such interface or `target` is no target of it).
MLIR_CAPI_EXPORTED MlirValue mlirSdyDataFlowEdgeOwnerFromTarget(
    MlirOperation op, MlirValue target);
/// ShardableDataFlowOpInterface::getEdgeOwnerFromSource for operand
/// `operandNumber` of `user` (null value if none).
MLIR_CAPI_EXPORTED MlirValue mlirSdyDataFlowEdgeOwnerFromSource(
    MlirOperation op, MlirOperation user, intptr_t operandNumber);
/// The number of sources of the edge owned by `owner` (-1 if `op` has no
/// ShardableDataFlowOpInterface).
MLIR_CAPI_EXPORTED intptr_t mlirSdyDataFlowEdgeNumSources(MlirOperation op,
                                                          MlirValue owner);
/// The value of source `pos` of the edge owned by `owner` (null if none).
MLIR_CAPI_EXPORTED MlirValue mlirSdyDataFlowEdgeGetSource(MlirOperation op,
                                                          MlirValue owner,
                                                          intptr_t pos);

#ifdef __cplusplus
}
#endif

#endif /* MESHSDY_C_SDYATTRIBUTES_H */
