//===- MeshDialect.h - mesh dialect -----------------------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_MESH_IR_MESHDIALECT_H
#define MESHSDY_DIALECT_MESH_IR_MESHDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "meshsdy/Dialect/Mesh/IR/MeshDialect.h.inc"

#endif // MESHSDY_DIALECT_MESH_IR_MESHDIALECT_H
