//===- CostReport.cpp - mesh-cost-report ----------------------------------===//
//
// Two measures of a function: the bytes each device sends in its mesh
// collectives (ring model, the one meshsdy.pipeline.SpmdReport uses), and
// the peak of the tensor bytes live at once on a device. For a program
// still to be partitioned, the pass partitions a copy to compare both sides.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Transforms/CostReport.h"
#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"
#include "meshsdy/Dialect/Mesh/Transforms/RingCost.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Format.h"

#include <map>

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHCOSTREPORT
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;
using namespace mlir::mesh;

namespace {

struct CollectiveCost {
  unsigned count = 0;
  /// Collectives whose operand size or group is not static.
  unsigned unsized = 0;
  double bytes = 0;
};

/// The collectives of `func` by op name.
std::map<std::string, CollectiveCost> collectiveCosts(func::FuncOp func) {
  std::map<std::string, CollectiveCost> costs;
  func.walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    bool halo = name == "mesh.update_halo";
    if (!halo && !ringFactor(name, 2))
      return;
    if (op->getNumOperands() == 0 ||
        !isa<RankedTensorType>(op->getOperand(0).getType()))
      return;
    CollectiveCost &cost = costs[name.str()];
    ++cost.count;
    std::optional<int64_t> bytes = tensorBytes(op->getOperand(0).getType());
    auto meshName = op->getAttrOfType<FlatSymbolRefAttr>("mesh");
    auto meshOp = meshName ? SymbolTable::lookupNearestSymbolFrom<MeshOp>(
                                 op, meshName)
                           : MeshOp();
    if (!bytes || !meshOp) {
      ++cost.unsized;
      return;
    }
    if (halo) {
      // Each split dimension's low and high halo widths times the extent
      // of the other dimensions.
      auto tensor = cast<RankedTensorType>(op->getOperand(0).getType());
      auto split = op->getAttrOfType<ArrayAttr>("split_axes");
      auto halos = op->getAttrOfType<DenseI64ArrayAttr>("static_halo_sizes");
      int64_t elements = 0;
      unsigned pair = 0;
      for (int64_t dim = 0; split && dim < int64_t(split.size()) &&
                            dim < tensor.getRank();
           ++dim) {
        auto axes = dyn_cast<DenseI16ArrayAttr>(split[dim]);
        if (!axes || axes.empty())
          continue;
        if (halos && 2 * pair + 1 < halos.size()) {
          int64_t widths = halos[2 * pair] + halos[2 * pair + 1];
          elements += widths * (tensor.getNumElements() /
                                std::max<int64_t>(tensor.getDimSize(dim), 1));
        }
        ++pair;
      }
      cost.bytes += double(*bytes) / std::max<int64_t>(tensor.getNumElements(), 1) *
                    elements;
      return;
    }
    int64_t group = 1;
    auto axes = op->getAttrOfType<DenseI16ArrayAttr>("mesh_axes");
    ArrayRef<int64_t> shape = meshOp.getShape();
    for (int16_t axis : axes ? axes.asArrayRef() : ArrayRef<int16_t>()) {
      if (axis >= int64_t(shape.size()) || ShapedType::isDynamic(shape[axis])) {
        ++cost.unsized;
        return;
      }
      group *= shape[axis];
    }
    cost.bytes += *ringFactor(name, group) * double(*bytes);
  });
  return costs;
}

} // namespace

