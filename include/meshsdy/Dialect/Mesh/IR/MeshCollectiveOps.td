//===- MeshCollectiveOps.td - mesh collectives -------------*- tablegen -*-===//
//
// Communication between the devices of each device group of a mesh. Included
// from MeshOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_IR_MESHCOLLECTIVEOPS_TD
#define MESHSDY_DIALECT_MESH_IR_MESHCOLLECTIVEOPS_TD

/// The shared base of every collective: a `mesh` and the `mesh_axes` that
/// span a device group (none: every group is a single device). Each op
/// checks the mesh in `verifySymbolUses`, through one shared C++ routine.
class Mesh_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Mesh_MeshUserOp<mnemonic, traits> {
  dag commonArgs = (ins
    FlatSymbolRefAttr:$mesh,
    DefaultValuedAttr<Mesh_MeshAxesAttr, "{}">:$mesh_axes
  );
  string commonConstraints = [{
    Constraints shared by the collectives:
      - `mesh` names a `mesh.mesh`;
      - every entry of `mesh_axes` is an axis of that mesh, at most once.
  }];
  let hasCanonicalizer = 1;
}

def Mesh_AllGatherOp : Mesh_CollectiveOp<"all_gather", [
    Pure, SameOperandsAndResultElementType, SameOperandsAndResultRank]> {
  let summary = "All-gather over a device mesh.";
  let description = [{
    Every device of a group receives the concatenation, along tensor axis
    `gather_axis`, of the inputs of all devices of the group, in group order.
    The result's `gather_axis` dimension is the input's times the group size.

    Example:

    ```mlir
    mesh.mesh @mesh0(shape = 2x2)
    ...
    %1 = mesh.all_gather %0 on @mesh0 mesh_axes = [1] gather_axis = 1
      : tensor<2x2xi8> -> tensor<2x4xi8>
    ```

    ```
    Input:
                     +-------+-------+
    device (0, 0) -> |  1  2 |  5  6 | <- device (0, 1)
                     |  3  4 |  7  8 |
                     +-------+-------+
    device (1, 0) -> |  9 10 | 13 14 | <- device (1, 1)
                     | 11 12 | 15 16 |
                     +-------+-------+
    Result:
    +-------------+
    |  1  2  5  6 | <- devices (0, 0) and (0, 1)
    |  3  4  7  8 |
    +-------------+
    |  9 10 13 14 | <- devices (1, 0) and (1, 1)
    | 11 12 15 16 |
    +-------------+
    ```
  }] # commonConstraints # [{
      - `gather_axis` is a dimension of the input;
      - on a static group, result dimension `gather_axis` is the input's
        times the group size and the other dimensions are equal.
  }];
  let arguments = !con(commonArgs, (ins
    AnyNon0RankedTensor:$input,
    IndexAttr:$gather_axis
  ));
  let results = (outs AnyNon0RankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)? `gather_axis` `=` $gather_axis
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Mesh_AllReduceOp : Mesh_CollectiveOp<"all_reduce", [
    Pure, SameOperandsAndResultShape]> {
  let summary = "All-reduce over a device mesh.";
  let description = [{
    Every device of a group receives the element-wise `reduction` (default
    `sum`) of the inputs of all devices of the group. The result element type
    is the accumulation type: inputs are converted to it before reducing, so
    it may differ from the input's.

    Example:

    ```mlir
    %1 = mesh.all_reduce %0 on @mesh0 mesh_axes = [1, 0] reduction = <max>
      : tensor<3x4xf32> -> tensor<3x4xf64>
    ```
  }] # commonConstraints;
  let arguments = !con(commonArgs, (ins
    AnyRankedTensor:$input,
    DefaultValuedAttr<Mesh_ReductionKindAttr, "::mlir::mesh::ReductionKind::Sum">:$reduction
  ));
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)? (`reduction` `=` $reduction^)?
    attr-dict `:` type($input) `->` type($result)
  }];
}

