//===- SdySpmdizePipeline.h - from sdy annotations to per-device code -*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_SDYTOMESH_SDYSPMDIZEPIPELINE_H
#define MESHSDY_CONVERSION_SDYTOMESH_SDYSPMDIZEPIPELINE_H

#include "meshsdy/Dialect/Mesh/Transforms/Pipelines.h"

namespace mlir::meshsdy {

/// The textual pipeline `sdy-spmdize-pipeline` runs for `options` (the
/// options of `mesh-spmdize-pipeline`; meshsdy.pipeline.spmdize builds the
/// same text in Python for a module with sdy shardings).
std::string
getSdySpmdizePipelineText(const mesh::SpmdizePipelineOptions &options);

/// Registers `sdy-spmdize-pipeline`.
void registerSdySpmdizePipeline();

} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_SDYTOMESH_SDYSPMDIZEPIPELINE_H
