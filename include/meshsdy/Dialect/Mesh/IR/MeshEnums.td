//===- MeshEnums.td - mesh dialect enums -------------------*- tablegen -*-===//
//
// Kept apart from the attributes so that `-gen-python-enum-bindings` can run
// on this file alone (the attribute wrapping it has a hand-written syntax).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_IR_MESHENUMS_TD
#define MESHSDY_DIALECT_MESH_IR_MESHENUMS_TD

include "mlir/IR/EnumAttr.td"

def Mesh_ReductionKind : I32EnumAttr<"ReductionKind",
    "Reduction of an iterator/mesh dimension.", [
  I32EnumAttrCase<"Sum", 1, "sum">,
  I32EnumAttrCase<"Max", 2, "max">,
  I32EnumAttrCase<"Min", 3, "min">,
  I32EnumAttrCase<"Product", 4, "product">,
  // The arithmetic mean of the group's values.
  I32EnumAttrCase<"Average", 5, "average">,
  I32EnumAttrCase<"BitwiseAnd", 6, "bitwise_and">,
  I32EnumAttrCase<"BitwiseOr", 7, "bitwise_or">,
  I32EnumAttrCase<"BitwiseXor", 8, "bitwise_xor">,
  // A reduction the dialect does not name; not allowed in a sharding.
  I32EnumAttrCase<"Generic", 100, "generic">
]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::mesh";
}

#endif // MESHSDY_DIALECT_MESH_IR_MESHENUMS_TD
