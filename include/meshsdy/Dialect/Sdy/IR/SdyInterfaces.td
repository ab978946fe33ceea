//===- SdyInterfaces.td - sdy op interfaces ----------------*- tablegen -*-===//

#ifndef MESHSDY_DIALECT_SDY_IR_SDYINTERFACES_TD
#define MESHSDY_DIALECT_SDY_IR_SDYINTERFACES_TD

include "mlir/IR/OpBase.td"

def Sdy_CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let cppNamespace = "::mlir::sdy";
  let description = [{
    An sdy collective: one tensor operand, one result of the same type, and an
    `out_sharding` that must equal the operand's sharding transformed by the
    collective.

    **Constraints:**
    - The operand has a sharding, unless `allowMissingInputSharding()`.
    - `out_sharding` satisfies the constraints of `TensorShardingAttr` for the
      result type.
    - The operand sharding and `out_sharding` are bound to the same mesh,
      unless `allowDifferentMeshes()` (then the meshes must have the same axes).
  }];
  let methods = [
    InterfaceMethod<"The tensor operand.", "::mlir::TypedValue<::mlir::ShapedType>",
        "getTensor">,
    InterfaceMethod<"The result.", "::mlir::TypedValue<::mlir::ShapedType>",
        "getResult">,
    InterfaceMethod<"The sharding of the result.",
        "::mlir::sdy::TensorShardingAttr", "getOutSharding">,
    InterfaceMethod<"Sets the sharding of the result.", "void",
        "setOutShardingAttr", (ins "::mlir::sdy::TensorShardingAttr":$sharding)>,
    InterfaceMethod<"Whether the operand and result may be bound to different "
        "meshes.", "bool", "allowDifferentMeshes", (ins), "",
        "return false;">,
    InterfaceMethod<"Whether the operand may have no sharding (then it is "
        "fully replicated on the mesh of `out_sharding`).", "bool",
        "allowMissingInputSharding", (ins), "", "return false;">,
  ];
  let verify = [{
    return ::mlir::sdy::verifyCollectiveOp($_op);
  }];
}

def Sdy_ShardableDataFlowOpInterface
    : OpInterface<"ShardableDataFlowOpInterface"> {
  let cppNamespace = "::mlir::sdy";
  let description = [{
    An op whose values are connected by data flow edges (see
    `sdy.data_flow_edge`): each edge links sources (operands of the op or of
    its terminators) to targets (results of the op or its block arguments),
    which propagation shards alike. An edge is identified by its owner, a
    result or a block argument; the owner's sharding is stored by the op.
  }];
  let methods = [
    InterfaceMethod<"Shardings of the block-argument edge owners (null if "
        "the op has none).", "::mlir::ArrayRef<::mlir::sdy::TensorShardingAttr>",
        "getBlockArgumentEdgeOwnerShardings">,
    InterfaceMethod<"Sets the shardings of the block-argument edge owners.",
        "void", "setBlockArgumentEdgeOwnerShardings",
        (ins "::mlir::ArrayRef<::mlir::sdy::TensorShardingAttr>":$shardings)>,
    InterfaceMethod<"Shardings of the result edge owners.",
        "::mlir::ArrayRef<::mlir::sdy::TensorShardingAttr>",
        "getOpResultEdgeOwnerShardings">,
    InterfaceMethod<"Sets the shardings of the result edge owners.", "void",
        "setOpResultEdgeOwnerShardings",
        (ins "::mlir::ArrayRef<::mlir::sdy::TensorShardingAttr>":$shardings)>,
    InterfaceMethod<"Block arguments that own an edge.",
        "::mlir::ArrayRef<::mlir::BlockArgument>", "getBlockArgumentEdgeOwners">,
    InterfaceMethod<"Results that own an edge.", "::mlir::ResultRange",
        "getOpResultEdgeOwners", (ins), "", "return $_op->getResults();">,
    InterfaceMethod<"The sources of the edge owned by `owner`.",
        "::llvm::SmallVector<::mlir::OpOperand *>", "getEdgeSources",
        (ins "::mlir::Value":$owner)>,
    InterfaceMethod<"The owner of the edge `target` belongs to (null if "
        "`target` is not a target of this op).", "::mlir::Value",
        "getEdgeOwnerFromTarget", (ins "::mlir::Value":$target)>,
    InterfaceMethod<"The owner of the edge `source` belongs to (null if "
        "`source` is not a source of this op).", "::mlir::Value",
        "getEdgeOwnerFromSource", (ins "::mlir::OpOperand &":$source)>,
    InterfaceMethod<"Targets of the edge owned by `owner`, other than `owner`.",
        "::llvm::SmallVector<::mlir::Value>", "getNonEdgeOwnerTargets",
        (ins "::mlir::Value":$owner), "", "return {};">,
    InterfaceMethod<"The sharding of edge owner `owner` (null if none).",
        "::mlir::sdy::TensorShardingAttr", "getEdgeOwnerSharding",
        (ins "::mlir::Value":$owner), "", [{
          ::mlir::ArrayRef<::mlir::sdy::TensorShardingAttr> shardings;
          int64_t index = -1;
          if (auto result = ::llvm::dyn_cast<::mlir::OpResult>(owner)) {
            shardings = $_op.getOpResultEdgeOwnerShardings();
            index = result.getResultNumber();
          } else if (auto arg = ::llvm::dyn_cast<::mlir::BlockArgument>(owner)) {
            shardings = $_op.getBlockArgumentEdgeOwnerShardings();
            index = arg.getArgNumber();
          }
          if (index < 0 || index >= static_cast<int64_t>(shardings.size()))
            return {};
          return shardings[index];
        }]>,
  ];
}

def Sdy_ShardingRuleOpInterface : OpInterface<"ShardingRuleOpInterface"> {
  let cppNamespace = "::mlir::sdy";
  let description = [{
    An op whose operands and results can be described by an
    `OpShardingRuleAttr`: each tensor dimension maps to one or more factors,
    and sharding a factor shards every dimension mapped to it. Sharding
    propagation reads ops only through this interface (and through
    `ShardableDataFlowOpInterface` for ops with regions); upstream ops get it
    through external models (`lib/Interfaces/`). An `sdy.sharding_rule`
    attribute written on an op takes precedence over its model (see
    `mlir::sdy::getShardingRule`).
  }];
  let methods = [
    InterfaceMethod<"The op's sharding rule, or null if this instance of the "
        "op cannot be described by one (e.g. dynamic shapes).",
        "::mlir::sdy::OpShardingRuleAttr", "getShardingRule">,
    InterfaceMethod<"Whether the rule is a function of the op's name, "
        "inherent attributes (properties) and operand and result types "
        "alone: propagation then builds one rule for all ops alike in those. "
        "Models that look further (at regions, producers or users) keep the "
        "default.",
        "bool", "isRuleDeterminedBySignature", (ins), "",
        [{ return false; }]>,
  ];
}

#endif // MESHSDY_DIALECT_SDY_IR_SDYINTERFACES_TD
