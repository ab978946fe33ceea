//===- FreeAfterLastUse.h - free buffers early ------------------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_FREEAFTERLASTUSE_FREEAFTERLASTUSE_H
#define MESHSDY_CONVERSION_FREEAFTERLASTUSE_FREEAFTERLASTUSE_H

#include "mlir/Pass/Pass.h"

namespace mlir::meshsdy {
#define GEN_PASS_DECL_FREEAFTERLASTUSEPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_FREEAFTERLASTUSE_FREEAFTERLASTUSE_H
