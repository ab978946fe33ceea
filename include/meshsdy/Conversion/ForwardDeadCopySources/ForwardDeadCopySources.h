//===- ForwardDeadCopySources.h - copies from dead buffers ------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_FORWARDDEADCOPYSOURCES_FORWARDDEADCOPYSOURCES_H
#define MESHSDY_CONVERSION_FORWARDDEADCOPYSOURCES_FORWARDDEADCOPYSOURCES_H

#include "mlir/Pass/Pass.h"

namespace mlir::meshsdy {
#define GEN_PASS_DECL_FORWARDDEADCOPYSOURCESPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_FORWARDDEADCOPYSOURCES_FORWARDDEADCOPYSOURCES_H
