//===- SdyAttrs.td - sdy dialect attributes ----------------*- tablegen -*-===//

#ifndef MESHSDY_DIALECT_SDY_IR_SDYATTRS_TD
#define MESHSDY_DIALECT_SDY_IR_SDYATTRS_TD

include "meshsdy/Dialect/Sdy/IR/SdyBase.td"
include "meshsdy/Dialect/Sdy/IR/SdyEnums.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Meshes
//===----------------------------------------------------------------------===//

def Sdy_MeshAxis : Sdy_Attr<"MeshAxis", "mesh_axis"> {
  let summary = "Named axis in a mesh";
  let parameters = (ins
    StringRefParameter<"name">:$name,
    AttrParameter<"int64_t", "size of this axis">:$size
  );
  // Name and size are checked by MeshAttr, the only place an axis lives, so
  // that a bad axis yields one error rather than a cascade of parser errors.
  let assemblyFormat = "`` custom<MeshAxis>($name, $size)";
}

def Sdy_Mesh : Sdy_Attr<"Mesh", "mesh"> {
  let summary = "Mesh of axes and a list of devices";
  let description = [{
    A mesh is a list of axes and an optional list of device IDs specifying the
    device ordering.

    If the list of axes is empty
      - If the `device_ids` is not provided, it is an empty mesh.
      - If the `device_ids` is provided, it must be a single non-negative
        integer, we call it a **maximal-sharding mesh**.

    If the list of axes is provided
      - If a device ID list is specified, the product of the axis sizes should
        match the number of devices.
      - If a device ID list is not specified, the implicit device ID list is
        iota(product(axes)). For simplicity, we also disallow specifying a
        device ID list that is the same as iota(product(axes)); in this case, a
        device ID list shouldn't be specified.
      - It is not a maximal-sharding mesh even if the total size of axes is 1.

    Here are some examples of meshes:

    - An empty mesh represents a placeholder mesh that can be replaced during
      propagation: <[]>
    - A mesh without axes list and a single non-negative device ID, which is a
      maximal-sharding mesh: <[], device_ids=[3]>
    - A mesh with two axes and implicit device IDs iota(6): <["a"=2, "b"=3]>
    - A mesh with two axes and explicit device IDs specifying the device
      ordering: <["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>

    **Constraints:**
    - Elements in `device_ids` should be non-negative.
    - If `axes` is empty, the size of `device_ids` can be 0 (empty mesh) or 1
      (maximal-sharding mesh).
    - If `axes` is not empty,
        - Elements in `axes` must not have duplicate names.
        - If `device_ids` is specified, the original `device_ids` is not
          `iota(product(axis_sizes))` and the sorted `device_ids` is
          `iota(product(axis_sizes))`.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"MeshAxisAttr", "mesh axes">:$axes,
    OptionalArrayRefParameter<"int64_t",
        "explicit device ordering or maximal device id">:$device_ids
  );
  let assemblyFormat = [{
    `<` custom<StrippedList>($axes) (`,` `device_ids` `` `=` `` custom<Int64s>($device_ids)^)? `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The product of all axis sizes (1 for an empty or maximal mesh).
    int64_t getTotalSize() const;
    /// Returns the axis named `name`, or null if there is none.
    MeshAxisAttr getAxis(::llvm::StringRef name) const;
    /// A maximal-sharding mesh has no axes and a single device id.
    bool isMaximal() const {
      return getAxes().empty() && getDeviceIds().size() == 1;
    }
    /// An empty mesh has neither axes nor device ids.
    bool isEmpty() const {
      return getAxes().empty() && getDeviceIds().empty();
    }
  }];
}


//===----------------------------------------------------------------------===//
// Axis references
//===----------------------------------------------------------------------===//

def Sdy_SubAxisInfo : Sdy_Attr<"SubAxisInfo", "sub_axis_info"> {
  let summary = "Info about how this sub-axis is derived from the full axis";
  let description = [{
    When splitting a full axis into n sub-axes, the axis is reshaped into
    [k_1,...,k_n], and the ith sub-axis can be expressed by the product of all
    axis sizes to its left `m=prod(k_1,...,k_(i-1))` (aka pre-size) and size
    k_i. Therefore, the sub-axis-info attribute holds those two numbers and is
    denoted as follows: `(m)k` for pre-size m and size k.

    **Constraints:**
    - `pre-size` is at least 1.
    - `size` is greater than 1.
    - `pre-size` must divide the size of the full axis, i.e., both `pre-size`
      and `size` divide the size of the full axis, and the sub-axis doesn't go
      beyond the full axis.
    - The size of the sub-axis isn't equal to the size of the corresponding full
      axis, in which case the full axis should be used instead.
  }];
  let parameters = (ins
    AttrParameter<"int64_t",
        "product of sub-axis sizes to the left of this sub-axis">:$pre_size,
    AttrParameter<"int64_t", "size of this sub-axis">:$size
  );
  // All checks need the mesh (or are done together with it), see
  // verifyAxisRefs in Verifiers/Shardings.cpp.
  let assemblyFormat = "`(` custom<Int64>($pre_size) `)` `` custom<Int64>($size)";
  let extraClassDeclaration = [{
    /// The pre-size of the next sub-axis: `(2)4` -> 8.
    int64_t getNextPreSize() const { return getPreSize() * getSize(); }
  }];
}

def Sdy_AxisRef : Sdy_Attr<"AxisRef", "axis_ref"> {
  let summary = "Reference to either a full axis or a split sub-axis";
  let description = [{
    **Constraints:**
    - `name` must be present in the bound `MeshAttr`.
    - If `sub_axis_info` is present, it must satisfy the constraints of
      `SubAxisInfoAttr`.
  }];
  let parameters = (ins
    StringRefParameter<"name of this axis">:$name,
    OptionalParameter<"SubAxisInfoAttr",
        "additional info if this is a sub axis">:$sub_axis_info
  );
  // `"a"` or `"a":(1)2`.
  let assemblyFormat = "`` custom<AxisRefParams>($name, $sub_axis_info)";
  let extraClassDeclaration = [{
    /// Whether this is a sub-axis, e.g. `"a":(1)2`.
    bool isSubAxis() const { return static_cast<bool>(getSubAxisInfo()); }
    /// The pre-size: 1 for a full axis, `m` for `"a":(m)k`.
    int64_t getPreSize() const {
      return isSubAxis() ? getSubAxisInfo().getPreSize() : 1;
    }
    /// The size: `k` for `"a":(m)k`, the axis size in `mesh` for a full axis
    /// (-1 if `mesh` has no such axis).
    int64_t getSize(MeshAttr mesh) const;
    /// The pre-size of the next sub-axis, `m*k` (see getSize for `mesh`).
    int64_t getNextPreSize(MeshAttr mesh) const {
      return getPreSize() * getSize(mesh);
    }
    /// Orders axis refs as in `mesh` (see lessInMesh in AxisRefs.h).
    static std::function<bool(AxisRefAttr, AxisRefAttr)>
    getMeshComparator(MeshAttr mesh);
  }];
}

def Sdy_AxisRefs : ArrayRefParameter<"AxisRefAttr", "axis refs">;

def Sdy_AxisRefList : Sdy_Attr<"AxisRefList", "axis_ref_list"> {
  let summary = "List of axis refs";
  let description = [{
    **Constraints:**
    - Elements in `value` must satisfy the constraints of `AxisRefAttr`.
    - There are no duplicate axis-refs or sub-axes that overlap with one another.
    - No two adjacent axis-refs are consecutive sub-axes of that same full axis,
      i.e., they can be merged into one sub-axis or the full axis.
  }];
  let parameters = (ins OptionalArrayRefParameter<"AxisRefAttr">:$value);
  // `{"a", "b":(1)2}`.
  let assemblyFormat = "`` custom<AxisRefs>($value)";
  let extraClassDeclaration = [{
    /// Number of axis refs.
    size_t size() const { return getValue().size(); }
    /// Whether the list has no axis refs.
    bool empty() const { return getValue().empty(); }
  }];
}

def Sdy_ListOfAxisRefLists : Sdy_Attr<"ListOfAxisRefLists",
                                      "list_of_axis_ref_lists"> {
  let summary = "List of axis ref lists";
  let parameters = (ins OptionalArrayRefParameter<"AxisRefListAttr">:$value);
  // `[{"a"}, {}]`.
  let assemblyFormat = "`` custom<AxisRefLists>($value)";
}

//===----------------------------------------------------------------------===//
// Shardings
//===----------------------------------------------------------------------===//

def Sdy_DimensionSharding : Sdy_Attr<"DimensionSharding",
                                     "dimension_sharding"> {
  let summary = "Dimension sharding";
  let description = [{
    List of axis names to shard a tensor dimension on from major to minor, a
    boolean indicating whether the dimension can be further sharded, and an
    optional integer denoting the priority of this dimension sharding, which
    will respected during sharding propagation. Priorities originate from user
    sharding annotations and a lower value denotes a higher priority. The
    highest priority is assumed when the priority is missing in the annotation.

    **Constraints:**
    - Elements in `axes` must satisfy the constraints listed in `AxisRefListAttr`.
    - If a dimension sharding has a priority:
      * The priority is greater than or equal to 0.
      * The dimension has at least one axis if it is closed.
  }];
  let parameters = (ins
    Sdy_AxisRefs:$axes,
    AttrParameter<"bool", "whether this dimension can't be further sharded">:$is_closed,
    OptionalParameter<"std::optional<int64_t>",
        "the priority used during user priority based propagation">:$priority
  );
  // `{"a", "b"}` closed, `{"a", ?}` open, `{"a"}p1` with priority 1.
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Whether no axis shards this dimension.
    bool emptyAxes() const { return getAxes().empty(); }
    /// Whether the dimension can be further sharded (`?`).
    bool isOpen() const { return !getIsClosed(); }
  }];
}

def Sdy_TensorSharding : Sdy_Attr<"TensorSharding", "sharding"> {
  let summary = "Tensor sharding";
  let description = [{
    A tensor sharding is bound to a specific mesh, and can only reference axis
    names from that mesh. The dimension shardings tell us for each dimension of
    the tensor, along which axes (or sub-axes) it is sharded from major to
    minor. All other axes that don’t shard a dimension are either implicitly or
    explicitly (if they appear in the list of replicated axes) replicated.

    Note that no sharding attribute on a tensor is equivalent to a fully open
    tensor sharding.

    The mesh this sharding is bound to can either be specified by a symbol
    name, referencing a corresponding `MeshOp` symbol, or an inlined `MeshAttr`.

    A sharding can have unreduced axes (specified by `unreduced_axes`), meaning
    the tensor is unreduced along these axes. For example, if the contracting
    dimension of a matmul is sharded along axis `x` in both the lhs and rhs, the
    result is unreduced along `x`. Applying an all-reduce on the tensor along
    the unreduced axes will make the tensor replicated along those axes.
    However, a tensor with unreduced axes doesn't have to be all-reduced
    immediately, it can remain unreduced when passed to linear operations like
    `stablehlo.add` (as long as both lhs and rhs are unreduced) and all-reduced
    afterwards. We assume the reduction type is sum, other reductions may be
    supported in the future.

    **Constraints:**
    - Elements in `dim_shardings` must satisfy the constraints listed in
      `DimensionShardingAttr`.
    - Elements in `replicated_axes` must satisfy the constraints listed in
      `AxisRefListAttr`.
    - Elements in `unreduced_axes` must satisfy the constraints listed in
      `AxisRefListAttr`.
    - If the corresponding tensor type isn't a `ShapedType`, the sharding must
      have rank 0 and no replicated axes.
    - If it is a `ShapedType`, then:
      - The tensor should have a rank.
      - The number of dimension shardings is equal to the rank of the tensor.
      - Dimensions of size 0 aren't sharded.
    - There are no duplicate axis-refs or sub-axes that overlap with one another
      across `dim_shardings`, `replicated_axes`, and `unreduced_axes`.
    - Items in `replicated_axes` and `unreduced_axes` are ordered w.r.t.
      `mesh_or_ref` (see `AxisRefAttr::getMeshComparator`).
  }];
  let parameters = (ins
    AttrParameter<"::mlir::Attribute",
        "mesh attr or flat mesh symbol reference attr">:$mesh_or_ref,
    OptionalArrayRefParameter<"DimensionShardingAttr",
        "dimension shardings">:$dim_shardings,
    Sdy_AxisRefs:$replicated_axes,
    Sdy_AxisRefs:$unreduced_axes
  );
  // `<@mesh, [{"a", ?}p1, {}], replicated={"c"}, unreduced={"d"}>`; an
  // inlined mesh is written `mesh<["a"=2]>`.
  let assemblyFormat = [{
    `<` custom<MeshOrRef>($mesh_or_ref) `,` custom<DimShardings>($dim_shardings)
    `` custom<ReplicatedAndUnreducedAxes>($replicated_axes, $unreduced_axes) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of dimension shardings.
    int64_t getRank() const { return getDimShardings().size(); }
    /// The mesh symbol name, or null for an inlined mesh.
    ::mlir::FlatSymbolRefAttr getMeshSymName() const {
      return ::llvm::dyn_cast<::mlir::FlatSymbolRefAttr>(getMeshOrRef());
    }
    /// The inlined mesh, or null for a symbol reference.
    MeshAttr getInlinedMesh() const {
      return ::llvm::dyn_cast<MeshAttr>(getMeshOrRef());
    }
    /// The mesh this sharding is bound to: the inlined mesh, or the `sdy.mesh`
    /// found from `op` through the symbol tables (null if there is none).
    MeshAttr getMesh(::mlir::Operation *op) const;
    /// Whether every dimension is closed and has no axes, and there are no
    /// replicated or unreduced axes.
    bool isFullyReplicated() const;
    /// Whether all dimensions are closed.
    bool isFullyClosed() const;
    /// A sharding of `rank` closed empty dimensions on `meshOrRef`.
    static TensorShardingAttr getFullyClosed(::mlir::MLIRContext *ctx,
        int64_t rank, ::mlir::Attribute meshOrRef);
    /// A sharding of `rank` open empty dimensions on `meshOrRef`.
    static TensorShardingAttr getFullyOpen(::mlir::MLIRContext *ctx,
        int64_t rank, ::mlir::Attribute meshOrRef);
  }];
}

def Sdy_TensorShardingPerValue : Sdy_Attr<"TensorShardingPerValue",
                                          "sharding_per_value"> {
  let summary = "Tensor sharding per operand/result of an op";
  let description = [{
    A list of `TensorShardingAttr`s, one for each operand/result of an op.

    **Constraints:**
    - Elements in `shardings` must satisfy the constraints of `TensorShardingAttr`.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"TensorShardingAttr",
        "sharding per value">:$shardings
  );
  let assemblyFormat = "`<` custom<StrippedList>($shardings) `>`";
  let extraClassDeclaration = [{
    /// The sharding of value `index` (null if out of range).
    TensorShardingAttr getSharding(int64_t index) const {
      if (index < 0 || index >= static_cast<int64_t>(getShardings().size()))
        return {};
      return getShardings()[index];
    }
  }];
}

def Sdy_ManualAxes : Sdy_Attr<"ManualAxes", "manual_axes"> {
  let summary = "A list of axes that a ManualComputationOp is manual on";
  let parameters = (ins OptionalArrayRefParameter<"StringAttr">:$value);
  // `{"a", "b"}`.
  let assemblyFormat = "`` custom<AxisNames>($value)";
  let extraClassDeclaration = [{
    /// Whether `axisName` is one of the manual axes.
    bool contains(::llvm::StringRef axisName) const {
      return ::llvm::any_of(getValue(), [&](::mlir::StringAttr name) {
        return name.getValue() == axisName;
      });
    }
    /// Number of manual axes.
    size_t size() const { return getValue().size(); }
    /// Whether there are no manual axes.
    bool empty() const { return getValue().empty(); }
  }];
}

//===----------------------------------------------------------------------===//
// Sharding rules
//===----------------------------------------------------------------------===//

def Sdy_DimMapping : Sdy_Attr<"DimMapping", "dim_mapping"> {
  let summary = "List of factor indices for a dimension";
  let description = [{
    An empty list indicates that this is a null mapping (this is parsed/printed
    with `*`), i.e. the dimension isn't mapped to any factors.

    **Constraints:**
    - There is at least one factor index.
    - Factor indices must be in range [0, `$factor_sizes`).
    - If there are multiple factors, none of them can have size 1.
    - No duplicate factor indices.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t",
        "factors this dimension is mapped to">:$factor_indices
  );
  // Factor names: `i`..`z`, then `z_1`, `z_2`, ...; `ij` is a compound
  // mapping, `*` a null one.
  let hasCustomAssemblyFormat = 1;
}

def Sdy_TensorMapping : Sdy_Attr<"TensorMapping", "tensor_mapping"> {
  let summary = "Factor mappings for each dimension of a tensor.";
  let description = [{
    **Constraints:**
    - Elements in `dim_mappings` must satisfy the constraints in `DimMappingAttr`.
    - No duplicate factors indices across dimensions.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"DimMappingAttr",
        "dimension mappings">:$dim_mappings
  );
  // `[ij, *, k]`.
  let assemblyFormat = "`` custom<DimMappings>($dim_mappings)";
  let extraClassDeclaration = [{
    /// The number of dimensions.
    int64_t getRank() const { return getDimMappings().size(); }
  }];
}

def Sdy_OpShardingRule : Sdy_Attr<"OpShardingRule", "op_sharding_rule"> {
  let summary = "Specifies how an operation can be partitioned.";
  let description = [{
    A sharding rule specifies how an operation can be partitioned according to
    various properties on the op - any attributes, the shape of operands,
    the shape of the results, etc. For example:

    ```
    %0 = stablehlo.add %arg0, %arg1 {
        sdy.sharding_rule = #sdy.op_sharding_rule<
            ([i, j],[i, j])->([i, j])
            {i=8, j=8}>
    } : tensor<8x8xf32>
    ```

    ```
    %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] {
      sdy.sharding_rule = #sdy.op_sharding_rule<
          ([i, k],[k, j])->([i, j])
          {i=8, j=16, k=8}>
    }: (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    ```

    Note that we allow factors with size 1 even though they cannot be sharded,
    this is mainly for completeness as many ops such as pointwise ops have size
    one dimensions that correspond across operands and results.

    **Factor types:**
    - `reduction_factors` contains the indices of factors requiring reduction,
      such as the contracting dimensions in a dot operation. These factors can
      be in operands but not in results.
    - `need_replication_factors` contains the indices of factors requiring full
      replication, such as the sorted dimension in a sort operation.
    - `permutation_factors` contains the indices of factors requiring
      collective-permute if they are sharded, such as the padding dimensions in
      a pad operation.
    - All other factors are considered as pass-through factors, i.e., factors
      that don't require any communication if sharded in the same way across all
      tensors that are mapped to them.

    `blocked_propagation_factors` contains the factors along which shardings are
    not allowed to be propagated. It is orthogonal to the factor types. Namely,
    a blocked-propagation factor can be any of the factor types.

    `is_custom_rule` describes whether this is a rule defined by a user. Users
    can define sharding rules for their custom calls or overwrite the
    pre-defined sharding rules for the standard operations. A custom rule is
    always preserved/never removed.

    **Constraints:**
    - Number of operand/result mappings must match the number of
      operands/results of the op.
    - There is at least one mapping (can't have a rule for an op with no
      operands/results).
    - Rank of each `TensorMappingAttr` matches the rank of the corresponding
      tensor type.
    - For each group of factors (`reduction_factors`,
      `need_replication_factors`, `permutation_factors`):
      * Elements must be in range [0, `$factor_sizes`].
      * No duplicate factor indices within each group and across groups.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t",
        "sizes of all factors in this rule">:$factor_sizes,
    OptionalArrayRefParameter<"TensorMappingAttr",
        "operand mappings">:$operand_mappings,
    OptionalArrayRefParameter<"TensorMappingAttr",
        "result mappings">:$result_mappings,
    OptionalArrayRefParameter<"int64_t",
        "factors requiring reduction">:$reduction_factors,
    OptionalArrayRefParameter<"int64_t",
        "factors requiring full replication">:$need_replication_factors,
    OptionalArrayRefParameter<"int64_t",
        "factors requiring collective-permute">:$permutation_factors,
    OptionalArrayRefParameter<"int64_t",
        "factors along which shardings are not propagated">:$blocked_propagation_factors,
    DefaultValuedParameter<"bool", "false",
        "whether the rule is for a stablehlo.custom_call">:$is_custom_rule
  );
  // `<([i, j],[j, k])->([i, k]) {i=8, j=4, k=16} reduction={j}, custom>`.
  let assemblyFormat = [{
    `<` custom<ShardingRule>($factor_sizes, $operand_mappings, $result_mappings,
        $reduction_factors, $need_replication_factors, $permutation_factors,
        $blocked_propagation_factors, $is_custom_rule) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of factors.
    int64_t getNumFactors() const { return getFactorSizes().size(); }
    /// Whether `factor` is a reduction factor.
    bool isReductionFactor(int64_t factor) const {
      return ::llvm::is_contained(getReductionFactors(), factor);
    }
    /// Whether `factor` is a need-replication factor.
    bool isNeedReplicationFactor(int64_t factor) const {
      return ::llvm::is_contained(getNeedReplicationFactors(), factor);
    }
    /// Whether `factor` is a permutation factor.
    bool isPermutationFactor(int64_t factor) const {
      return ::llvm::is_contained(getPermutationFactors(), factor);
    }
    /// Whether propagation is blocked along `factor`.
    bool isBlockedPropagationFactor(int64_t factor) const {
      return ::llvm::is_contained(getBlockedPropagationFactors(), factor);
    }
    /// Whether `factor` is neither reduction, need-replication nor
    /// permutation.
    bool isPassThroughFactor(int64_t factor) const {
      return !isReductionFactor(factor) && !isNeedReplicationFactor(factor) &&
             !isPermutationFactor(factor);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Collective parameters
//===----------------------------------------------------------------------===//

def Sdy_AllToAllParam : Sdy_Attr<"AllToAllParam", "all_to_all_param"> {
  let summary = "All-to-all parameter";
  let description = [{
    A tuple containing the axes and source/target dimensions to perform
    all-to-all on.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"AxisRefAttr",
        "the axes to perform all-to-all on">:$axes,
    AttrParameter<"int64_t", "the source dimension index">:$src_dim,
    AttrParameter<"int64_t", "the target dimension index">:$tgt_dim
  );
  // `{"b"}: 0->2`.
  let assemblyFormat = "`` custom<AllToAllParam>($axes, $src_dim, $tgt_dim)";
}

def Sdy_AllToAllParamList : Sdy_Attr<"AllToAllParamList",
                                     "all_to_all_param_list"> {
  let summary = "List of all-to-all parameters";
  let parameters = (ins OptionalArrayRefParameter<"AllToAllParamAttr">:$value);
  // `[{"b"}: 0->2, {"c"}: 1->3]`.
  let assemblyFormat = "`` custom<StrippedList>($value)";
}

//===----------------------------------------------------------------------===//
// Propagation debugging metadata
//===----------------------------------------------------------------------===//

def Sdy_EdgeValueRef : Sdy_Attr<"EdgeValueRef", "edge_value_ref"> {
  let summary =
      "Reference to a particular index of a value edge of type `type`.";
  let parameters = (ins
    EnumParameter<Sdy_EdgeNodeType>:$type,
    AttrParameter<"int64_t", "The integer index (0, 1, 2, etc.)">:$index
  );
  // `operand-0`, `result-1`.
  let assemblyFormat = "custom<EdgeValueRefParams>($type, $index)";
}

def Sdy_AxisToPropagationDetails : Sdy_Attr<"AxisToPropagationDetails",
                                             "axis_to_propagation_details"> {
  let summary = "Propagation edge flow details for a specific axis and source.";
  let description = [{
    Maps a source value reference to a list of target value references along a particular axis.
  }];
  let parameters = (ins
    Sdy_AxisRef:$axis_name,
    Sdy_EdgeValueRef:$source,
    OptionalArrayRefParameter<"EdgeValueRefAttr",
        "list of edge target values">:$targets
  );
  // `{"a" = operand-0 -> [result-0, result-1]}`.
  let assemblyFormat = [{
    `{` `` custom<AxisRef>($axis_name) `=` custom<EdgeValueRef>($source) `->`
    custom<EdgeValueRefs>($targets) `}`
  }];
}

def Sdy_PropagationOneStep : Sdy_Attr<"PropagationOneStep",
                                      "propagation_one_step"> {
  let summary = "Per-step propagation metadata.";
  let description = [{
    Propagation details for all axes for a single propagation step.
  }];
  let parameters = (ins
    AttrParameter<"int64_t", "step index">:$step_index,
    OptionalArrayRefParameter<"AxisToPropagationDetailsAttr",
        "Axis propagation details per propagation decision">:$axis_entries
  );
  // `{step-0 = [{"a" = operand-0 -> [result-0]}]}`.
  let assemblyFormat = [{
    `{` `` `step` `` `-` `` custom<Int64>($step_index) `=` custom<StrippedList>($axis_entries) `}`
  }];
}

def Sdy_PropagationEdges : Sdy_Attr<"PropagationEdges", "propagation_edges"> {
  let summary = "Propagation edge metadata for all propagation steps.";
  let description = [{
    A list of per-axis propagation details for a value, grouped by step index.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"PropagationOneStepAttr">:$value
  );
  let assemblyFormat = "`<` custom<StrippedList>($value) `>`";
}

#endif // MESHSDY_DIALECT_SDY_IR_SDYATTRS_TD
