//===- Collectives.cpp - verifiers of the sdy collectives -----------------===//
//
// CollectiveOpInterface::verify (verifyCollectiveOp) checks what needs no
// mesh; each collective's verifySymbolUses resolves the meshes through
// verifyCollectiveSymbolUses and then checks that applying the collective to
// the operand sharding gives `out_sharding`.
//
//===----------------------------------------------------------------------===//

#include "Verifiers.h"

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::sdy;

LogicalResult mlir::sdy::verifyCollectiveOp(Operation *rawOp) {
  auto op = dyn_cast<CollectiveOpInterface>(rawOp);
  if (!op)
    return rawOp->emitOpError("is not a collective");
  TensorShardingAttr inSharding = getSharding(op.getTensor());
  if (!inSharding) {
    if (op.allowMissingInputSharding())
      return success();
    return op->emitOpError("collective on operand without sharding");
  }
  TensorShardingAttr outSharding = op.getOutSharding();
  if (inSharding.getRank() != outSharding.getRank())
    return op->emitOpError("operand sharding and out_sharding have different "
                           "ranks: ")
           << inSharding.getRank() << " != " << outSharding.getRank();
  if (!op.allowDifferentMeshes() &&
      inSharding.getMeshOrRef() != outSharding.getMeshOrRef())
    return op->emitOpError("operand sharding and out_sharding must be bound "
                           "to the same mesh: ")
           << inSharding.getMeshOrRef() << " != "
           << outSharding.getMeshOrRef();
  return success();
}

LogicalResult mlir::sdy::verifyCollectiveSymbolUses(
    CollectiveOpInterface op, SymbolTableCollection &symbols,
    TensorShardingAttr &inSharding, MeshAttr &mesh) {
  TensorShardingAttr outSharding = op.getOutSharding();
  if (failed(verifyTensorSharding(
          outSharding, op.getResult().getType(), op, &symbols,
          [&]() { return emitOpErrorWithPrefix(op, "out_sharding - "); },
          &mesh)))
    return failure();
  inSharding = getSharding(op.getTensor());
  if (!inSharding) {
    // Verified: allowMissingInputSharding(). Replicated on the same mesh.
    inSharding = TensorShardingAttr::getFullyClosed(
        op->getContext(), outSharding.getRank(), outSharding.getMeshOrRef());
    return success();
  }
  if (!op.allowDifferentMeshes())
    return success();
  MeshAttr inMesh =
      resolveMesh(inSharding.getMeshOrRef(), op, &symbols,
                  [&]() { return emitOpErrorWithPrefix(op, "operand - "); });
  if (!inMesh)
    return failure();
  if (inSharding.getMeshOrRef() == outSharding.getMeshOrRef())
    return success();
  if (inMesh.getAxes() != mesh.getAxes())
    return op->emitOpError("operand and out_sharding meshes must have the "
                           "same axes: ")
           << inMesh << " vs " << mesh;
  if (inMesh.getDeviceIds() == mesh.getDeviceIds())
    return op->emitOpError("operand and out_sharding are bound to different "
                           "meshes with the same device order; use one mesh");
  return success();
}

/// Verifies each list of `lists` and that there is one per dimension.
static LogicalResult verifyPerDimAxes(Operation *op, StringRef name,
                                      ArrayRef<AxisRefListAttr> lists,
                                      int64_t rank, MeshAttr mesh) {
  if (static_cast<int64_t>(lists.size()) != rank)
    return op->emitOpError()
           << name << " must have one axis list per dimension: "
           << lists.size() << " != " << rank;
  for (auto [dim, list] : llvm::enumerate(lists)) {
    std::string prefix = (name + " dim " + Twine(dim) + " - ").str();
    if (failed(verifyAxisRefList(list.getValue(), mesh, [&]() {
          return emitOpErrorWithPrefix(op, prefix);
        })))
      return failure();
  }
  return success();
}

