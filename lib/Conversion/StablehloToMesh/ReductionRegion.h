//===- ReductionRegion.h - a StableHLO reduction region ---------*- C++ -*-===//
//
// StableHLO's all_reduce and reduce_scatter say how to combine two values
// with a region: `^bb0(%a: tensor<f32>, %b: tensor<f32>)`, one op, return.
// The mesh dialect names the combination instead (`sum`, `max`, ...).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_CONVERSION_STABLEHLOTOMESH_REDUCTIONREGION_H
#define MESHSDY_LIB_CONVERSION_STABLEHLOTOMESH_REDUCTIONREGION_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"

#include <optional>

namespace mlir::meshsdy {

/// The reduction region `region` computes, or nullopt if it is not one
/// block of two arguments returning (through `stablehlo.return`) one op
/// that combines them:
/// - a StableHLO op: `stablehlo.add`, `multiply`, `maximum`, `minimum`,
///   `and`, `or`, `xor`;
/// - or what jaxlib's legalization makes of one: a `linalg.generic` of the
///   two arguments whose body yields one arith op of its two inputs
///   (`arith.addf`, `addi`, `mulf`, `muli`, `maximumf`, `maxnumf`, `maxsi`,
///   `minimumf`, `minnumf`, `minsi`, `andi`, `ori`, `xori`).
/// Unsigned max and min have no mesh reduction (mesh reductions compare
/// integers as signed).
std::optional<mesh::ReductionKind> matchReductionRegion(Region &region);

} // namespace mlir::meshsdy

#endif // MESHSDY_LIB_CONVERSION_STABLEHLOTOMESH_REDUCTIONREGION_H
