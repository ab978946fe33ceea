//===- UpdateNonDivisibleInputOutputShardings.cpp - even boundary shards --===//

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Common/ModuleShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"

#include "mlir/IR/Builders.h"

#include <numeric>

namespace mlir::sdy {
#define GEN_PASS_DEF_UPDATENONDIVISIBLEINPUTOUTPUTSHARDINGSPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// The longest prefix of `axes` whose total size divides `dimSize`, the last
/// axis cut down to the largest sub-axis that still divides it.
SmallVector<AxisRefAttr> divisiblePrefix(ArrayRef<AxisRefAttr> axes,
                                         int64_t dimSize, MeshAttr mesh) {
  SmallVector<AxisRefAttr> kept;
  int64_t product = 1;
  for (AxisRefAttr axis : axes) {
    int64_t size = axis.getSize(mesh);
    if ((dimSize / product) % size == 0) {
      kept.push_back(axis);
      product *= size;
      continue;
    }
    int64_t common = std::gcd(dimSize / product, size);
    if (common > 1)
      kept.push_back(AxisRefAttr::get(
          axis.getContext(), axis.getName(),
          SubAxisInfoAttr::get(axis.getContext(), axis.getPreSize(), common)));
    break;
  }
  return kept;
}

TensorShardingAttr makeDivisible(TensorShardingAttr sharding, Type type,
                                 MeshAttr mesh) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!sharding || !mesh || !ranked ||
      ranked.getRank() != sharding.getRank())
    return sharding;
  SmallVector<DimensionShardingAttr> dims;
  bool changed = false;
  for (auto [dim, size] :
       llvm::zip_equal(sharding.getDimShardings(), ranked.getShape())) {
    if (ShapedType::isDynamic(size) || size == 0) {
      dims.push_back(dim);
      continue;
    }
    SmallVector<AxisRefAttr> axes = divisiblePrefix(dim.getAxes(), size, mesh);
    if (axes.size() == dim.getAxes().size() &&
        llvm::equal(axes, dim.getAxes())) {
      dims.push_back(dim);
      continue;
    }
    changed = true;
    std::optional<int64_t> priority =
        axes.empty() && dim.getIsClosed() ? std::nullopt : dim.getPriority();
    dims.push_back(DimensionShardingAttr::get(
        sharding.getContext(), axes, dim.getIsClosed(), priority));
  }
  if (!changed)
    return sharding;
  return TensorShardingAttr::get(sharding.getContext(),
                                 sharding.getMeshOrRef(), dims,
                                 sharding.getReplicatedAxes(),
                                 sharding.getUnreducedAxes());
}

/// A collective reading `arg` was written against its sharding `before`:
/// it now reads it through a reshard back to that one.
void keepCollectivesOn(BlockArgument arg, TensorShardingAttr before) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : arg.getUses())
    if (auto collective = dyn_cast<CollectiveOpInterface>(use.getOwner()))
      if (collective.getTensor() == arg)
        uses.push_back(&use);
  if (uses.empty())
    return;
  OpBuilder builder = OpBuilder::atBlockBegin(arg.getOwner());
  auto reshard =
      ReshardOp::create(builder, arg.getLoc(), arg.getType(), arg, before);
  for (OpOperand *use : uses)
    use->set(reshard.getResult());
}

struct UpdateNonDivisibleInputOutputShardingsPass
    : sdy::impl::UpdateNonDivisibleInputOutputShardingsPassBase<
          UpdateNonDivisibleInputOutputShardingsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshTable meshes(module);
    bool changed = false;
    // Every function, private callees too, as Shardy: after the export of
    // named computations a callee's boundary is what its calls see.
    for (auto func : module.getOps<func::FuncOp>()) {
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
        auto sharding = func.getArgAttrOfType<TensorShardingAttr>(i, kShardingAttr);
        if (auto updated = makeDivisible(sharding, type, meshes.lookup(sharding));
            updated != sharding) {
          func.setArgAttr(i, kShardingAttr, updated);
          keepCollectivesOn(func.getArgument(i), sharding);
          changed = true;
        }
      }
      for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
        auto sharding =
            func.getResultAttrOfType<TensorShardingAttr>(i, kShardingAttr);
        if (auto updated = makeDivisible(sharding, type, meshes.lookup(sharding));
            updated != sharding) {
          func.setResultAttr(i, kShardingAttr, updated);
          changed = true;
        }
      }
    }
    // The results of calls, whose shardings stand for the callee's results.
    module.walk([&](func::CallOp call) {
      auto shardings =
          call->getAttrOfType<TensorShardingPerValueAttr>(kShardingAttr);
      if (!shardings ||
          shardings.getShardings().size() != call.getNumResults())
        return;
      SmallVector<TensorShardingAttr> updated;
      bool callChanged = false;
      for (auto [sharding, type] :
           llvm::zip_equal(shardings.getShardings(), call.getResultTypes())) {
        updated.push_back(
            makeDivisible(sharding, type, meshes.lookup(sharding)));
        callChanged |= updated.back() != sharding;
      }
      if (!callChanged)
        return;
      call->setAttr(kShardingAttr, TensorShardingPerValueAttr::get(
                                       call.getContext(), updated));
      changed = true;
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
