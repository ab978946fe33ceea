//===- InGroupIndex.cpp - the device's index in its group, as IR ----------===//

#include "InGroupIndex.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::mesh;

Value mlir::mesh::buildInGroupIndex(OpBuilder &builder, Location loc,
                                    MeshOp mesh, ArrayRef<MeshAxis> meshAxes) {
  SmallVector<Type> indexTypes(meshAxes.size(), builder.getIndexType());
  auto coords = ProcessMultiIndexOp::create(
      builder, loc, indexTypes,
      FlatSymbolRefAttr::get(builder.getContext(), mesh.getSymName()),
      builder.getDenseI16ArrayAttr(meshAxes));
  Value index = arith::ConstantIndexOp::create(builder, loc, 0);
  for (auto [axis, coord] : llvm::zip(meshAxes, coords.getResults())) {
    Value size =
        arith::ConstantIndexOp::create(builder, loc, mesh.getShape()[axis]);
    index = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, index, size), coord);
  }
  return index;
}
