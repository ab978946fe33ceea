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

/// The same fields as getBoundaryEntry writes them (MeshSharding's ==
/// equates differently written forms: partial axes in any order, zero
/// halos and none).
static bool sameFields(const MeshSharding &a, const MeshSharding &b) {
  if (!a || !b)
    return !a && !b;
  return a.getMeshAttr() == b.getMeshAttr() &&
         a.getSplitAxes() == b.getSplitAxes() &&
         a.getPartialAxes() == b.getPartialAxes() &&
         (a.getPartialAxes().empty() ||
          a.getPartialType() == b.getPartialType()) &&
         a.getStaticHaloSizes() == b.getStaticHaloSizes() &&
         a.getStaticShardedDimsOffsets() == b.getStaticShardedDimsOffsets();
}

DictionaryAttr BoundaryEntries::get(Type type, const MeshSharding &sharding) {
  auto &known = entries[type];
  for (const auto &[written, entry] : known)
    if (sameFields(written, sharding))
      return entry;
  DictionaryAttr entry = getBoundaryEntry(ctx, type, sharding);
  known.emplace_back(sharding, entry);
  return entry;
}
