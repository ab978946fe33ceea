//===- Boundary.cpp - the sharding contract of a partitioned function ----===//

#include "Boundary.h"

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::mesh;

DictionaryAttr mlir::mesh::getBoundaryEntry(MLIRContext *ctx, Type type,
                                            const MeshSharding &sharding) {
  Builder builder(ctx);
  SmallVector<NamedAttribute> fields;
  if (!isa<RankedTensorType>(type))
    return builder.getDictionaryAttr(fields);
  fields.push_back(builder.getNamedAttr("global_type", TypeAttr::get(type)));
  if (!sharding)
    return builder.getDictionaryAttr(fields);
  fields.push_back(builder.getNamedAttr("mesh", sharding.getMeshAttr()));
  SmallVector<Attribute> split;
  for (const DimSplitAxes &axes : sharding.getSplitAxes())
    split.push_back(builder.getDenseI16ArrayAttr(axes));
  fields.push_back(builder.getNamedAttr("split_axes", builder.getArrayAttr(split)));
  if (!sharding.getPartialAxes().empty()) {
    fields.push_back(builder.getNamedAttr(
        "partial_axes", builder.getDenseI16ArrayAttr(sharding.getPartialAxes())));
    fields.push_back(builder.getNamedAttr(
        "partial_type",
        builder.getStringAttr(stringifyReductionKind(sharding.getPartialType()))));
  }
  if (!sharding.getStaticHaloSizes().empty())
    fields.push_back(builder.getNamedAttr(
        "halo_sizes", builder.getDenseI64ArrayAttr(sharding.getStaticHaloSizes())));
  if (!sharding.getStaticShardedDimsOffsets().empty())
    fields.push_back(builder.getNamedAttr(
        "sharded_dims_offsets",
        builder.getDenseI64ArrayAttr(sharding.getStaticShardedDimsOffsets())));
  return builder.getDictionaryAttr(fields);
}
