//===- RegionOps.cpp - verifiers of manual/named computations -------------===//

#include "Verifiers.h"

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::sdy;

/// The `sdy.return` ending `region`'s single block (null if there is none;
/// SingleBlockImplicitTerminator then reports it after the op verifier).
static Operation *getTerminator(Region &region) {
  if (region.empty() || region.front().empty())
    return nullptr;
  Operation &last = region.front().back();
  return isa<ReturnOp>(last) ? &last : nullptr;
}

//===----------------------------------------------------------------------===//
// manual_computation
//===----------------------------------------------------------------------===//

LogicalResult ManualComputationOp::verify() {
  size_t numIn = getInShardings().getShardings().size();
  size_t numOut = getOutShardings().getShardings().size();
  if (numIn != getNumOperands())
    return emitOpError("in_shardings shardings don't match number of "
                       "operands: ")
           << numIn << " != " << getNumOperands();
  if (numOut != getNumResults())
    return emitOpError("out_shardings shardings don't match number of "
                       "results: ")
           << numOut << " != " << getNumResults();
  if (getBody().empty())
    return emitOpError("expected a body");
  if (getBody().getNumArguments() != getNumOperands())
    return emitOpError("number of block arguments doesn't match the number "
                       "of operands: ")
           << getBody().getNumArguments() << " != " << getNumOperands();
  Operation *terminator = getTerminator(getBody());
  if (terminator && terminator->getNumOperands() != getNumResults())
    return emitOpError("number of returned values doesn't match the number "
                       "of results: ")
           << terminator->getNumOperands() << " != " << getNumResults();
  for (auto [index, name] : llvm::enumerate(getManualAxes().getValue())) {
    if (!name || name.getValue().empty())
      return emitOpError("manual axis ") << index << " has no name";
    for (StringAttr other : getManualAxes().getValue().take_front(index))
      if (other == name)
        return emitOpError("duplicate manual axis \"")
               << name.getValue() << "\"";
  }
  return success();
}

/// Checks one value of a manual computation: sharding on the global type,
/// manual axes before free ones, no padding, and the local type.
static LogicalResult verifyManualValue(ManualComputationOp op,
                                       TensorShardingAttr sharding,
                                       Type globalType, Type localType,
                                       StringRef where, MeshAttr mesh) {
  ManualAxesAttr manualAxes = op.getManualAxes();
  auto isManual = [&](AxisRefAttr axis) {
    return manualAxes.contains(axis.getName());
  };
  SmallVector<int64_t> manualSizes;
  for (auto [dim, dimSharding] : llvm::enumerate(sharding.getDimShardings())) {
    AxisRefAttr firstFree;
    int64_t manualSize = 1;
    for (AxisRefAttr axis : dimSharding.getAxes()) {
      if (!isManual(axis)) {
        if (!firstFree)
          firstFree = axis;
        continue;
      }
      if (firstFree)
        return op.emitOpError(where)
               << "manual axis " << axisRefToString(axis)
               << " comes after free axis " << axisRefToString(firstFree)
               << " in dim " << dim;
      manualSize *= axis.getSize(mesh);
    }
    manualSizes.push_back(manualSize);
  }

  auto globalShaped = dyn_cast<RankedTensorType>(globalType);
  if (!globalShaped) {
    if (globalType != localType)
      return op.emitOpError(where)
             << "expected local type " << globalType << ", got " << localType;
    return success();
  }
  SmallVector<int64_t> localShape(globalShaped.getShape());
  for (auto [dim, size] : llvm::enumerate(localShape)) {
    if (ShapedType::isDynamic(size))
      continue;
    if (size % manualSizes[dim] != 0)
      return op.emitOpError(where)
             << "dim " << dim << " of size " << size
             << " is not divisible by the size of its manual axes "
             << manualSizes[dim];
    size /= manualSizes[dim];
  }
  Type expected = globalShaped.clone(localShape);
  if (expected != localType)
    return op.emitOpError(where)
           << "expected local type " << expected << ", got " << localType;
  return success();
}

