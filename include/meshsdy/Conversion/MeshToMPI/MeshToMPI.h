//===- MeshToMPI.h - mesh collectives to the mpi dialect --------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_MESHTOMPI_MESHTOMPI_H
#define MESHSDY_CONVERSION_MESHTOMPI_MESHTOMPI_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::meshsdy {
#define GEN_PASS_DECL_CONVERTMESHTOMPIPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_MESHTOMPI_MESHTOMPI_H
