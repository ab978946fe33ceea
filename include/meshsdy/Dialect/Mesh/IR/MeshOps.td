//===- MeshOps.td - mesh dialect operations ----------------*- tablegen -*-===//

#ifndef MESHSDY_DIALECT_MESH_IR_MESHOPS_TD
#define MESHSDY_DIALECT_MESH_IR_MESHOPS_TD

include "meshsdy/Dialect/Mesh/IR/MeshBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/SymbolInterfaces.td"

//===----------------------------------------------------------------------===//
// Mesh definition
//===----------------------------------------------------------------------===//

def Mesh_MeshOp : Mesh_Op<"mesh", [Symbol]> {
  let summary = "Description of a device/process mesh.";
  let description = [{
    `mesh.mesh` defines a named mesh of devices (or processes). It is a symbol:
    other ops refer to it by name.

      1. `sym_name`: the name of the mesh, unique in its symbol table.

      2. `shape`: the size of each mesh axis, written like a tensor shape.
         A size may be dynamic (`?`) when the number of devices along that
         axis is only known at run time, for example `2x?x4`.

    The mesh has at least one axis and every static size is positive.

    Example:

    ```mlir
    // A device mesh with 3 axes, the total device number is 4 * 8 * 12
    // The dimension sizes are 4, 8, 12
    mesh.mesh @mesh0(shape = 4x8x12)

    // A device mesh with 2 axes, the total device number is unknown
    // The first dimension size is 4 and the second is unknown
    mesh.mesh @mesh1(shape = 4x?)

    // A device mesh with 2 axes, the total device number is unknown
    // The first dimension size is unknown and the second is 4
    mesh.mesh @mesh2(shape = ?x4)

    // A device mesh with 2 axes, the number of devices along both axes
    // is unknown
    mesh.mesh @mesh3(shape = ?x?)
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DenseI64ArrayAttr:$shape);
  let assemblyFormat = [{
    $sym_name `(` `shape` `=` custom<DimensionList>($shape) `)` attr-dict
  }];
  let extraClassDeclaration = [{
    /// Number of mesh axes.
    int64_t getRank() { return getShape().size(); }
  }];
  let hasVerifier = 1;
}

#endif // MESHSDY_DIALECT_MESH_IR_MESHOPS_TD
