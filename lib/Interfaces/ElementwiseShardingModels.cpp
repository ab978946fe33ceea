//===- ElementwiseShardingModels.cpp - ShardingInterface for arith/math ---===//
//
// An elementwise op on tensors is a parallel loop nest with identity maps;
// its scalar operands (allowed by ElementwiseMappable) have empty maps.
// The model is attached at run time to every registered arith and math op
// with the Elementwise trait, and checks the op's types when asked.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// Rank of the op's tensor results, or -1 if they are not all ranked
/// tensors of one static shape.
int64_t elementwiseRank(Operation *op) {
  if (op->getNumResults() == 0)
    return -1;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type)
    return -1;
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (tensor && tensor.getShape() != type.getShape())
      return -1;
    if (!tensor && isa<ShapedType>(t))
      return -1;
  }
  return type.getRank();
}

struct ElementwiseShardingModel
    : ShardingInterface::FallbackModel<ElementwiseShardingModel> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    int64_t rank = elementwiseRank(op);
    return SmallVector<utils::IteratorType>(std::max<int64_t>(rank, 0),
                                            utils::IteratorType::parallel);
  }

  SmallVector<ReductionKind> getReductionLoopIteratorKinds(Operation *) const {
    return {};
  }

  /// Elementwise ops have no regions.
  bool canReadWholeTensorsFromAbove(Operation *) const { return false; }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    int64_t rank = elementwiseRank(op);
    if (rank < 0)
      return {}; // Not on tensors: propagation leaves the op alone.
    MLIRContext *ctx = op->getContext();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap scalar = AffineMap::get(rank, 0, ctx);
    SmallVector<AffineMap> maps;
    for (Type type : op->getOperandTypes())
      maps.push_back(isa<RankedTensorType>(type) ? identity : scalar);
    maps.append(op->getNumResults(), identity);
    return maps;
  }

  LogicalResult spmdize(Operation *op, ArrayRef<Value> localOperands,
                        ArrayRef<MeshSharding>,
                        ArrayRef<MeshSharding> resultShardings,
                        IRMapping &mapping,
                        SymbolTableCollection &symbolTables,
                        OpBuilder &builder) const {
    return mesh::detail::spmdizeByCloning(op, localOperands, resultShardings,
                                          mapping, symbolTables, builder,
                                          /*allowUneven=*/true);
  }
};

/// A user's mesh.all_reduce (in a manual region) is elementwise over the
/// axes it does not reduce: the devices of a group hold the same piece of a
/// tensor split over other axes, and sum it. Split over a reduced axis,
/// the devices would hold different pieces: refused.
struct AllReduceShardingModel
    : ShardingInterface::FallbackModel<AllReduceShardingModel> {
  ElementwiseShardingModel elementwise;
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return elementwise.getLoopIteratorTypes(op);
  }
  SmallVector<ReductionKind> getReductionLoopIteratorKinds(Operation *) const {
    return {};
  }
  bool canReadWholeTensorsFromAbove(Operation *) const { return false; }
  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    return elementwise.getIndexingMaps(op);
  }
  LogicalResult spmdize(Operation *op, ArrayRef<Value> localOperands,
                        ArrayRef<MeshSharding> operandShardings,
                        ArrayRef<MeshSharding> resultShardings,
                        IRMapping &mapping,
                        SymbolTableCollection &symbolTables,
                        OpBuilder &builder) const {
    ArrayRef<MeshAxis> reduced = cast<mesh::AllReduceOp>(op).getMeshAxes();
    for (const MeshSharding &sharding :
         llvm::concat<const MeshSharding>(operandShardings, resultShardings))
      for (ArrayRef<MeshAxis> axes : sharding.getSplitAxes())
        for (MeshAxis axis : axes)
          if (llvm::is_contained(reduced, axis))
            return op->emitOpError("unsupported by mesh-spmdization: its "
                                   "operand split over mesh axis ")
                   << axis << ", which it reduces over";
    return mesh::detail::spmdizeByCloning(op, localOperands, resultShardings,
                                          mapping, symbolTables, builder,
                                          /*allowUneven=*/true);
  }
};

/// Attaches the model to every elementwise op of `dialect`.
void attachToElementwiseOps(MLIRContext *ctx, StringRef dialect) {
  // getRegisteredOperationsByDialect("math") came back empty when this
  // extension ran (MLIR 22.1.8, mesh-opt), so scan all registered ops.
  for (RegisteredOperationName name : ctx->getRegisteredOperations())
    if (name.getDialectNamespace() == dialect &&
        name.hasTrait<OpTrait::Elementwise>() &&
        !name.hasInterface<ShardingInterface>())
      name.attachInterface<ElementwiseShardingModel>();
}

} // namespace

void mlir::meshsdy::detail::registerElementwiseShardingModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    attachToElementwiseOps(ctx, arith::ArithDialect::getDialectNamespace());
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    attachToElementwiseOps(ctx, math::MathDialect::getDialectNamespace());
  });
  registry.addExtension(+[](MLIRContext *ctx, mesh::MeshDialect *) {
    mesh::AllReduceOp::attachInterface<AllReduceShardingModel>(*ctx);
  });
}