def Mesh_AllSliceOp : Mesh_CollectiveOp<"all_slice", [
    Pure, SameOperandsAndResultElementType, SameOperandsAndResultRank]> {
  let summary = "All-slice over a device mesh. This is the inverse of all-gather.";
  let description = [{
    Each device cuts its input into as many equal pieces along tensor axis
    `slice_axis` as its group has devices and keeps the piece at its own
    position in the group. No data moves between devices; this undoes
    `mesh.all_gather`.

    Example:

    ```mlir
    mesh.mesh @mesh0(shape = 2x2)
    ...
    %1 = mesh.all_slice %0 on @mesh0 mesh_axes = [1] slice_axis = 1
      : tensor<2x4xi8> -> tensor<2x2xi8>
    ```
  }] # commonConstraints # [{
      - `slice_axis` is a dimension of the input;
      - on a static group, input dimension `slice_axis` is divisible by the
        group size, the result's is the quotient and the other dimensions
        are equal.
  }];
  let arguments = !con(commonArgs, (ins
    AnyNon0RankedTensor:$input,
    IndexAttr:$slice_axis
  ));
  let results = (outs AnyNon0RankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)? `slice_axis` `=` $slice_axis
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Mesh_AllToAllOp : Mesh_CollectiveOp<"all_to_all", [
    Pure, SameOperandsAndResultElementType, SameOperandsAndResultRank]> {
  let summary = "All-to-all over a device mesh.";
  let description = [{
    Each device cuts its input into one piece per group device along tensor
    axis `split_axis` and sends piece `k` to the `k`-th device of its group;
    every device concatenates the pieces it receives, in group order, along
    `concat_axis`.

    Example:

    ```mlir
    mesh.mesh @mesh0(shape = 3)
    ...
    %1 = mesh.all_to_all %0 on @mesh0 mesh_axes = [0]
      split_axis = 0 concat_axis = 0
      : tensor<3x2xi8> -> tensor<3x2xi8>
    ```

    ```
    Input:  device 0      device 1      device 2
            11 12         21 22         31 32
            13 14         23 24         33 34
            15 16         25 26         35 36
    Result: 11 12         13 14         15 16
            21 22         23 24         25 26
            31 32         33 34         35 36
    ```
  }] # commonConstraints # [{
      - `split_axis` and `concat_axis` are dimensions of the input;
      - on a static group, input dimension `split_axis` is divisible by the
        group size, and the result shape is the input's with `split_axis`
        divided by, then `concat_axis` multiplied by, the group size.
  }];
  let arguments = !con(commonArgs, (ins
    AnyNon0RankedTensor:$input,
    IndexAttr:$split_axis,
    IndexAttr:$concat_axis
  ));
  let results = (outs AnyNon0RankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)?
    `split_axis` `=` $split_axis
    `concat_axis` `=` $concat_axis
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Mesh_BroadcastOp : Mesh_CollectiveOp<"broadcast", [Pure]> {
  let summary = "Broadcast over a device mesh.";
  let description = [{
    In each group, the input of the device `root` (its coordinates on
    `mesh_axes`, see "In-group devices") becomes the result of every device
    of the group. Root coordinates written `?` are given by the
    `root_dynamic` operands.

    Example:

    ```mlir
    mesh.mesh @mesh0(shape = 2x2)

    %1 = mesh.broadcast %0 on @mesh0
      mesh_axes = [0]
      root = [0]
      : (tensor<2xi8>) -> tensor<2xi8>
    ```
  }] # commonConstraints # [{
      - `root` has one coordinate per entry of `mesh_axes`, each within the
        size of its axis when both are static;
      - the result type equals the input type.
  }];
  let arguments = !con(commonArgs, (ins
    AnyRankedTensor:$input,
    DenseI64ArrayAttr:$root,
    Variadic<Index>:$root_dynamic
  ));
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)?
    `root` `=` custom<DynamicIndexList>($root_dynamic, $root)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mesh_GatherOp : Mesh_CollectiveOp<"gather", [Pure]> {
  let summary = "Gather over a device mesh.";
  let description = [{
    Like `mesh.all_gather`, but only the device `root` of each group receives
    the concatenation along `gather_axis`; the result on the other devices is
    undefined and must not be used.

    Example:

    ```mlir
    mesh.mesh @mesh0(shape = 2x2)
    ...
    %1 = mesh.gather %0 on @mesh0 mesh_axes = [1]
      gather_axis = 1 root = [1]
      : (tensor<2x2xi8>) -> tensor<2x4xi8>
    ```
  }] # commonConstraints # [{
      - `gather_axis` is a dimension of the input, element types and ranks
        agree, and on a static group the result shape is the input's with
        `gather_axis` multiplied by the group size;
      - `root` has one coordinate per entry of `mesh_axes`, within range.
  }];
  let arguments = !con(commonArgs, (ins
    AnyNon0RankedTensor:$input,
    IndexAttr:$gather_axis,
    DenseI64ArrayAttr:$root,
    Variadic<Index>:$root_dynamic
  ));
  let results = (outs AnyNon0RankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)?
    `gather_axis` `=` $gather_axis
    `root` `=` custom<DynamicIndexList>($root_dynamic, $root)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mesh_RecvOp : Mesh_CollectiveOp<"recv"> {
  let summary = "Send over a device mesh.";
  let description = [{
    Receives a tensor from the device `source` of the own group (or from an
    unspecified device when `source` is absent). Not pure: only some devices
    take part.

    Example:

    ```mlir
    %1 = mesh.recv %0 on @mesh0 mesh_axes = [0] source = [1]
      : (tensor<2xi8>) -> tensor<2xi8>
    ```
  }] # commonConstraints # [{
      - `source`, when present, has one coordinate per entry of `mesh_axes`,
        within range.
  }];
  let arguments = !con(commonArgs, (ins
    AnyNon0RankedTensor:$input,
    OptionalAttr<DenseI64ArrayAttr>:$source,
    Variadic<Index>:$source_dynamic
  ));
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)?
    (`source` `=` custom<DynamicIndexList>($source_dynamic, $source)^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mesh_ReduceOp : Mesh_CollectiveOp<"reduce", [Pure]> {
  let summary = "Reduce over a device mesh.";
  let description = [{
    Like `mesh.all_reduce`, but only the device `root` of each group receives
    the reduction; the result elsewhere is undefined. The result element type
    is the accumulation type.

    Example:

    ```mlir
    %1 = mesh.reduce %0 on @mesh0 mesh_axes = [1, 0]
      reduction = <max> root = [2, 3]
      : (tensor<3x4xf32>) -> tensor<3x4xf64>
    ```
  }] # commonConstraints # [{
      - `root` has one coordinate per entry of `mesh_axes`, within range;
      - input and result shapes agree.
  }];
  let arguments = !con(commonArgs, (ins
    AnyRankedTensor:$input,
    DefaultValuedAttr<Mesh_ReductionKindAttr, "::mlir::mesh::ReductionKind::Sum">:$reduction,
    DenseI64ArrayAttr:$root,
    Variadic<Index>:$root_dynamic
  ));
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)?
    (`reduction` `=` $reduction^)?
    `root` `=` custom<DynamicIndexList>($root_dynamic, $root)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mesh_ReduceScatterOp : Mesh_CollectiveOp<"reduce_scatter", [
    Pure, SameOperandsAndResultRank]> {
  let summary = "Reduce-scatter over a device mesh.";
  let description = [{
    Reduces the inputs of a group as `mesh.all_reduce` does, then cuts the
    reduced tensor into one piece per group device along `scatter_axis`; the
    `k`-th device of the group receives the `k`-th piece.

    Example:

    ```mlir
    mesh.mesh @mesh0(shape = 2x2)
    ...
    %1 = mesh.reduce_scatter %0 on @mesh0 mesh_axes = [1]
      reduction = <max> scatter_axis = 0
      : tensor<4x4xf32> -> tensor<2x4xf64>
    ```
  }] # commonConstraints # [{
      - `scatter_axis` is a dimension of the input;
      - on a static group, input dimension `scatter_axis` is divisible by the
        group size, the result's is the quotient and the other dimensions
        are equal.
  }];
  let arguments = !con(commonArgs, (ins
    AnyNon0RankedTensor:$input,
    DefaultValuedAttr<Mesh_ReductionKindAttr, "::mlir::mesh::ReductionKind::Sum">:$reduction,
    IndexAttr:$scatter_axis
  ));
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)?
    (`reduction` `=` $reduction^)?
    `scatter_axis` `=` $scatter_axis
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Mesh_ScatterOp : Mesh_CollectiveOp<"scatter", [Pure]> {
  let summary = "Scatter over a device mesh.";
  let description = [{
    In each group, the input of device `root` is cut into one piece per group
    device along `scatter_axis`, and the `k`-th device receives the `k`-th
    piece. The inputs of the other devices are ignored.

    Example:

    ```mlir
    mesh.mesh @mesh0(shape = 2x2)
    %1 = mesh.scatter %0 on @mesh0 mesh_axes = [0]
      scatter_axis = 0
      root = [1]
      : (tensor<2x2xi8>) -> tensor<1x2xi8>
    ```
  }] # commonConstraints # [{
      - `scatter_axis` is a dimension of the input, and on a static group the
        result shape is the input's with `scatter_axis` divided (exactly) by
        the group size; element types agree;
      - `root` has one coordinate per entry of `mesh_axes`, within range.
  }];
  let arguments = !con(commonArgs, (ins
    AnyNon0RankedTensor:$input,
    IndexAttr:$scatter_axis,
    DenseI64ArrayAttr:$root,
    Variadic<Index>:$root_dynamic
  ));
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)?
    `scatter_axis` `=` $scatter_axis
    `root` `=` custom<DynamicIndexList>($root_dynamic, $root)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mesh_SendOp : Mesh_CollectiveOp<"send"> {
  let summary = "Send over a device mesh.";
  let description = [{
    Sends the input to the device `destination` of the own group. Not pure:
    only some devices take part.

    Example:

    ```mlir
    %1 = mesh.send %0 on @mesh0 mesh_axes = [0] destination = [1]
      : (tensor<2xi8>) -> tensor<2xi8>
    ```
  }] # commonConstraints # [{
      - `destination` has one coordinate per entry of `mesh_axes`, within
        range.
  }];
  let arguments = !con(commonArgs, (ins
    AnyNon0RankedTensor:$input,
    DenseI64ArrayAttr:$destination,
    Variadic<Index>:$destination_dynamic
  ));
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)?
    `destination` `=` custom<DynamicIndexList>($destination_dynamic, $destination)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Mesh_ShiftOp : Mesh_CollectiveOp<"shift", [
    Pure, SameOperandsAndResultElementType, SameOperandsAndResultShape]> {
  let summary = "Shift over a device mesh.";
  let description = [{
    Within each group, moves every device's input `offset` positions along
    mesh axis `shift_axis`. A device with no source receives an undefined
    result; with `rotate` the shift wraps around instead.

    Example:

    ```mlir
    mesh.mesh @mesh0(shape = 2x4)
    %1 = mesh.shift %0 on @mesh0 mesh_axes = [1]
      shift_axis = 1 offset = 2 rotate
      : tensor<2xi8> -> tensor<2xi8>
    ```
  }] # commonConstraints # [{
      - `shift_axis` is one of `mesh_axes`.
  }];
  let arguments = !con(commonArgs, (ins
    AnyNon0RankedTensor:$input,
    IndexAttr:$shift_axis,
    I64Attr:$offset,
    UnitAttr:$rotate
  ));
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `on` $mesh (`mesh_axes` `=` $mesh_axes^)?
    `shift_axis` `=` $shift_axis
    `offset` `=` $offset
    (`rotate` $rotate^)?
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Mesh_UpdateHaloOp : Mesh_Op<"update_halo", [
    Pure, DestinationStyleOpInterface, TypesMatchWith<
      "destination has the type of the result", "result", "destination", "$_self">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Update halo data.";
  let description = [{
    Refreshes the halo regions of the local shard `destination` with the data
    of the neighbouring devices, for example after the neighbours changed
    their data or when larger halos are needed. `destination` holds the local
    data (without valid halos) on entry. For each tensor dimension,
    `split_axes` gives the mesh axes along which its halos are exchanged, and
    `halo_sizes` the halo widths, two per split dimension (`?` from the
    operands).

    Example:

    ```mlir
    %1 = mesh.update_halo %0 on @mesh0 split_axes = [[0]]
      halo_sizes = [1, 2] : tensor<10x4xf32>
    ```

    Constraints:
      - `mesh` names a `mesh.mesh` and every split axis is one of its axes,
        used at most once;
      - `halo_sizes` has two entries per split dimension;
      - each `?` has one operand.
  }];
  let arguments = (ins
    AnyTypeOf<[AnyNon0RankedMemRef, AnyNon0RankedTensor]>:$destination,
    FlatSymbolRefAttr:$mesh,
    Mesh_MeshAxesArrayAttr:$split_axes,
    Variadic<I64>:$halo_sizes,
    DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$static_halo_sizes
  );
  let results = (outs AnyTypeOf<[AnyNon0RankedMemRef, AnyNon0RankedTensor]>:$result);
  let assemblyFormat = [{
    $destination
    `on` $mesh
    `split_axes` `=` $split_axes
    (`halo_sizes` `=` custom<DynamicIndexList>($halo_sizes, $static_halo_sizes)^)?
    attr-dict `:` type($result)
  }];
  let extraClassDeclaration = [{
    /// Destination-style: `destination` is the one init operand.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getDestinationMutable();
    }
  }];
  let hasVerifier = 1;
}

#endif // MESHSDY_DIALECT_MESH_IR_MESHCOLLECTIVEOPS_TD
