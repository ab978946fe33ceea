//===- CostReport.cpp - mesh-cost-report ----------------------------------===//
//
// Prints two measures of each function, from the cost model (CostModel.h):
// the bytes each device sends in its mesh collectives, and the peak of the
// tensor bytes live at once on a device. For a program still to be
// partitioned, the pass partitions a copy to compare both sides.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Transforms/CostModel.h"
#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"

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

/// The collectives of `func` by op name, priced by the cost model.
std::map<std::string, CollectiveCost> collectiveCosts(func::FuncOp func) {
  std::map<std::string, CollectiveCost> costs;
  func.walk([&](Operation *op) {
    if (!isPricedCollective(op) || op->getNumOperands() == 0 ||
        !isa<RankedTensorType>(op->getOperand(0).getType()))
      return;
    CollectiveCost &cost = costs[op->getName().getStringRef().str()];
    ++cost.count;
    if (std::optional<double> bytes = collectiveBytesSent(op))
      cost.bytes += *bytes;
    else
      ++cost.unsized;
  });
  return costs;
}

} // namespace

namespace {

struct MeshCostReport : mesh::impl::MeshCostReportBase<MeshCostReport> {
  using Base::Base;

  /// The partitioning pipelines run inside this pass, on a copy: their
  /// dialects are loaded before the pass manager starts (loading one
  /// while passes run aborts; a module of an `sdy.mesh` alone had no
  /// `func` dialect yet).
  void getDependentDialects(DialectRegistry &registry) const override {
    for (StringRef name : {"mesh-spmdize-pipeline", "sdy-spmdize-pipeline"}) {
      const PassPipelineInfo *pipeline = PassPipelineInfo::lookup(name);
      OpPassManager pm(ModuleOp::getOperationName());
      if (pipeline && succeeded(pipeline->addToPipeline(
                          pm, "", [](const Twine &) { return failure(); })))
        pm.getDependentDialects(registry);
    }
  }

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
