//===- MeshOps.td - mesh dialect operations ----------------*- tablegen -*-===//
//
// Meshes, queries on the current process, and sharding annotations. The
// collectives live in MeshCollectiveOps.td, included at the end.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_IR_MESHOPS_TD
#define MESHSDY_DIALECT_MESH_IR_MESHOPS_TD

include "meshsdy/Dialect/Mesh/IR/MeshBase.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"

/// An op that names a mesh and checks it in `verifySymbolUses`, with a result
/// name hint for the printer.
class Mesh_MeshUserOp<string mnemonic, list<Trait> traits = []>
    : Mesh_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>,
        DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>])>;

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
    // custom<DimensionList>: members, so that the generated parser and
    // printer use ours rather than mlir::parseDimensionList, which asserts
    // on input such as `2xaxes`.
    static ::mlir::ParseResult
    parseDimensionList(::mlir::OpAsmParser &parser,
                       ::mlir::DenseI64ArrayAttr &dims) {
      return ::mlir::mesh::detail::parseDimensionList(parser, dims);
    }
    static void printDimensionList(::mlir::OpAsmPrinter &printer,
                                   ::mlir::Operation *op,
                                   ::mlir::DenseI64ArrayAttr dims) {
      ::mlir::mesh::detail::printDimensionList(printer, op, dims);
    }
    /// Number of mesh axes.
    int64_t getRank() { return getShape().size(); }
    /// True when every axis size is known.
    bool isStatic() {
      return llvm::none_of(getShape(), ::mlir::ShapedType::isDynamic);
    }
    /// Total number of devices, or ShapedType::kDynamic.
    int64_t getNumDevices();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Queries about the mesh and the current process
//===----------------------------------------------------------------------===//

