//===- SpmdizePipelines.cpp - from annotations to per-device code ---------===//
//
// mesh-spmdize-pipeline: mesh propagation decides every sharding, the
// partitioner rewrites each function into its per-device form, and the
// result is optionally lowered. sdy-spmdize-pipeline: Shardy's propagation
// decides every sharding, explicit reshards make each op locally computable
// and become collectives in the same pass, the bridge turns both into mesh
// annotations, and the mesh pipeline partitions. Mesh propagation is not
// run again there: every value the bridge annotates already holds what its
// users need, and mesh-spmdization derives each op's loops from its
// operands as held and its results as annotated (running it changed no
// partitioned program). After partitioning, loop-invariant ops leave their
// loops (meshsdy-loop-invariant-code-motion): a collective of a value a
// loop does not change runs once.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/SpmdizePipelines.h"

#include "meshsdy/Conversion/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Pipelines.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::meshsdy;

/// Reshapes around linalg ops become their loops, so that each merged
/// dimension keeps a sharding of its own (mesh-fold-reshapes-into-linalg);
/// tensors a body reads at its loop positions become operands
/// (mesh-fold-extracts-into-linalg).
static PipelineStage prepareStage() {
  return {"prepare", [](OpPassManager &pm) {
            pm.addNestedPass<func::FuncOp>(
                mesh::createMeshFoldReshapesIntoLinalg());
            pm.addNestedPass<func::FuncOp>(
                mesh::createMeshFoldExtractsIntoLinalg());
          }};
}

/// The mesh stages after "prepare".
static SmallVector<PipelineStage>
getMeshPartitionStages(const SpmdizePipelineOptions &options) {
  mesh::MeshModuleShardingPropagationOptions propagation;
  propagation.traversal = options.traversal;
  propagation.debugShardingOrigins = options.debugShardingOrigins;
  SpmdizeLowering lowerTo = options.lowerTo;
  return {
      {"propagation",
       [=](OpPassManager &pm) {
         pm.addPass(mesh::createMeshModuleShardingPropagation(propagation));
       }},
      {"spmdization",
       [](OpPassManager &pm) {
         // meshsdy-canonicalize: no verification after it when the
         // partitioned program is canonical already. Without region
         // simplification or static-shape inference where nothing is
         // dynamic: neither changed a partitioned lit program.
         pm.addNestedPass<func::FuncOp>(mesh::createMeshSpmdization());
         pm.addPass(createQuietCanonicalizePass(/*regionSimplify=*/false,
                                                /*inferStaticShapes=*/false));
         // A collective of a loop-invariant value (a weight re-laid in a
         // loop's body) runs once, before the loop; collectives are Pure.
         // After canonicalization, which folds what stood between the
         // value and its collective inside the body.
         pm.addNestedPass<func::FuncOp>(createQuietHoistPass());
         // What partitioning wrote twice (a collective, a process index,
         // an uneven piece's size); it writes no linalg body twice.
         pm.addPass(createBodylessCSEPass());
       }},
      {"lowering",
       [=](OpPassManager &pm) {
         if (lowerTo == SpmdizeLowering::None)
           return;
         pm.addNestedPass<func::FuncOp>(mesh::createMeshSimplify());
         if (lowerTo == SpmdizeLowering::Mesh) {
           pm.addNestedPass<func::FuncOp>(mesh::createMeshLowerAllSlice());
           pm.addNestedPass<func::FuncOp>(mesh::createMeshLowerProcessIndex());
           pm.addPass(createQuietCanonicalizePass());
           pm.addPass(createCSEPass());
           return;
         }
         pm.addPass(createConvertMeshToMPIPass());
         // No CSE after convert-mesh-to-mpi, a second guard: it reads each
         // collective's tensor where it stands (MPIHelpers.h copyInto); an
         // earlier lowering read through `bufferization.to_buffer`, which
         // CSE merged into a previous read whose buffer one-shot
         // bufferization had reused (a wrong answer: two all_gathers of one
         // value, the second gathering what an op in between wrote).
         pm.addPass(createQuietCanonicalizePass());
       }},
  };
}

SmallVector<PipelineStage>
mlir::meshsdy::getMeshSpmdizeStages(const SpmdizePipelineOptions &options) {
  SmallVector<PipelineStage> stages{prepareStage()};
  llvm::append_range(stages, getMeshPartitionStages(options));
  return stages;
}

