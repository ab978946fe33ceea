//===- SdyDialect.h - sdy dialect -------------------------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_SDY_IR_SDYDIALECT_H
#define MESHSDY_DIALECT_SDY_IR_SDYDIALECT_H

#include "mlir/IR/Dialect.h"

#include "meshsdy/Dialect/Sdy/IR/SdyDialect.h.inc"

#endif // MESHSDY_DIALECT_SDY_IR_SDYDIALECT_H
