//===- SdyEnums.td - sdy dialect enums ---------------------*- tablegen -*-===//

#ifndef MESHSDY_DIALECT_SDY_IR_SDYENUMS_TD
#define MESHSDY_DIALECT_SDY_IR_SDYENUMS_TD

include "meshsdy/Dialect/Sdy/IR/SdyBase.td"
include "mlir/IR/EnumAttr.td"

def Sdy_PropagationDirection : I32EnumAttr<"PropagationDirection",
    "propagation direction enum", [
      I32EnumAttrCase<"NONE", 0>,
      I32EnumAttrCase<"FORWARD", 1>,
      I32EnumAttrCase<"BACKWARD", 2>,
      I32EnumAttrCase<"BOTH", 3>]> {
  let cppNamespace = "::mlir::sdy";
}

def Sdy_EdgeNodeType : I32EnumAttr<"EdgeNodeType", "edge node type enum", [
      I32EnumAttrCase<"OPERAND", 0, "operand">,
      I32EnumAttrCase<"RESULT", 1, "result">]> {
  let cppNamespace = "::mlir::sdy";
  let genSpecializedAttr = 0;
}

#endif // MESHSDY_DIALECT_SDY_IR_SDYENUMS_TD
