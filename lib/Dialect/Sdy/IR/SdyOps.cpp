//===- SdyOps.cpp - sdy dialect operations --------------------------------===//
//
// Op syntax helpers, type inference and interface methods. Verifiers live in
// Verifiers/, canonicalizations in Canonicalization.cpp.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::sdy;

//===----------------------------------------------------------------------===//
// custom<StrippedTensorShardingPerValueAttr>: `[<@mesh, [{"a"}]>, ...]`
//===----------------------------------------------------------------------===//

static ParseResult
parseStrippedTensorShardingPerValueAttr(OpAsmParser &parser,
                                        TensorShardingPerValueAttr &attr) {
  SmallVector<TensorShardingAttr> shardings;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            auto sharding = dyn_cast_or_null<TensorShardingAttr>(
                TensorShardingAttr::parse(parser, Type()));
            if (!sharding)
              return failure();
            shardings.push_back(sharding);
            return success();
          }))
    return failure();
  attr = TensorShardingPerValueAttr::get(parser.getContext(), shardings);
  return success();
}

static void printStrippedTensorShardingPerValueAttr(
    OpAsmPrinter &printer, Operation *, TensorShardingPerValueAttr attr) {
  printer << "[";
  llvm::interleaveComma(attr.getShardings(), printer,
                        [&](TensorShardingAttr sharding) {
                          sharding.print(printer);
                        });
  printer << "]";
}

//===----------------------------------------------------------------------===//
// custom<SingleBlockRegionNoBlockId>: `(%arg0: tensor<8xf32>) { ... }`
//===----------------------------------------------------------------------===//

static ParseResult parseSingleBlockRegionNoBlockId(OpAsmParser &parser,
                                                   Region &region) {
  SmallVector<OpAsmParser::Argument> args;
  // Both ops are IsolatedFromAbove: their bodies are a name scope of their
  // own. Parsed as an open scope, a definition inside resolved a forward
  // reference outside, and a later parse error destroyed it while the
  // outer op still used it (an abort).
  if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseRegion(region, args, /*enableNameShadowing=*/true))
    return failure();
  // The terminator may be omitted when it returns nothing.
  if (region.empty())
    region.emplaceBlock();
  Block &block = region.front();
  if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>()) {
    OpBuilder builder(parser.getContext());
    builder.setInsertionPointToEnd(&block);
    ReturnOp::create(builder, builder.getUnknownLoc());
  }
  return success();
}

static void printSingleBlockRegionNoBlockId(OpAsmPrinter &printer, Operation *,
                                            Region &region) {
  printer << "(";
  if (!region.empty())
    llvm::interleaveComma(region.getArguments(), printer,
                          [&](BlockArgument arg) {
                            printer.printRegionArgument(arg);
                          });
  printer << ") ";
  printer.printRegion(region, /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

#define GET_OP_CLASSES
#include "meshsdy/Dialect/Sdy/IR/SdyOps.cpp.inc"

#include "meshsdy/Dialect/Sdy/IR/SdyInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  Attribute value;
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseAttribute(value))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(loc, "expected a constant vector/tensor "
                                 "attribute, got ")
           << value;
  result.addAttribute(getValueAttrName(result.name), elements);
  result.addTypes(elements.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDict((*this)->getAttrs(), {getValueAttrName()});
  printer << " ";
  printer.printAttribute(getValue());
}

LogicalResult ConstantOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Attribute value;
  if (properties)
    value = properties.as<Properties *>()->value;
  else if (attributes)
    value = attributes.get("value");
  auto elements = dyn_cast_or_null<ElementsAttr>(value);
  if (!elements) {
    if (location)
      mlir::emitError(*location, "'sdy.constant' op expected a 'value' attribute");
    return failure();
  }
  inferredReturnTypes.push_back(elements.getType());
  return success();
}

//===----------------------------------------------------------------------===//
// ShardingGroupOp
//===----------------------------------------------------------------------===//

LogicalResult ShardingGroupOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &) {
  return success();
}

//===----------------------------------------------------------------------===//
// NamedComputationOp
//===----------------------------------------------------------------------===//

