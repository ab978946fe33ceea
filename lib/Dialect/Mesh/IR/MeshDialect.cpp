//===- MeshDialect.cpp - mesh dialect registration ------------------------===//

#include "meshsdy/Dialect/Mesh/IR/MeshDialect.h"
#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"

using namespace mlir;
using namespace mlir::mesh;

#include "meshsdy/Dialect/Mesh/IR/MeshDialect.cpp.inc"

void MeshDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "meshsdy/Dialect/Mesh/IR/MeshOps.cpp.inc"
      >();
}