def Mesh_MeshShapeOp : Mesh_MeshUserOp<"mesh_shape", [Pure]> {
  let summary = "Get the shape of the mesh.";
  let description = [{
    Returns the size of each of the mesh axes in `axes`, in that order; with
    no `axes`, the size of every mesh axis. On a static mesh the results fold
    to constants.

    Example:

    ```mlir
    mesh.mesh @mesh0(shape = 2x?x4)
    %s:3 = mesh.mesh_shape @mesh0 : index, index, index
    %s2 = mesh.mesh_shape @mesh0 axes = [2] : index
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$mesh,
                       DefaultValuedAttr<Mesh_MeshAxesAttr, "{}">:$axes);
  let results = (outs Variadic<Index>:$result);
  let assemblyFormat = [{
    $mesh (`axes` `=` $axes^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Mesh_ProcessMultiIndexOp : Mesh_MeshUserOp<"process_multi_index", [Pure]> {
  let summary = "Get the multi index of current device along specified mesh axes.";
  let description = [{
    Returns the coordinates of the running process on the mesh axes `axes`
    (each in `[0, size)`), one index per axis; with no `axes`, on every mesh
    axis. This op appears in per-process (SPMD) programs.

    Example:

    ```mlir
    %i:2 = mesh.process_multi_index on @mesh0 : index, index
    %k = mesh.process_multi_index on @mesh0 axes = [1] : index
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$mesh,
                       DefaultValuedAttr<Mesh_MeshAxesAttr, "{}">:$axes);
  let results = (outs Variadic<Index>:$result);
  let assemblyFormat = [{
    `on` $mesh (`axes` `=` $axes^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Mesh_ProcessLinearIndexOp : Mesh_MeshUserOp<"process_linear_index", [
    Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Get the linear index of the current device.";
  let description = [{
    Returns the row-major position of the running process in its mesh.

    Example:

    ```mlir
    %idx = mesh.process_linear_index on @mesh : index
    ```

    On a mesh of shape `10x20x30` the device at `(1, 2, 3)` has linear index
    `1 * 20 * 30 + 2 * 30 + 3 = 663`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$mesh);
  let results = (outs Index:$result);
  let assemblyFormat = "`on` $mesh attr-dict `:` type($result)";
  let hasCanonicalizer = 1;
}

def Mesh_NeighborsLinearIndicesOp : Mesh_MeshUserOp<"neighbors_linear_indices", [
    Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "For given mesh index get the linear indices of the direct neighbor processes along the given split.";
  let description = [{
    `device` is a multi-index on the mesh (one index per mesh axis).
    Treating the mesh axes `split_axes` as one axis (outer axis first), the op
    returns the linear indices of the devices just before (`neighbor_down`)
    and just after (`neighbor_up`) `device` on it. A result is negative when
    there is no neighbour in that direction.

    Example:

    ```mlir
    mesh.mesh @mesh0(shape = 10x20x30)
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %idx:2 = mesh.neighbors_linear_indices on @mesh0[%c1, %c2, %c3] split_axes = [1] : index, index
    ```

    The results are 633 and 693, the linear indices of `(1, 1, 3)` and
    `(1, 3, 3)`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$mesh,
                       Variadic<Index>:$device,
                       Mesh_MeshAxesAttr:$split_axes);
  let results = (outs Index:$neighbor_down, Index:$neighbor_up);
  let assemblyFormat = [{
    `on` $mesh `[` $device `]`
    `split_axes` `=` $split_axes
    attr-dict `:` type(results)
  }];
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Sharding
//===----------------------------------------------------------------------===//

def Mesh_ShardingOp : Mesh_MeshUserOp<"sharding", [
    Pure, AttrSizedOperandSegments, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Define a sharding of a tensor.";
  let description = [{
    Defines how a tensor is distributed over the devices of a mesh. The
    result is consumed by `mesh.shard`.

      1. `mesh`: the `mesh.mesh` symbol the tensor is distributed over.

      2. `split_axes`: for tensor dimension `i`, the mesh axes it is split
         along, outer axis first. `[[0], [], [1, 2]]` splits dimension 0 over
         mesh axis 0 and dimension 2 over mesh axes 1 and 2 (1 outer).
         Dimensions past the end of the list are not split. A mesh axis
         splits at most one dimension, once.

      3. `partial_axes` (optional): the tensor holds, on every device, a
         partial value that must be reduced over these mesh axes to give the
         full tensor; `partial_type` says how. `partial = max[1]`.

      4. `partial_type` (optional): the reduction of the partial axes; any
         reduction kind except `generic`.

      5. `halo_sizes` (optional): for each *split* dimension, in order, the
         sizes of the halo added before and after each shard: two values per
         split dimension. `?` marks a size given by an operand.

      6. `sharded_dims_offsets` (optional): for each split dimension, in order,
         the start offset of each of its `n` shards followed by the end of the
         last one: `n + 1` non-decreasing values, where `n` is the product of
         the sizes of the dimension's split axes. Shards are contiguous and
         shard `i` covers `[offsets[i], offsets[i + 1])`. `?` marks a value
         given by an operand.

    `halo_sizes` and `sharded_dims_offsets` cannot both be given.

    Examples:

    ```mlir
    mesh.mesh @mesh0(shape = 2x2x4)
    mesh.mesh @mesh1d_4(shape = 4)

    // Replicated on @mesh0. At least one (possibly empty) sub-list is needed.
    %sharding0 = mesh.sharding @mesh0 split_axes = [[]] : !mesh.sharding

    // Dimension 0 split along mesh axis 0.
    %sharding1 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding

    // Split as above, and a partial sum over mesh axis 1.
    %sharding2 = mesh.sharding @mesh0 split_axes = [[0]] partial = sum[1] : !mesh.sharding

    // Split as above, and a partial max over mesh axis 1.
    %sharding3 = mesh.sharding @mesh0 split_axes = [[0]] partial = max[1] : !mesh.sharding
    %sharded0 = mesh.shard %arg0 to %sharding3 : tensor<4x8xf32>

    // Halos of 1 before and 2 after each shard of dimension 0.
    %halo_sharding = mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [1, 2] : !mesh.sharding
    %sharded1 = mesh.shard %arg0 to %halo_sharding : tensor<4x8xf32>

    // Dimension 1 in shards of sizes 2, 3, 4 and 5 over @mesh1d_4:
    // the devices hold 4x2, 4x3, 4x4 and 4x5 tensors.
    %sharding4 = mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !mesh.sharding
    %sharded2 = mesh.shard %arg0 to %sharding4 : tensor<4x14xf32>
    ```

    Constraints:
      - `mesh` names a `mesh.mesh`.
      - every split and partial axis is a valid axis of the mesh and appears
        at most once over all of `split_axes` and `partial_axes`;
      - `partial_type` is not `generic`;
      - `halo_sizes` has two non-negative entries per split dimension;
      - on a mesh whose split-axis sizes are static, `sharded_dims_offsets`
        has `n + 1` non-decreasing entries per split dimension;
      - `halo_sizes` and `sharded_dims_offsets` are mutually exclusive;
      - each `?` has one operand.
  }];
  let arguments = (ins
    FlatSymbolRefAttr:$mesh,
    Mesh_MeshAxesArrayAttr:$split_axes,
    OptionalAttr<Mesh_MeshAxesAttr>:$partial_axes,
    OptionalAttr<Mesh_ReductionKindAttr>:$partial_type,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$static_sharded_dims_offsets,
    Variadic<I64>:$dynamic_sharded_dims_offsets,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$static_halo_sizes,
    Variadic<I64>:$dynamic_halo_sizes
  );
  let results = (outs Mesh_Sharding:$result);
  let builders = [
    // The op defining `sharding` (normalised: no trailing empty split axes;
    // dynamic halo sizes / offsets become operands).
    OpBuilder<(ins "const ::mlir::mesh::MeshSharding &":$sharding)>
  ];
  let assemblyFormat = [{
    $mesh
    `split_axes` `=` $split_axes
    (`partial` `=` $partial_type $partial_axes^)?
    (`halo_sizes` `=` custom<DynamicIndexList>($dynamic_halo_sizes, $static_halo_sizes)^)?
    (`sharded_dims_offsets` `=` custom<DynamicIndexList>($dynamic_sharded_dims_offsets, $static_sharded_dims_offsets)^)?
    attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Mesh_ShardShapeOp : Mesh_Op<"shard_shape", [Pure]> {
  let summary = "Get the shard shape of a given process/device.";
  let description = [{
    Returns, one index per dimension, the shape of the shard that device
    `device` (a linear index on the sharding's mesh) holds of a tensor of
    shape `shape` distributed by `sharding`, halos included. It serves
    partitioning when the shard shape depends on values only known at run
    time (dynamic offsets or halos).

    Example:

    ```mlir
    %dims:2 = mesh.shard_shape 8x? %sharding %device : index, index
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$shape,
                       Mesh_Sharding:$sharding,
                       Index:$device);
  let results = (outs Variadic<Index>:$result);
  let extraClassDeclaration = [{
    // custom<DimensionList>: members, so that the generated parser and
    // printer use ours rather than mlir::parseDimensionList, which asserts
    // on input such as `2xaxes`.
    static ::mlir::ParseResult
    parseDimensionList(::mlir::OpAsmParser &parser,
                       ::mlir::DenseI64ArrayAttr &dims) {
      return ::mlir::mesh::detail::parseDimensionList(parser, dims);
    }
    static void printDimensionList(::mlir::OpAsmPrinter &printer,
                                   ::mlir::Operation *op,
                                   ::mlir::DenseI64ArrayAttr dims) {
      ::mlir::mesh::detail::printDimensionList(printer, op, dims);
    }
  }];
  let assemblyFormat = [{
    custom<DimensionList>($shape) $sharding $device attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  // Dimensions known from a `mesh.sharding` on a static mesh (and, for
  // uneven splits, a constant device) fold to constants.
  let hasCanonicalizer = 1;
}

def Mesh_ShardOp : Mesh_Op<"shard", [
    Pure, AllTypesMatch<["src", "result"]>, DeclareOpInterfaceMethods<InferTypeOpInterface>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "Annotate on how a tensor is sharded across a mesh.";
  let description = [{
    Attaches a sharding (a `!mesh.sharding` value, normally from
    `mesh.sharding`) to a tensor value. The result is the same tensor.

      1. `src`: the annotated tensor.

      2. `sharding`: how it is distributed.

      3. `annotate_for_users` (unit attribute): without it the annotation is
         about the op that *defines* `src`: its result has this sharding.
         With it, the annotation is about the *users* of the result: they
         expect their operand in this sharding. A value may carry one result
         annotation followed by any number of operand annotations.

    Example:

    ```mlir
    func.func @only_result_annotated(%arg0 : tensor<4x8xf32>) -> () {
      %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
      %0 = mesh.shard %arg0 to %sharding : tensor<4x8xf32>
      ...
    }

    func.func @only_operand_annotated(%arg0 : tensor<4x8xf32>) -> () {
      %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
      %0 = mesh.shard %arg0 to %sharding annotate_for_users : tensor<4x8xf32>
      ...
    }

    // %0 is the result annotation of %arg0; %1 and %2 are operand
    // annotations for op0 and op1.
    func.func @both_result_and_multi_operands_annotated(
        %arg0 : tensor<4x8xf32>) -> () {
      %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
      %0 = mesh.shard %arg0 to %sharding : tensor<4x8xf32>
      %sharding1 = mesh.sharding @mesh0 split_axes = [[1]] : !mesh.sharding
      %1 = mesh.shard %0 to %sharding1 annotate_for_users : tensor<4x8xf32>
      %sharding2 = mesh.sharding @mesh0 split_axes = [[2]] : !mesh.sharding
      %2 = mesh.shard %0 to %sharding2 annotate_for_users : tensor<4x8xf32>
      "op0"(%1) : ...
      "op1"(%2) : ...
      ...
    }
    ```

    These combinations have no meaning and are rejected when the shardings
    can be compared (both defined by `mesh.sharding` ops):
      - an operand annotation of an operand annotation, with a different
        sharding;
      - a result annotation of an operand annotation;
      - result annotations of one value with different shardings, none of
        them in the value's block.
    The seed leaves two more undefined that folds and CSE make from valid IR;
    meshsdy reads them as a resharding: a result annotation of a result
    annotation with a different sharding, and a later result annotation of
    a value (in its block) with another sharding than the first, are read by
    their users as operand annotations of the first. Canonicalization, and
    the propagation and partitioning passes, rewrite them so
    (`annotate_for_users`). An annotation of an annotation with the same
    sharding is redundant and folds away.
  }];
  let arguments = (ins AnyRankedTensor:$src,
                       Mesh_Sharding:$sharding,
                       UnitAttr:$annotate_for_users);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src `to` $sharding
    (`annotate_for_users` $annotate_for_users^)?
    attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

include "meshsdy/Dialect/Mesh/IR/MeshCollectiveOps.td"

#endif // MESHSDY_DIALECT_MESH_IR_MESHOPS_TD
