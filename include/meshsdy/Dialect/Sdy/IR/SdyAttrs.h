//===- SdyAttrs.h - sdy dialect attributes ----------------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_SDY_IR_SDYATTRS_H
#define MESHSDY_DIALECT_SDY_IR_SDYATTRS_H

#include "meshsdy/Dialect/Sdy/IR/SdyDialect.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include <functional>
#include <optional>

#include "meshsdy/Dialect/Sdy/IR/SdyEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h.inc"

#endif // MESHSDY_DIALECT_SDY_IR_SDYATTRS_H
