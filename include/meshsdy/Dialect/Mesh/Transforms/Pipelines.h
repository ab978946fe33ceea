//===- Pipelines.h - the SPMD partitioning pipeline -------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_MESH_TRANSFORMS_PIPELINES_H
#define MESHSDY_DIALECT_MESH_TRANSFORMS_PIPELINES_H

#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::mesh {

/// How far `mesh-spmdize-pipeline` lowers the partitioned program.
enum class SpmdizeLowering {
  /// Keep the mesh collectives.
  None,
  /// Simplify the collectives, then lower all_slice and process indices to
  /// arith and tensor ops.
  Mesh,
  /// Simplify, then lower to the upstream mpi dialect (convert-mesh-to-mpi).
  MPI,
};

/// Options of `mesh-spmdize-pipeline`.
struct SpmdizePipelineOptions
    : public PassPipelineOptions<SpmdizePipelineOptions> {
  PassOptions::Option<TraversalOrder> traversal{
      *this, "traversal",
      llvm::cl::desc("traversal of mesh-sharding-propagation"),
      llvm::cl::init(TraversalOrder::ForwardBackward),
      llvm::cl::values(
          clEnumValN(TraversalOrder::Forward, "forward", "forward only"),
          clEnumValN(TraversalOrder::Backward, "backward", "backward only"),
          clEnumValN(TraversalOrder::ForwardBackward, "forward-backward",
                     "forward, then backward"),
          clEnumValN(TraversalOrder::BackwardForward, "backward-forward",
                     "backward, then forward"))};
  PassOptions::Option<bool> debugShardingOrigins{
      *this, "debug-sharding-origins",
      llvm::cl::desc("locations naming where each propagated sharding came "
                     "from (see mesh-sharding-propagation)"),
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

/// The textual pipeline `mesh-spmdize-pipeline` runs for `options`
/// (meshsdy.pipeline.pipeline_string builds the same text in Python).
std::string getSpmdizePipelineText(const SpmdizePipelineOptions &options);

/// Registers `mesh-spmdize-pipeline`.
void registerSpmdizePipeline();

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_TRANSFORMS_PIPELINES_H