/// Checks that `expected[d]` are the axes of dim d of `outSharding`.
static LogicalResult
verifyExpectedDims(Operation *op, StringRef what,
                   ArrayRef<SmallVector<AxisRefAttr>> expected,
                   TensorShardingAttr outSharding) {
  // Consecutive sub-axes count as the axis they make up: {"y":(1)2,
  // "y":(2)2} is {"y"} on "y"=4.
  MeshAttr mesh = outSharding.getMesh(op);
  auto merged = [&](ArrayRef<AxisRefAttr> axes) {
    SmallVector<AxisRefAttr> result;
    for (AxisRefAttr axis : axes) {
      if (mesh && !result.empty() && canMerge(result.back(), axis))
        result.back() = merge(result.back(), axis, mesh);
      else
        result.push_back(axis);
    }
    return result;
  };
  for (auto [dim, axes] : llvm::enumerate(expected)) {
    ArrayRef<AxisRefAttr> actual =
        outSharding.getDimShardings()[dim].getAxes();
    if (merged(actual) != merged(axes))
      return op->emitOpError("out_sharding dim ")
             << dim << " is sharded on " << axisRefsToString(actual)
             << " but " << what << " gives " << axisRefsToString(axes);
  }
  return success();
}

/// The axes of every dimension of `sharding`.
static SmallVector<SmallVector<AxisRefAttr>>
getDimAxes(TensorShardingAttr sharding) {
  SmallVector<SmallVector<AxisRefAttr>> result;
  for (DimensionShardingAttr dim : sharding.getDimShardings())
    result.emplace_back(dim.getAxes());
  return result;
}

//===----------------------------------------------------------------------===//
// all_gather
//===----------------------------------------------------------------------===//

/// Removes `gathered` from the end of `dimAxes`. The most major gathered
/// axis may be the minor part of an operand axis, which then keeps its
/// major part ({"y"} minus {"y":(4)2} on "y"=8 leaves {"y":(1)4}).
static LogicalResult removeGatheredSuffix(SmallVector<AxisRefAttr> &dimAxes,
                                          ArrayRef<AxisRefAttr> gathered,
                                          MeshAttr mesh) {
  for (size_t i = gathered.size(); i-- > 0;) {
    if (dimAxes.empty())
      return failure();
    AxisRefAttr axis = gathered[i], operand = dimAxes.back();
    if (axis == operand) {
      dimAxes.pop_back();
      continue;
    }
    bool minorPart = i == 0 && axis.getName() == operand.getName() &&
                     axis.getNextPreSize(mesh) == operand.getNextPreSize(mesh) &&
                     axis.getPreSize() > operand.getPreSize();
    if (!minorPart)
      return failure();
    MLIRContext *ctx = axis.getContext();
    dimAxes.back() = AxisRefAttr::get(
        ctx, operand.getName(),
        SubAxisInfoAttr::get(ctx, operand.getPreSize(),
                             axis.getPreSize() / operand.getPreSize()));
  }
  return success();
}

LogicalResult AllGatherOp::verify() { return success(); }

LogicalResult AllGatherOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TensorShardingAttr inSharding;
  MeshAttr mesh;
  if (failed(verifyCollectiveSymbolUses(*this, symbols, inSharding, mesh)) ||
      failed(verifyPerDimAxes(*this, "gathering_axes",
                              getGatheringAxes().getValue(),
                              inSharding.getRank(), mesh)))
    return failure();
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(inSharding);
  for (auto [dim, gathering] :
       llvm::enumerate(getGatheringAxes().getValue())) {
    ArrayRef<AxisRefAttr> axes = gathering.getValue();
    SmallVector<AxisRefAttr> &dimAxes = expected[dim];
    SmallVector<AxisRefAttr> operandAxes = dimAxes;
    if (failed(removeGatheredSuffix(dimAxes, axes, mesh)))
      return emitOpError("can't gather ")
             << axisRefsToString(axes) << " on dim " << dim
             << ": not a suffix of the operand dim sharding "
             << axisRefsToString(operandAxes);
  }
  return verifyExpectedDims(*this, "applying gathering_axes to the operand",
                            expected, getOutSharding());
}

//===----------------------------------------------------------------------===//
// all_slice and reduce_scatter
//===----------------------------------------------------------------------===//

