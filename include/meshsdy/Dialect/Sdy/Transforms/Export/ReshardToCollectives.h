//===- ReshardToCollectives.h - reshards as sdy collectives -----*- C++ -*-===//
//
// The rewrite of sdy-reshard-to-collectives, for the passes that run it as
// their last step (sdy-insert-explicit-reshards{insert-collectives}).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_RESHARDTOCOLLECTIVES_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_RESHARDTOCOLLECTIVES_H

#include "mlir/IR/Operation.h"

namespace mlir::sdy {

/// Turns every sdy.reshard under `root` into the sdy collectives that take
/// its input's sharding to its own (see sdy-reshard-to-collectives); a
/// reshard that changes nothing is removed unless `keepRedundantReshards`.
void lowerReshardsToCollectives(Operation *root, bool keepRedundantReshards);

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_RESHARDTOCOLLECTIVES_H
