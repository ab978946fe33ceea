//===- MPIHelpers.h - shared pieces of the mesh-to-mpi patterns -*- C++ -*-===//

#ifndef MESHSDY_LIB_CONVERSION_MESHTOMPI_MPIHELPERS_H
#define MESHSDY_LIB_CONVERSION_MESHTOMPI_MPIHELPERS_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::meshsdy {

/// The communicator of the running device's group over `axes`: MPI_COMM_WORLD
/// split by the index of the group (row-major over the other axes), ranked
/// by the in-group index (row-major over `axes`, in their order).
Value buildGroupComm(OpBuilder &builder, Location loc, mesh::MeshOp mesh,
                     ArrayRef<mesh::MeshAxis> axes);

/// A 1-D view of the identity-layout buffer `buffer` (itself if 1-D): the
/// mpi-to-llvm lowering passes the size of a buffer's first dimension as
/// the element count.
Value flattenBuffer(OpBuilder &builder, Location loc, Value buffer);

/// all_gather and all_to_all as point-to-point transfers (send / recv) in a
/// loop over the group: a ring for all_gather ((g-1)*b bytes sent
/// per device), pairwise exchange for all_to_all ((g-1)/g*b).
void populatePointToPointCollectivePatterns(RewritePatternSet &patterns);

} // namespace mlir::meshsdy

#endif // MESHSDY_LIB_CONVERSION_MESHTOMPI_MPIHELPERS_H