/// Appends `lists[d]` to dim d of `inSharding`; the new axes must not
/// overlap with any axis the operand is sharded on.
static LogicalResult verifySlicing(Operation *op, StringRef name,
                                   ArrayRef<AxisRefListAttr> lists,
                                   TensorShardingAttr inSharding,
                                   TensorShardingAttr outSharding) {
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(inSharding);
  for (auto [dim, list] : llvm::enumerate(lists)) {
    for (AxisRefAttr axis : list.getValue())
      for (const SmallVector<AxisRefAttr> &dimAxes : getDimAxes(inSharding))
        for (AxisRefAttr used : dimAxes)
          if (overlaps(axis, used))
            return op->emitOpError()
                   << name << " axis " << axisRefToString(axis)
                   << " overlaps with operand sharding axis "
                   << axisRefToString(used);
    llvm::append_range(expected[dim], list.getValue());
  }
  return verifyExpectedDims(
      op, ("applying " + name + " to the operand").str(), expected,
      outSharding);
}

LogicalResult AllSliceOp::verify() { return success(); }

LogicalResult AllSliceOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TensorShardingAttr inSharding;
  MeshAttr mesh;
  if (failed(verifyCollectiveSymbolUses(*this, symbols, inSharding, mesh)) ||
      failed(verifyPerDimAxes(*this, "slicing_axes",
                              getSlicingAxes().getValue(),
                              inSharding.getRank(), mesh)))
    return failure();
  return verifySlicing(*this, "slicing_axes", getSlicingAxes().getValue(),
                       inSharding, getOutSharding());
}

LogicalResult ReduceScatterOp::verify() { return success(); }

LogicalResult
ReduceScatterOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TensorShardingAttr inSharding;
  MeshAttr mesh;
  if (failed(verifyCollectiveSymbolUses(*this, symbols, inSharding, mesh)) ||
      failed(verifyPerDimAxes(*this, "reduce_scatter_axes",
                              getReduceScatterAxes().getValue(),
                              inSharding.getRank(), mesh)))
    return failure();
  return verifySlicing(*this, "reduce_scatter_axes",
                       getReduceScatterAxes().getValue(), inSharding,
                       getOutSharding());
}

//===----------------------------------------------------------------------===//
// all_reduce
//===----------------------------------------------------------------------===//

LogicalResult AllReduceOp::verify() { return success(); }

