//===- WriteIntoDeadInputs.h - elementwise ops in place ---------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_WRITEINTODEADINPUTS_WRITEINTODEADINPUTS_H
#define MESHSDY_CONVERSION_WRITEINTODEADINPUTS_WRITEINTODEADINPUTS_H

#include "mlir/Pass/Pass.h"

namespace mlir::meshsdy {
#define GEN_PASS_DECL_WRITEINTODEADINPUTSPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_WRITEINTODEADINPUTS_WRITEINTODEADINPUTS_H
