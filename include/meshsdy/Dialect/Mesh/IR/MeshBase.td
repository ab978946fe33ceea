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

    ## Collective Communication Operations

    The collectives of this dialect (all-gather, all-reduce, all-to-all,
    broadcast, ...) are the usual ones (see
    [collective operations](https://en.wikipedia.org/wiki/Collective_operation)),
    with one twist: they run over groups of devices of a mesh.

    ### Device groups

    A collective names a `mesh` and a list of `mesh_axes`. Devices whose
    coordinates agree on every mesh axis *outside* `mesh_axes` form one group,
    and the collective runs independently within each group; a group is named
    by those outside coordinates. On a 2x3x4x5 mesh with `mesh_axes = [0, 1]`,
    the groups are `{ { (i, j, k, m) | 0<=i<2, 0<=j<3 } | 0<=k<4, 0<=m<5 }`,
    indexed by `(k, m)`: devices (1, 0, 2, 3) and (1, 1, 2, 3) share a group,
    (1, 0, 2, 4) is in another one.

    Ops that care about the order of the devices in a group (all-gather,
    all-to-all, ...) order them by their coordinates on `mesh_axes`, taken in
    the listed order, outer axis first. With `mesh_axes = [3, 1]`, device
    `(i, 1, k, 0)` comes before both `(i, 0, k, 1)` and `(i, 2, k, 0)`.

    ### In-group Device

    Ops such as `broadcast`, `scatter` and `send` name one device in every
    group (`root`, `source`, `destination`) by its multi-index over
    `mesh_axes` only. On a 3-D mesh with `mesh_axes = [0, 2]`, the in-group
    device `(i, j)` of the group with index `g` is the device `(i, g, j)`.

    ### Purity

    Collectives in which the whole group takes part in one operation are
    pure; `send` and `recv` are not. The dialect assumes SPMD execution: every
    process runs the same program and reaches each collective in a coherent
    state. A transformation must therefore treat all the instances of one
    runtime collective alike: removing it on one path means removing it on
    every path of every process. With that, treating collectives as `Pure`
    is sound and lets generic passes such as CSE and DCE apply to them, and an
    interpreter can execute a pure collective as one step of all processes.
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
