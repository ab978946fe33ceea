//===- SdyAttrs.td - sdy dialect attributes ----------------*- tablegen -*-===//

#ifndef MESHSDY_DIALECT_SDY_IR_SDYATTRS_TD
#define MESHSDY_DIALECT_SDY_IR_SDYATTRS_TD

include "meshsdy/Dialect/Sdy/IR/SdyBase.td"

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
  let assemblyFormat = "`` $name `` `=` `` $size";
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
            - Axis names are not empty and axis sizes are positive.
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
    `<` `[` (`]`) : ($axes^ `]`)? (`,` `device_ids` `` `=` `` `[` $device_ids^ `]`)? `>`
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

#endif // MESHSDY_DIALECT_SDY_IR_SDYATTRS_TD