LogicalResult
ManualComputationOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (failed(verifyShardingPerValue(getInShardings(), getOperandTypes(),
                                    "operand", *this, &symbols,
                                    "in_shardings ")) ||
      failed(verifyShardingPerValue(getOutShardings(), getResultTypes(),
                                    "result", *this, &symbols,
                                    "out_shardings ")))
    return failure();

  // All shardings are bound to one mesh; the manual axes come from it.
  SmallVector<TensorShardingAttr> all(getInShardings().getShardings());
  llvm::append_range(all, getOutShardings().getShardings());
  if (all.empty())
    return success();
  Attribute meshOrRef = all.front().getMeshOrRef();
  for (TensorShardingAttr sharding : all)
    if (sharding.getMeshOrRef() != meshOrRef)
      return emitOpError("all in/out shardings must be bound to the same "
                         "mesh: ")
             << meshOrRef << " != " << sharding.getMeshOrRef();
  MeshAttr mesh = resolveMesh(meshOrRef, *this, &symbols,
                              [&]() { return emitOpError(); });
  if (!mesh)
    return failure();
  ArrayRef<StringAttr> manualAxes = getManualAxes().getValue();
  for (StringAttr name : manualAxes)
    if (!mesh.getAxis(name.getValue()))
      return emitOpError("unknown manual axis \"")
             << name.getValue() << "\" in mesh " << mesh;
  auto indexOf = [&](StringAttr name) {
    for (auto [index, axis] : llvm::enumerate(mesh.getAxes()))
      if (axis.getName() == name.getValue())
        return static_cast<int64_t>(index);
    return int64_t{-1};
  };
  for (size_t i = 1; i < manualAxes.size(); ++i)
    if (indexOf(manualAxes[i - 1]) > indexOf(manualAxes[i]))
      return emitOpError("manual axes are not ordered w.r.t. the mesh: \"")
             << manualAxes[i - 1].getValue() << "\" comes before \""
             << manualAxes[i].getValue() << "\"";

  Block &body = getBody().front();
  for (auto [index, sharding] :
       llvm::enumerate(getInShardings().getShardings()))
    if (failed(verifyManualValue(
            *this, sharding, getOperand(index).getType(),
            body.getArgument(index).getType(),
            ("operand " + Twine(index) + " - ").str(), mesh)))
      return failure();
  Operation *terminator = getTerminator(getBody());
  if (!terminator)
    return success();
  for (auto [index, sharding] :
       llvm::enumerate(getOutShardings().getShardings()))
    if (failed(verifyManualValue(
            *this, sharding, getResult(index).getType(),
            terminator->getOperand(index).getType(),
            ("result " + Twine(index) + " - ").str(), mesh)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// named_computation
//===----------------------------------------------------------------------===//

LogicalResult NamedComputationOp::verify() {
  if (getBody().empty())
    return emitOpError("expected a body");
  Block &body = getBody().front();
  if (body.getNumArguments() != getNumOperands())
    return emitOpError("number of block arguments doesn't match the number "
                       "of operands: ")
           << body.getNumArguments() << " != " << getNumOperands();
  for (auto [index, arg, type] :
       llvm::enumerate(body.getArguments(), getOperandTypes()))
    if (arg.getType() != type)
      return emitOpError("block argument ")
             << index << " has type " << arg.getType()
             << " but the operand has type " << type;
  if (TensorShardingPerValueAttr in = getInShardingsAttr();
      in && in.getShardings().size() != getNumOperands())
    return emitOpError("in_shardings shardings don't match number of "
                       "operands: ")
           << in.getShardings().size() << " != " << getNumOperands();
  if (TensorShardingPerValueAttr out = getOutShardingsAttr();
      out && out.getShardings().size() != getNumResults())
    return emitOpError("out_shardings shardings don't match number of "
                       "results: ")
           << out.getShardings().size() << " != " << getNumResults();
  return success();
}

LogicalResult
NamedComputationOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (TensorShardingPerValueAttr in = getInShardingsAttr())
    if (failed(verifyShardingPerValue(in, getOperandTypes(), "operand", *this,
                                      &symbols, "in_shardings ")))
      return failure();
  if (TensorShardingPerValueAttr out = getOutShardingsAttr())
    if (failed(verifyShardingPerValue(out, getResultTypes(), "result", *this,
                                      &symbols, "out_shardings ")))
      return failure();
  return success();
}