int64_t mlir::mesh::peakLiveTensorBytes(func::FuncOp func) {
  if (func.isExternal())
    return 0;
  Block &body = func.getFunctionBody().front();
  DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(body))
    position[&op] = i;
  // A mesh.shard result is its operand: the annotation holds no data.
  auto root = [](Value value) {
    while (auto shard = value.getDefiningOp<ShardOp>())
      value = shard.getSrc();
    return value;
  };
  // [first, last] position at which each tensor is live; -1 for arguments.
  DenseMap<Value, std::pair<int64_t, int64_t>> live;
  auto define = [&](Value value, int64_t at) {
    if (tensorBytes(value.getType()) && !value.getDefiningOp<ShardOp>())
      live.try_emplace(value, at, at);
  };
  for (BlockArgument arg : body.getArguments())
    define(arg, -1);
  for (Operation &op : body)
    for (Value result : op.getResults())
      define(result, position[&op]);
  func.walk([&](Operation *user) {
    Operation *top = body.findAncestorOpInBlock(*user);
    if (!top)
      return;
    for (Value operand : user->getOperands()) {
      auto it = live.find(root(operand));
      if (it != live.end())
        it->second.second = std::max(it->second.second, position[top]);
    }
  });
  // Sweep: a tensor adds its bytes where it starts and removes them after
  // its last use.
  std::map<int64_t, int64_t> delta;
  for (auto &[value, span] : live) {
    int64_t bytes = *tensorBytes(value.getType());
    delta[span.first] += bytes;
    delta[span.second + 1] -= bytes;
  }
  int64_t current = 0, peak = 0;
  for (auto &[at, change] : delta) {
    current += change;
    peak = std::max(peak, current);
  }
  return peak;
}

namespace {

struct MeshCostReport : mesh::impl::MeshCostReportBase<MeshCostReport> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A program still to partition (annotations, no mesh.boundary): a
    // partitioned copy gives the per-device side.
    bool partitioned = false, annotated = false, sdy = false;
    module.walk([&](Operation *op) {
      if (isa<ShardOp>(op))
        annotated = true;
      if (op->hasAttr("mesh.boundary"))
        partitioned = true;
      // An sdy program is partitioned by sdy-spmdize-pipeline.
      if (op->getName().getStringRef() == "sdy.mesh")
        sdy = annotated = true;
    });
    OwningOpRef<ModuleOp> copy;
    ModuleOp after = module;
    if (annotated && !partitioned) {
      copy = module.clone();
      PassManager pm(&getContext(), ModuleOp::getOperationName());
      // The sdy pipeline lives in a layer above this one: it is found by
      // name in the pass registry, not called.
      StringRef name = sdy ? "sdy-spmdize-pipeline" : "mesh-spmdize-pipeline";
      const PassPipelineInfo *pipeline = PassPipelineInfo::lookup(name);
      std::string options =
          "traversal=" + stringifyTraversalOrder(traversal).str();
      auto report = [&](const Twine &message) {
        module.emitError("mesh-cost-report: ") << message;
        return failure();
      };
      if (!pipeline)
        return module.emitError("mesh-cost-report: ")
                   << name << " is not registered",
               signalPassFailure();
      if (failed(pipeline->addToPipeline(pm, options, report)) ||
          failed(pm.run(*copy))) {
        module.emitError("mesh-cost-report: partitioning a copy failed");
        return signalPassFailure();
      }
      after = *copy;
    }

    llvm::raw_ostream &os = llvm::outs();
    for (auto func : after.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      os << "mesh-cost-report @" << func.getSymName() << "\n";
      std::map<std::string, CollectiveCost> costs = collectiveCosts(func);
      os << llvm::format("  %-22s %6s %18s\n", "collective", "count",
                         "bytes sent/device");
      CollectiveCost total;
      for (auto &[name, cost] : costs) {
        os << llvm::format("  %-22s %6u %18.0f", name.c_str(), cost.count,
                           cost.bytes);
        if (cost.unsized)
          os << "  (" << cost.unsized << " unsized, not counted)";
        os << "\n";
        total.count += cost.count;
        total.bytes += cost.bytes;
      }
      os << llvm::format("  %-22s %6u %18.0f\n", "total", total.count,
                         total.bytes);
      int64_t peakAfter = peakLiveTensorBytes(func);
      auto before = dyn_cast_or_null<func::FuncOp>(
          module.lookupSymbol(func.getSymNameAttr()));
      if (after != module && before) {
        int64_t peakBefore = peakLiveTensorBytes(before);
        os << "  peak live tensor bytes per device: " << peakAfter
           << " partitioned, " << peakBefore << " unpartitioned";
        if (peakBefore)
          os << llvm::format(" (%.2fx)", double(peakAfter) / peakBefore);
        os << "\n";
      } else {
        os << "  peak live tensor bytes per device: " << peakAfter << "\n";
      }
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
