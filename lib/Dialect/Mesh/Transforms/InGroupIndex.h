//===- InGroupIndex.h - the device's index in its group, as IR --*- C++ -*-===//

#ifndef MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_INGROUPINDEX_H
#define MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_INGROUPINDEX_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::mesh {

/// Emits the running device's index inside its group over `meshAxes`:
/// row-major over the axes in the listed order (outer first), from
/// `mesh.process_multi_index`. `mesh` must have static sizes on those axes.
Value buildInGroupIndex(OpBuilder &builder, Location loc, MeshOp mesh,
                        ArrayRef<MeshAxis> meshAxes);

} // namespace mlir::mesh

#endif // MESHSDY_LIB_DIALECT_MESH_TRANSFORMS_INGROUPINDEX_H