LogicalResult AllReduceOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TensorShardingAttr inSharding;
  MeshAttr mesh;
  if (failed(verifyCollectiveSymbolUses(*this, symbols, inSharding, mesh)))
    return failure();
  ArrayRef<AxisRefAttr> axes = getReductionAxes().getValue();
  if (failed(verifyAxisRefList(axes, mesh, [&]() {
        return emitOpErrorWithPrefix(*this, "reduction_axes - ");
      })))
    return failure();
  if (!llvm::is_sorted(axes, getMeshComparator(mesh)))
    return emitOpError("reduction_axes are not ordered w.r.t. the mesh: ")
           << axisRefsToString(axes);
  TensorShardingAttr outSharding = getOutSharding();
  for (auto [dim, in, out] : llvm::enumerate(inSharding.getDimShardings(),
                                             outSharding.getDimShardings()))
    if (in.getAxes() != out.getAxes())
      return emitOpError("operand and out_sharding must have equivalent "
                         "dimension shardings, but dim ")
             << dim << " differs: " << axisRefsToString(in.getAxes())
             << " vs " << axisRefsToString(out.getAxes());
  for (AxisRefAttr axis : axes) {
    for (DimensionShardingAttr dim : inSharding.getDimShardings())
      for (AxisRefAttr used : dim.getAxes())
        if (overlaps(axis, used))
          return emitOpError("reduction axis ")
                 << axisRefToString(axis)
                 << " overlaps with operand dimension sharding axis "
                 << axisRefToString(used);
    for (AxisRefAttr used : inSharding.getReplicatedAxes())
      if (overlaps(axis, used))
        return emitOpError("reduction axis ")
               << axisRefToString(axis)
               << " overlaps with operand replicated axis "
               << axisRefToString(used);
    for (AxisRefAttr used : outSharding.getUnreducedAxes())
      if (overlaps(axis, used))
        return emitOpError("reduction axis ")
               << axisRefToString(axis)
               << " overlaps with out_sharding unreduced axis "
               << axisRefToString(used);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// all_to_all
//===----------------------------------------------------------------------===//

LogicalResult AllToAllOp::verify() {
  ArrayRef<AllToAllParamAttr> params = getParams().getValue();
  if (params.empty())
    return emitOpError("params must not be empty");
  auto type = dyn_cast<ShapedType>(getTensor().getType());
  if (!type || !type.hasRank())
    return emitOpError("requires a ranked tensor operand");
  int64_t rank = type.getRank();
  llvm::SmallSet<int64_t, 8> dims;
  int64_t lastSrc = -1;
  for (auto [index, param] : llvm::enumerate(params)) {
    if (!param)
      return emitOpError("param ") << index << " is null";
    for (auto [name, dim] : {std::pair<StringRef, int64_t>{"src_dim",
                                                           param.getSrcDim()},
                             {"tgt_dim", param.getTgtDim()}}) {
      if (dim < 0 || dim >= rank)
        return emitOpError("param ")
               << index << " - " << name << " " << dim
               << " is out of range [0, " << rank << ")";
      if (!dims.insert(dim).second)
        return emitOpError("param ")
               << index << " - dimension " << dim
               << " is used more than once across params";
    }
    if (param.getSrcDim() <= lastSrc)
      return emitOpError("params must be sorted by src_dim in ascending "
                         "order, but ")
             << param.getSrcDim() << " follows " << lastSrc;
    lastSrc = param.getSrcDim();
    if (param.getAxes().empty())
      return emitOpError("param ") << index << " - axes must not be empty";
  }
  return success();
}

LogicalResult AllToAllOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TensorShardingAttr inSharding;
  MeshAttr mesh;
  if (failed(verifyCollectiveSymbolUses(*this, symbols, inSharding, mesh)))
    return failure();
  SmallVector<SmallVector<AxisRefAttr>> expected = getDimAxes(inSharding);
  int64_t rank = expected.size();
  for (auto [index, param] : llvm::enumerate(getParams().getValue())) {
    std::string prefix = ("param " + Twine(index) + " - ").str();
    ArrayRef<AxisRefAttr> axes = param.getAxes();
    if (failed(verifyAxisRefList(axes, mesh, [&]() {
          return emitOpErrorWithPrefix(*this, prefix);
        })))
      return failure();
    int64_t src = param.getSrcDim(), tgt = param.getTgtDim();
    if (src >= rank || tgt >= rank) // Checked by verify() for the type.
      return emitOpError(prefix) << "dimension out of range of the sharding";
    SmallVector<AxisRefAttr> &srcAxes = expected[src];
    SmallVector<AxisRefAttr> operandAxes = srcAxes;
    // As for all_gather, the minor part of an axis may move.
    if (failed(removeGatheredSuffix(srcAxes, axes, mesh)))
      return emitOpError(prefix)
             << "axes " << axisRefsToString(axes)
             << " are not a suffix of the operand sharding of src_dim " << src
             << ": " << axisRefsToString(operandAxes);
    llvm::append_range(expected[tgt], axes);
  }
  return verifyExpectedDims(*this, "moving the params' axes", expected,
                            getOutSharding());
}

//===----------------------------------------------------------------------===//
// collective_permute
//===----------------------------------------------------------------------===//

LogicalResult CollectivePermuteOp::verify() { return success(); }

LogicalResult
CollectivePermuteOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TensorShardingAttr inSharding;
  MeshAttr mesh;
  if (failed(verifyCollectiveSymbolUses(*this, symbols, inSharding, mesh)))
    return failure();
  TensorShardingAttr outSharding = getOutSharding();
  for (auto [dim, in, out] : llvm::enumerate(inSharding.getDimShardings(),
                                             outSharding.getDimShardings())) {
    // Both meshes have the same axes (verifyCollectiveSymbolUses).
    int64_t inSize = getTotalSize(in.getAxes(), mesh);
    int64_t outSize = getTotalSize(out.getAxes(), mesh);
    if (inSize != outSize)
      return emitOpError("out_sharding dim ")
             << dim << " is sharded " << outSize
             << " ways but the operand dim is sharded " << inSize << " ways";
  }
  return success();
}
