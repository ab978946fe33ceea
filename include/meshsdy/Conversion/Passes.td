//===- Passes.td - conversions between meshsdy dialects ----*- tablegen -*-===//

#ifndef MESHSDY_CONVERSION_PASSES_TD
#define MESHSDY_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertSdyToMeshPass : Pass<"convert-sdy-to-mesh", "::mlir::ModuleOp"> {
  let summary = "Convert sdy meshes to mesh.mesh symbols";
  let description = [{
    First stage of the sdy-to-mesh bridge. Every `sdy.mesh @name = <[...]>`
    becomes `mesh.mesh @name(shape = ...)` with one mesh axis per sdy axis, in
    the same order, so that sdy axis `k` of the mesh is mesh axis `k`.

    The pass fails with a diagnostic, and leaves the module unchanged, when it
    meets what it cannot express yet:
    - an empty mesh, a maximal-sharding mesh, or explicit `device_ids`
      (`mesh.mesh` has no device order);
    - any other use of the `sdy` dialect (ops or attributes), since sharding
      conversion is a later stage of the bridge.

    Cost: one walk over the module.
  }];
  let dependentDialects = ["::mlir::mesh::MeshDialect"];
}

#endif // MESHSDY_CONVERSION_PASSES_TD
