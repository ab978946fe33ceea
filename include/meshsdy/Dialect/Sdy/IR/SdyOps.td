//===- SdyOps.td - sdy dialect operations ------------------*- tablegen -*-===//

#ifndef MESHSDY_DIALECT_SDY_IR_SDYOPS_TD
#define MESHSDY_DIALECT_SDY_IR_SDYOPS_TD

include "meshsdy/Dialect/Sdy/IR/SdyBase.td"
include "meshsdy/Dialect/Sdy/IR/SdyAttrs.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// sdy.mesh
//===----------------------------------------------------------------------===//

def Sdy_MeshOp : Sdy_Op<"mesh", [Symbol, HasParent<"ModuleOp">]> {
  let summary = "Named mesh";
  let description = [{
    Defines a new named mesh. All meshes in a module must have the same number
    of devices (except for meshes with a single device_id).
    The mesh is a `Symbol` operation that appears in the module's
    `SymbolTable` and can be referenced by its `name`.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Sdy_Mesh:$mesh);
  let assemblyFormat = "$sym_name `=` $mesh attr-dict";
}

#endif // MESHSDY_DIALECT_SDY_IR_SDYOPS_TD
