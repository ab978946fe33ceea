//===- CarriedValues.h - Values scf ops carry across regions ----*- C++ -*-===//
//
// What propagation and partitioning agree on about scf.while: which whiles
// carry one value per position through all their places.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_CARRIEDVALUES_H
#define MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_CARRIEDVALUES_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::mesh {

/// Whether `loop`'s before-arguments carry its results (same count and
/// types). Then, at each position, the init, the before-argument, the
/// condition's argument, the result, the after-argument and the yielded value
/// are one value over time and share a sharding; another while runs whole.
inline bool carriesResults(scf::WhileOp loop) {
  return ValueRange(loop.getBeforeArguments()).getTypes() ==
         loop.getResultTypes();
}

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_CARRIEDVALUES_H
