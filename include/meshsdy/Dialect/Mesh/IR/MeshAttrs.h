//===- MeshAttrs.h - mesh dialect attributes and types ----------*- C++ -*-===//
//
// ReductionKind (`#mesh.partial<sum>`), MeshAxesArrayAttr
// (`#mesh.axisarray<[[0], []]>`) and the `!mesh.sharding` type.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_IR_MESHATTRS_H
#define MESHSDY_DIALECT_MESH_IR_MESHATTRS_H

#include "meshsdy/Dialect/Mesh/IR/MeshDialect.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"

#include <cstdint>

namespace mlir::mesh {
/// A mesh axis index, as stored in `mesh_axes` and `split_axes` (i16).
using MeshAxis = int16_t;
/// A list of mesh axes (`[1, 0]`).
using MeshAxesAttr = DenseI16ArrayAttr;
} // namespace mlir::mesh

#include "meshsdy/Dialect/Mesh/IR/MeshEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "meshsdy/Dialect/Mesh/IR/MeshAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "meshsdy/Dialect/Mesh/IR/MeshTypes.h.inc"

#endif // MESHSDY_DIALECT_MESH_IR_MESHATTRS_H
