//===- ShardingInterface.td - how an op is sharded ---------*- tablegen -*-===//

#ifndef MESHSDY_DIALECT_MESH_INTERFACES_SHARDINGINTERFACE_TD
#define MESHSDY_DIALECT_MESH_INTERFACES_SHARDINGINTERFACE_TD

include "mlir/IR/OpBase.td"

def Mesh_ShardingInterface : OpInterface<"ShardingInterface"> {
  let cppNamespace = "::mlir::mesh";
  let description = [{
    Describes an op as a loop nest over an iteration space so that sharding
    propagation and SPMD partitioning can reason about it without knowing
    the op.

    Each loop is parallel or a reduction. Each ranked-tensor operand and
    result has an indexing map from the loops to its dimensions (operands
    first, then results). A tensor dimension whose map result is a single
    loop (`d2`) may be split over mesh axes: splitting the dimension is
    splitting the loop, so every other tensor indexed by that loop is split
    the same way. A dimension whose map result is anything else (a constant,
    a sum) stays replicated.

    Splitting a reduction loop over mesh axes makes each device compute a
    partial result, completed by a reduction of the loop's kind over those
    axes.

    Models for upstream ops are attached as external models
    (`registerShardingInterfaceExternalModels`), never in the mesh dialect.
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/"Parallel or reduction, for each loop of the iteration space.",
      /*retTy=*/"::llvm::SmallVector<::mlir::utils::IteratorType>",
      /*methodName=*/"getLoopIteratorTypes">,
    InterfaceMethod<
      /*desc=*/[{How each reduction loop combines values, in loop order
        (one entry per reduction loop). Defaults to `sum` for all of them.}],
      /*retTy=*/"::llvm::SmallVector<::mlir::mesh::ReductionKind>",
      /*methodName=*/"getReductionLoopIteratorKinds",
      /*args=*/(ins), /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return ::mlir::mesh::detail::defaultReductionKinds($_op);
      }]>,
    InterfaceMethod<
      /*desc=*/[{Indexing maps from the loops to the dimensions of each
        operand, then each result. An operand that is not a ranked tensor
        (a scalar) has a map with no results.}],
      /*retTy=*/"::llvm::SmallVector<::mlir::AffineMap>",
      /*methodName=*/"getIndexingMaps">,
    InterfaceMethod<
      /*desc=*/[{Whether the op may be partitioned as its loop nest while
        its regions read tensors defined above it (a gather's table, read by
        `tensor.extract %table[%id, %j]` in a linalg body). If so, the
        partitioner gives each device those tensors whole (gathering a
        sharded one first) and the clone reads them as the original does;
        a model answers true only if its regions then compute what the
        original's do (they see global positions). If not (the default),
        such an op runs on whole tensors.}],
      /*retTy=*/"bool",
      /*methodName=*/"canReadWholeTensorsFromAbove",
      /*args=*/(ins), /*methodBody=*/"",
      /*defaultImplementation=*/[{ return false; }]>,
    InterfaceMethod<
      /*desc=*/[{Rewrites the op for one device. `localOperands` are the
        operands already in their per-device form, sharded as
        `operandShardings`; the op must produce its results sharded as
        `resultShardings` (partial results included) and record them in
        `mapping`. The default clones the op with per-device result types,
        which is right for ops that compute each result element from the
        operand elements of the same loop indices.}],
      /*retTy=*/"::llvm::LogicalResult",
      /*methodName=*/"spmdize",
      /*args=*/(ins "::llvm::ArrayRef<::mlir::Value>":$localOperands,
                   "::llvm::ArrayRef<::mlir::mesh::MeshSharding>":$operandShardings,
                   "::llvm::ArrayRef<::mlir::mesh::MeshSharding>":$resultShardings,
                   "::mlir::IRMapping &":$mapping,
                   "::mlir::SymbolTableCollection &":$symbolTables,
                   "::mlir::OpBuilder &":$builder),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return ::mlir::mesh::detail::spmdizeByCloning(
            $_op, localOperands, resultShardings, mapping, symbolTables,
            builder);
      }]>,
  ];
}

#endif // MESHSDY_DIALECT_MESH_INTERFACES_SHARDINGINTERFACE_TD
