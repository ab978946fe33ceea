//===- SpmdizePipelines.h - from annotations to per-device code -*- C++ -*-===//
//
// The partitioning pipelines, written once as stages (see
// meshsdy/Support/PipelineStages.h): `mesh-spmdize-pipeline` for a mesh
// program, `sdy-spmdize-pipeline` for an sdy one. They sit with the
// conversions: they compose passes of every layer, down to convert-mesh-to-mpi.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_CONVERSION_SPMDIZEPIPELINES_H
#define MESHSDY_CONVERSION_SPMDIZEPIPELINES_H

#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"
#include "meshsdy/Support/PipelineStages.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::meshsdy {

/// How far a partitioning pipeline lowers the partitioned program.
enum class SpmdizeLowering {
  /// Keep the mesh collectives.
  None,
  /// Simplify the collectives, then lower all_slice and process indices to
  /// arith and tensor ops.
  Mesh,
  /// Simplify, then lower to the upstream mpi dialect (convert-mesh-to-mpi).
  MPI,
};

/// Options of `mesh-spmdize-pipeline` and `sdy-spmdize-pipeline`.
struct SpmdizePipelineOptions
    : public PassPipelineOptions<SpmdizePipelineOptions> {
  PassOptions::Option<mesh::TraversalOrder> traversal{
      *this, "traversal",
      llvm::cl::desc("traversal of mesh-sharding-propagation"),
      llvm::cl::init(mesh::TraversalOrder::ForwardBackward),
      llvm::cl::values(
          clEnumValN(mesh::TraversalOrder::Forward, "forward", "forward only"),
          clEnumValN(mesh::TraversalOrder::Backward, "backward",
                     "backward only"),
          clEnumValN(mesh::TraversalOrder::ForwardBackward, "forward-backward",
                     "forward, then backward"),
          clEnumValN(mesh::TraversalOrder::BackwardForward, "backward-forward",
                     "backward, then forward"))};
  PassOptions::Option<bool> debugShardingOrigins{
      *this, "debug-sharding-origins",
      llvm::cl::desc("locations naming where each propagated sharding came "
                     "from (see mesh-sharding-propagation)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> staged{
      *this, "staged",
      llvm::cl::desc("run the stages' passes as passes of the enclosing "
                     "pass manager (each verified, timed and printable on "
                     "its own) rather than inside one meshsdy-one-pass"),
      llvm::cl::init(false)};
  PassOptions::Option<SpmdizeLowering> lowerTo{
      *this, "lower-to", llvm::cl::desc("how far to lower the result"),
      llvm::cl::init(SpmdizeLowering::None),
      llvm::cl::values(
          clEnumValN(SpmdizeLowering::None, "none", "keep mesh collectives"),
          clEnumValN(SpmdizeLowering::Mesh, "mesh",
                     "simplify, lower all_slice and process indices"),
          clEnumValN(SpmdizeLowering::MPI, "mpi",
                     "simplify, lower to the mpi dialect"))};
};

/// The stages of `mesh-spmdize-pipeline`: "prepare"
/// (mesh-fold-reshapes-into-linalg), "propagation"
/// (mesh-module-sharding-propagation), "spmdization" (mesh-spmdization,
/// meshsdy-canonicalize, cse), "lowering" (empty for `lower-to=none`).
SmallVector<PipelineStage>
getMeshSpmdizeStages(const SpmdizePipelineOptions &options);

/// The stages of `sdy-spmdize-pipeline`: "prepare", "sdy-import",
/// "sdy-propagation", "sdy-export" (sdy-propagation-pipeline's three),
/// "sdy-to-mesh" (explicit reshards, reshards to collectives,
/// convert-sdy-to-mesh), then those of `mesh-spmdize-pipeline` after
/// "prepare", with "propagation" empty unless debug-sharding-origins asks
/// for its locations (the bridge annotated every value already).
SmallVector<PipelineStage>
getSdySpmdizeStages(const SpmdizePipelineOptions &options);

/// The stages of the registered pipeline `name` (one of the two above, or
/// `sdy-propagation-pipeline`) with the textual `options`, as pass texts;
/// fails with a message in `error` for an unknown name or bad options.
FailureOr<SmallVector<PipelineStageText>>
getPipelineStageTexts(StringRef name, StringRef options, std::string &error);

/// Registers `mesh-spmdize-pipeline` and `sdy-spmdize-pipeline` (and
/// `meshsdy-canonicalize`, which they run).
void registerSpmdizePipelines();

/// `meshsdy-canonicalize`: upstream's canonicalize (same patterns, its
/// default settings) that preserves all analyses when it changes nothing,
/// so that the pass manager does not verify again after it.
std::unique_ptr<Pass> createQuietCanonicalizePass();
/// The same, with its options `region-simplify` and `infer-static-shapes`.
std::unique_ptr<Pass> createQuietCanonicalizePass(bool regionSimplify,
                                                  bool inferStaticShapes);
void registerQuietCanonicalizePass();

/// `meshsdy-one-pass`: runs `pipeline` (anchored on builtin.module) as one
/// pass, verified once after it rather than after each of its passes
/// (lib/Conversion/Pipelines/OnePass.cpp).
std::unique_ptr<Pass> createOnePass(OpPassManager pipeline);
void registerOnePass();

/// Upstream's loop-invariant code motion, preserving all analyses when it
/// moves nothing (lib/Conversion/Pipelines/QuietHoist.cpp).
std::unique_ptr<Pass> createQuietHoistPass();
void registerQuietHoistPass();

/// `meshsdy-cse`: upstream's CSE everywhere but inside linalg ops' bodies,
/// which partitioning never writes twice (lib/Conversion/Pipelines/
/// BodylessCSE.cpp).
std::unique_ptr<Pass> createBodylessCSEPass();
void registerBodylessCSEPass();

} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_SPMDIZEPIPELINES_H
