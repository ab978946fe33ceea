//===- MeshBase.td - mesh dialect definition ---------------*- tablegen -*-===//
//
// The `mesh` dialect: device meshes, tensor shardings and SPMD collectives.
// Spec: shared/seeds/000 (the newest mesh dialect page).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_IR_MESHBASE_TD
#define MESHSDY_DIALECT_MESH_IR_MESHBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Mesh_Dialect : Dialect {
  let name = "mesh";
  let cppNamespace = "::mlir::mesh";
  let summary = "Device meshes, tensor shardings and SPMD collectives";
  let description = [{
    The `mesh` dialect holds the attributes, operations and interfaces used to
    describe how tensors are distributed over a mesh of devices and how the
    devices communicate.

    **Device groups.** Collectives name a `mesh` and a list of `mesh_axes`.
    Devices whose coordinates agree on every axis *outside* `mesh_axes` form
    one group, and the collective runs independently within each group. On a
    2x3x4x5 mesh with `mesh_axes = [0, 1]` there are 4 * 5 groups, indexed by
    `(k, m)`, each holding the 2 * 3 devices `(i, j, k, m)`. The order of the
    devices inside a group follows `mesh_axes`, outer axis first: with
    `mesh_axes = [3, 1]`, device `(i, 1, k, 0)` comes before `(i, 0, k, 1)`
    and `(i, 2, k, 0)`.

    **In-group devices.** Ops such as `broadcast`, `scatter` and `send` name a
    device inside each group by its multi-index over `mesh_axes` only.

    **Purity.** Collectives that involve the whole group are pure: the program
    is SPMD and every process reaches the same collective in the same state,
    so CSE and DCE may treat them like any other side-effect-free op. `send`
    and `recv` are the exceptions.
  }];
}

class Mesh_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mesh_Dialect, mnemonic, traits>;

#endif // MESHSDY_DIALECT_MESH_IR_MESHBASE_TD
