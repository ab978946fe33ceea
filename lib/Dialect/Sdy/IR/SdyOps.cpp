//===- SdyOps.cpp - sdy dialect operations --------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::sdy;

#define GET_OP_CLASSES
#include "meshsdy/Dialect/Sdy/IR/SdyOps.cpp.inc"
