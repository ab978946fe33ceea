//===- ReshardCost.h - bytes a reshard sends per device ---------*- C++ -*-===//
//
// The price of a reshard, for passes that choose between layouts: the
// collectives it becomes, priced by the ring model of mesh-cost-report
// (meshsdy/Dialect/Mesh/Transforms/CostModel.h).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_RESHARDCOST_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_RESHARDCOST_H

#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::sdy {

/// Bytes one device sends to reshard a tensor of `type` from the
/// per-dimension axes `from` to `to`: the axes a dimension keeps (its
/// common prefix) cost nothing; an axis it loses that `to` has on another
/// dimension (or later in this one) moves, one all_to_all over all moved
/// axes, if its new dimension is split evenly (else, as mesh-spmdization
/// does, it is gathered); an axis `to` lacks is gathered, one all_gather
/// over all of them; an axis only `to` has is sliced, for free. Both start
/// from the piece `from` gives. 0 for a dynamically shaped tensor.
double reshardBytes(RankedTensorType type,
                    ArrayRef<SmallVector<AxisRefAttr>> from,
                    ArrayRef<SmallVector<AxisRefAttr>> to, MeshAttr mesh);

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_RESHARDCOST_H
