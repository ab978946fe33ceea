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
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/EnumAttr.td"
include "meshsdy/Dialect/Mesh/IR/MeshEnums.td"

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
  let dependentDialects = [
    // Folders materialize index constants; canonicalization may insert casts.
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect"
  ];
  // Written by hand: standalone `#mesh.axisarray<[[0], []]>` wraps the
  // `[[0], []]` that op syntax shows.
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;
  }];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
}

class Mesh_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mesh_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Mesh axes
//===----------------------------------------------------------------------===//

/// One mesh axis index (`0` is the outermost axis of the mesh).
def Mesh_MeshAxis : I<16>;
/// A list of mesh axes, written `[1, 0]` inside op syntax.
def Mesh_MeshAxesAttr
    : DenseArrayAttrBase<"DenseI16ArrayAttr", "int16_t", "i16">;

//===----------------------------------------------------------------------===//
// Reduction kinds
//===----------------------------------------------------------------------===//

// Mesh_ReductionKind is in MeshEnums.td (also used for the Python enum).

def Mesh_ReductionKindAttr
    : EnumAttr<Mesh_Dialect, Mesh_ReductionKind, "partial"> {
  // Printed `<sum>`; the parser also takes a bare `sum`, the form the
  // `partial = sum[1]` clause of `mesh.sharding` is written in.
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Mesh_Sharding : TypeDef<Mesh_Dialect, "Sharding"> {
  let mnemonic = "sharding";
  let summary = "sharding definition";
  let description = [{
    The type of the value a `mesh.sharding` op defines and a `mesh.shard` op
    consumes: `!mesh.sharding`.
  }];
  let assemblyFormat = "";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Mesh_MeshAxesArrayAttr : AttrDef<Mesh_Dialect, "MeshAxesArray"> {
  let mnemonic = "axisarray";
  let description = [{
    For each tensor dimension, the list of mesh axes the dimension is split
    along, outer axis first. Inside op syntax it is written as a list of lists,
    `[[0], [1, 2], []]`; on its own as `#mesh.axisarray<[[0], [1, 2], []]>`.
    At least one sub-list must be present, even if it is empty (`[[]]`).
  }];
  let parameters = (ins ArrayRefParameter<"DenseI16ArrayAttr">:$axes);
  // `[[0], []]`, parsed by hand for precise errors on `[]` and bad entries.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of tensor dimensions listed (including empty trailing ones).
    size_t size() const { return getAxes().size(); }
    auto begin() const { return getAxes().begin(); }
    auto end() const { return getAxes().end(); }
    /// Mesh axes of tensor dimension `dim`; empty past the end.
    ::llvm::ArrayRef<int16_t> getAxesOfDim(size_t dim) const {
      return dim < size() ? getAxes()[dim].asArrayRef()
                          : ::llvm::ArrayRef<int16_t>();
    }
  }];
}

#endif // MESHSDY_DIALECT_MESH_IR_MESHBASE_TD
