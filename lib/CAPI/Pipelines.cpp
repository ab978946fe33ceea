//===- Pipelines.cpp - C API for meshsdy's staged pipelines ---------------===//

#include "meshsdy-c/Pipelines.h"

#include "meshsdy/Conversion/SpmdizePipelines.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;

MlirLogicalResult mlirMeshsdyGetPipelineStages(MlirStringRef name,
                                               MlirStringRef options,
                                               MlirMeshsdyStageCallback callback,
                                               MlirStringCallback onError,
                                               void *userData) {
  std::string error;
  FailureOr<SmallVector<meshsdy::PipelineStageText>> stages =
      meshsdy::getPipelineStageTexts(unwrap(name), unwrap(options), error);
  if (failed(stages)) {
    onError(wrap(StringRef(error)), userData);
    return mlirLogicalResultFailure();
  }
  for (const meshsdy::PipelineStageText &stage : *stages) {
    callback(wrap(StringRef(stage.name)), wrap(StringRef()), userData);
    for (const std::string &pass : stage.passes)
      callback(wrap(StringRef(stage.name)), wrap(StringRef(pass)), userData);
  }
  return mlirLogicalResultSuccess();
}