LogicalResult NamedComputationOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange,
    DictionaryAttr, OpaqueProperties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  auto fail = [&]() {
    if (location)
      mlir::emitError(*location, "'sdy.named_computation' op expected a body "
                           "terminated by 'sdy.return'");
    return failure();
  };
  if (regions.empty() || !regions.front() || regions.front()->empty())
    return fail();
  Block &block = regions.front()->front();
  if (block.empty())
    return fail();
  auto returnOp = dyn_cast<ReturnOp>(block.back());
  if (!returnOp)
    return fail();
  llvm::append_range(inferredReturnTypes, returnOp.getOperandTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// ShardableDataFlowOpInterface for the region ops
//===----------------------------------------------------------------------===//

namespace {
/// Shared edge structure of manual_computation and named_computation: the
/// i-th operand flows to the i-th block argument, the i-th operand of the
/// terminator to the i-th result. Every target owns its edge.
template <typename OpTy>
struct RegionOpEdges {
  static SmallVector<OpOperand *> getEdgeSources(OpTy op, Value owner) {
    if (auto result = dyn_cast<OpResult>(owner)) {
      if (result.getOwner() != op.getOperation() || op.getBody().empty())
        return {};
      Operation *terminator = op.getBody().front().getTerminator();
      if (!terminator ||
          result.getResultNumber() >= terminator->getNumOperands())
        return {};
      return {&terminator->getOpOperand(result.getResultNumber())};
    }
    auto arg = dyn_cast<BlockArgument>(owner);
    if (!arg || arg.getOwner()->getParentOp() != op.getOperation() ||
        arg.getArgNumber() >= op->getNumOperands())
      return {};
    return {&op->getOpOperand(arg.getArgNumber())};
  }

  static Value getEdgeOwnerFromTarget(OpTy op, Value target) {
    if (auto result = dyn_cast<OpResult>(target))
      return result.getOwner() == op.getOperation() ? target : Value();
    auto arg = dyn_cast<BlockArgument>(target);
    return arg && arg.getOwner()->getParentOp() == op.getOperation() ? target
                                                                     : Value();
  }

  static Value getEdgeOwnerFromSource(OpTy op, OpOperand &source) {
    Operation *owner = source.getOwner();
    if (owner == op.getOperation()) {
      if (op.getBody().empty() ||
          source.getOperandNumber() >= op.getBody().getNumArguments())
        return {};
      return op.getBody().getArgument(source.getOperandNumber());
    }
    if (owner->getParentOp() == op.getOperation() &&
        owner->hasTrait<OpTrait::IsTerminator>() &&
        source.getOperandNumber() < op->getNumResults())
      return op->getResult(source.getOperandNumber());
    return {};
  }
};
} // namespace

ArrayRef<TensorShardingAttr>
ManualComputationOp::getBlockArgumentEdgeOwnerShardings() {
  return getInShardings().getShardings();
}

void ManualComputationOp::setBlockArgumentEdgeOwnerShardings(
    ArrayRef<TensorShardingAttr> shardings) {
  setInShardingsAttr(TensorShardingPerValueAttr::get(getContext(), shardings));
}

ArrayRef<TensorShardingAttr>
ManualComputationOp::getOpResultEdgeOwnerShardings() {
  return getOutShardings().getShardings();
}

void ManualComputationOp::setOpResultEdgeOwnerShardings(
    ArrayRef<TensorShardingAttr> shardings) {
  setOutShardingsAttr(TensorShardingPerValueAttr::get(getContext(), shardings));
}

ArrayRef<BlockArgument> ManualComputationOp::getBlockArgumentEdgeOwners() {
  if (getBody().empty())
    return {};
  return getBody().getArguments();
}

SmallVector<OpOperand *> ManualComputationOp::getEdgeSources(Value owner) {
  return RegionOpEdges<ManualComputationOp>::getEdgeSources(*this, owner);
}

Value ManualComputationOp::getEdgeOwnerFromTarget(Value target) {
  return RegionOpEdges<ManualComputationOp>::getEdgeOwnerFromTarget(*this,
                                                                    target);
}

Value ManualComputationOp::getEdgeOwnerFromSource(OpOperand &source) {
  return RegionOpEdges<ManualComputationOp>::getEdgeOwnerFromSource(*this,
                                                                    source);
}

SmallVector<Value> ManualComputationOp::getNonEdgeOwnerTargets(Value) {
  return {};
}

ArrayRef<TensorShardingAttr>
NamedComputationOp::getBlockArgumentEdgeOwnerShardings() {
  if (TensorShardingPerValueAttr shardings = getInShardingsAttr())
    return shardings.getShardings();
  return {};
}

void NamedComputationOp::setBlockArgumentEdgeOwnerShardings(
    ArrayRef<TensorShardingAttr> shardings) {
  setInShardingsAttr(TensorShardingPerValueAttr::get(getContext(), shardings));
}

ArrayRef<TensorShardingAttr>
NamedComputationOp::getOpResultEdgeOwnerShardings() {
  if (TensorShardingPerValueAttr shardings = getOutShardingsAttr())
    return shardings.getShardings();
  return {};
}

void NamedComputationOp::setOpResultEdgeOwnerShardings(
    ArrayRef<TensorShardingAttr> shardings) {
  setOutShardingsAttr(TensorShardingPerValueAttr::get(getContext(), shardings));
}

ArrayRef<BlockArgument> NamedComputationOp::getBlockArgumentEdgeOwners() {
  if (getBody().empty())
    return {};
  return getBody().getArguments();
}

SmallVector<OpOperand *> NamedComputationOp::getEdgeSources(Value owner) {
  return RegionOpEdges<NamedComputationOp>::getEdgeSources(*this, owner);
}

Value NamedComputationOp::getEdgeOwnerFromTarget(Value target) {
  return RegionOpEdges<NamedComputationOp>::getEdgeOwnerFromTarget(*this,
                                                                   target);
}

Value NamedComputationOp::getEdgeOwnerFromSource(OpOperand &source) {
  return RegionOpEdges<NamedComputationOp>::getEdgeOwnerFromSource(*this,
                                                                   source);
}
