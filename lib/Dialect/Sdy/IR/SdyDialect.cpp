//===- SdyDialect.cpp - sdy dialect registration --------------------------===//

#include "meshsdy/Dialect/Sdy/IR/SdyDialect.h"
#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sdy;

#include "meshsdy/Dialect/Sdy/IR/SdyDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.cpp.inc"

void SdyDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "meshsdy/Dialect/Sdy/IR/SdyOps.cpp.inc"
      >();
}
