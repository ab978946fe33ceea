/*===- Pipelines.h - C API for meshsdy's staged pipelines ---------*- C -*-===*/

#ifndef MESHSDY_C_PIPELINES_H
#define MESHSDY_C_PIPELINES_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Called once per stage with an empty `pass` (so that empty stages show),
/// then once per pass of the stage with its text.
typedef void (*MlirMeshsdyStageCallback)(MlirStringRef stage,
                                         MlirStringRef pass, void *userData);

/// Calls `callback` with the stages of the registered pipeline `name`
/// (`mesh-spmdize-pipeline`, `sdy-spmdize-pipeline`,
/// `sdy-propagation-pipeline`) for the textual `options`. On failure,
/// calls `onError` once with the message and returns failure.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirMeshsdyGetPipelineStages(
    MlirStringRef name, MlirStringRef options, MlirMeshsdyStageCallback callback,
    MlirStringCallback onError, void *userData);

#ifdef __cplusplus
}
#endif

#endif /* MESHSDY_C_PIPELINES_H */
