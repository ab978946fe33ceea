//===- Pipelines.h - Shardy's import, propagation and export ----*- C++ -*-===//
//
// The pipelines a Shardy user runs, with Shardy's names and options:
//   sdy-import-pipeline       clean-up and the structure propagation needs
//   sdy-export-pipeline       back to a program a partitioner reads
//   sdy-propagation-pipeline  import + calls + user-priority propagation +
//                             export
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_PIPELINES_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_PIPELINES_H

#include "meshsdy/Support/PipelineStages.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::sdy {

/// Options of `sdy-import-pipeline`.
struct ImportPipelineOptions
    : public PassPipelineOptions<ImportPipelineOptions> {
  PassOptions::Option<bool> debugShardingOrigins{
      *this, "debug-sharding-origins",
      llvm::cl::desc("passed to sdy-apply-sharding-constraints"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> debugPropagationEdgeSharding{
      *this, "debug-propagation-edge-sharding",
      llvm::cl::desc("passed to sdy-apply-sharding-constraints"),
      llvm::cl::init(false)};
};

/// Options of `sdy-export-pipeline`.
struct ExportPipelineOptions
    : public PassPipelineOptions<ExportPipelineOptions> {
  PassOptions::Option<bool> keepShardingRules{
      *this, "keep-sharding-rules",
      llvm::cl::desc("keep the sharding rules written on ops"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> sinkDebugShardingOrigins{
      *this, "sink-debug-sharding-origins",
      llvm::cl::desc("keep the sharding origins propagation saved"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> sinkDebugPropagationEdgeSharding{
      *this, "sink-debug-propagation-edge-sharding",
      llvm::cl::desc("keep the propagation edges propagation saved"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> updateNonDivisibleInputOutputShardings{
      *this, "update-non-divisible-input-output-shardings",
      llvm::cl::desc("make function argument and result shardings divide "
                     "their dimensions"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> avoidExportForPartitioning{
      *this, "avoid-export-for-partitioning",
      llvm::cl::desc("keep sharding constraints, groups and barriers, so "
                     "that the module can be propagated again"),
      llvm::cl::init(false)};
};

/// Options of `sdy-propagation-pipeline`.
struct PropagationPipelineOptions
    : public PassPipelineOptions<PropagationPipelineOptions> {
  PassOptions::Option<bool> keepShardingRules{
      *this, "keep-sharding-rules",
      llvm::cl::desc("keep the sharding rules of the ops on them"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> moduleDumpDirectory{
      *this, "module-dump-directory",
      llvm::cl::desc("where sdy-user-priority-propagate writes the module "
                     "after each priority"),
      llvm::cl::init("")};
  PassOptions::Option<bool> conservativePropagation{
      *this, "conservative-propagation",
      llvm::cl::desc("propagate neither sub-axes, nor uneven axes, nor along "
                     "permutation factors"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> debugShardingOrigins{
      *this, "debug-sharding-origins",
      llvm::cl::desc("save and keep where each axis of each sharding came "
                     "from"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> debugPropagationEdgeSharding{
      *this, "debug-propagation-edge-sharding",
      llvm::cl::desc("save and keep through which operand or result each "
                     "axis reached each value"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> reportBarriers{
      *this, "report-barriers",
      llvm::cl::desc("a remark on each op without a sharding rule"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> updateNonDivisibleInputOutputShardings{
      *this, "update-non-divisible-input-output-shardings",
      llvm::cl::desc("make function argument and result shardings divide "
                     "their dimensions"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> avoidExportForPartitioning{
      *this, "avoid-export-for-partitioning",
      llvm::cl::desc("keep sharding constraints, groups and barriers, so "
                     "that the module can be propagated again"),
      llvm::cl::init(false)};
};

/// Adds the passes of `sdy-import-pipeline` to `pm`; with
/// `importFuncCalls`, also `sdy-import-func-calls` (as the propagation
/// pipeline does).
void addImportPipeline(OpPassManager &pm,
                       const ImportPipelineOptions &options,
                       bool importFuncCalls = false);
/// Adds the passes of `sdy-export-pipeline` to `pm`.
void addExportPipeline(OpPassManager &pm,
                       const ExportPipelineOptions &options);
/// The stages of `sdy-propagation-pipeline`: "import", "propagation"
/// (user-priority propagation, named computations exported), "export".
SmallVector<meshsdy::PipelineStage>
getPropagationPipelineStages(const PropagationPipelineOptions &options);

/// Adds the passes of `sdy-propagation-pipeline` to `pm`.
void addPropagationPipeline(OpPassManager &pm,
                            const PropagationPipelineOptions &options);

/// Registers the three pipelines.
void registerSdyPipelines();

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_PIPELINES_H