SmallVector<PipelineStage>
mlir::meshsdy::getSdySpmdizeStages(const SpmdizePipelineOptions &options) {
  SmallVector<PipelineStage> stages{prepareStage()};
  for (PipelineStage &stage :
       sdy::getPropagationPipelineStages(sdy::PropagationPipelineOptions()))
    stages.push_back({"sdy-" + stage.name, std::move(stage.addPasses)});
  stages.push_back({"sdy-to-mesh", [](OpPassManager &pm) {
                      // sdy-insert-explicit-reshards then
                      // sdy-reshard-to-collectives, in one pass.
                      pm.addNestedPass<func::FuncOp>(
                          sdy::createInsertExplicitReshardsPass(
                              {/*insertCollectives=*/true}));
                      pm.addPass(createConvertSdyToMeshPass());
                      // Argmax-like reductions over split dimensions gather
                      // their partial results, not their operands.
                      pm.addNestedPass<func::FuncOp>(
                          mesh::createMeshGatherPartialReductions());
                    }});
  for (PipelineStage &stage : getMeshPartitionStages(options)) {
    // Kept, empty, so that the stage names are the same in both pipelines;
    // with debug-sharding-origins it runs, for the locations it writes.
    if (stage.name == "propagation" && !options.debugShardingOrigins)
      stage.addPasses = [](OpPassManager &) {};
    stages.push_back(std::move(stage));
  }
  return stages;
}

FailureOr<SmallVector<PipelineStageText>>
mlir::meshsdy::getPipelineStageTexts(StringRef name, StringRef options,
                                     std::string &error) {
  auto parsed = [&](auto parse) -> FailureOr<SmallVector<PipelineStageText>> {
    auto result = parse();
    if (!result) {
      error = ("bad options for " + name + ": '" + options + "'").str();
      return failure();
    }
    return std::move(*result);
  };
  if (name == "mesh-spmdize-pipeline" || name == "sdy-spmdize-pipeline") {
    bool sdy = name == "sdy-spmdize-pipeline";
    return parsed([&]() -> std::optional<SmallVector<PipelineStageText>> {
      auto opts = SpmdizePipelineOptions::createFromString(options);
      if (!opts)
        return std::nullopt;
      return getStageTexts(sdy ? getSdySpmdizeStages(*opts)
                               : getMeshSpmdizeStages(*opts));
    });
  }
  if (name == "sdy-propagation-pipeline")
    return parsed([&]() -> std::optional<SmallVector<PipelineStageText>> {
      auto opts = sdy::PropagationPipelineOptions::createFromString(options);
      if (!opts)
        return std::nullopt;
      return getStageTexts(sdy::getPropagationPipelineStages(*opts));
    });
  error = ("no staged pipeline named '" + name + "'").str();
  return failure();
}

/// The stages inside one meshsdy-one-pass (verified once, after the whole
/// partitioning), or as passes of `pm` with `staged`.
static void addStagesAsOnePass(OpPassManager &pm,
                               ArrayRef<PipelineStage> stages,
                               const SpmdizePipelineOptions &options) {
  if (options.staged)
    return addStages(pm, stages);
  OpPassManager inner(ModuleOp::getOperationName(),
                      OpPassManager::Nesting::Explicit);
  addStages(inner, stages);
  pm.addPass(createOnePass(std::move(inner)));
}

void mlir::meshsdy::registerSpmdizePipelines() {
  registerQuietCanonicalizePass();
  registerQuietHoistPass();
  registerBodylessCSEPass();
  registerOnePass();
  ModulePipelineRegistration<SpmdizePipelineOptions>(
      "mesh-spmdize-pipeline",
      "Propagate shardings and partition every function into its "
      "per-device form (mesh-module-sharding-propagation, mesh-spmdization, "
      "cleanups, optional lowerings)",
      [](OpPassManager &pm, const SpmdizePipelineOptions &options) {
        addStagesAsOnePass(pm, getMeshSpmdizeStages(options), options);
      });
  ModulePipelineRegistration<SpmdizePipelineOptions>(
      "sdy-spmdize-pipeline",
      "Partition an sdy-annotated program into its per-device form "
      "(sdy-propagation-pipeline, sdy-insert-explicit-reshards"
      "{insert-collectives}, convert-sdy-to-mesh, then "
      "mesh-spmdize-pipeline with the same options, without its "
      "propagation)",
      [](OpPassManager &pm, const SpmdizePipelineOptions &options) {
        addStagesAsOnePass(pm, getSdySpmdizeStages(options), options);
      });
}
