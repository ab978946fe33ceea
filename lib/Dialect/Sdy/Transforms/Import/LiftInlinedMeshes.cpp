//===- LiftInlinedMeshes.cpp - inlined meshes become sdy.mesh symbols -----===//

#include "meshsdy/Dialect/Sdy/Transforms/Common/ModuleShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_LIFTINLINEDMESHESPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct LiftInlinedMeshesPass
    : sdy::impl::LiftInlinedMeshesPassBase<LiftInlinedMeshesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    SymbolTable symbols(module);

    // Existing symbols first: the first of identical meshes keeps its name.
    llvm::MapVector<MeshAttr, StringAttr> symbolOf;
    llvm::DenseMap<StringAttr, StringAttr> renamed;
    Operation *lastMesh = nullptr;
    for (MeshOp mesh : llvm::make_early_inc_range(module.getOps<MeshOp>())) {
      auto [it, inserted] =
          symbolOf.try_emplace(mesh.getMesh(), mesh.getSymNameAttr());
      if (inserted) {
        lastMesh = mesh;
        continue;
      }
      renamed[mesh.getSymNameAttr()] = it->second;
      symbols.erase(mesh);
    }

    // New symbols for the inlined meshes, in order of first appearance.
    llvm::MapVector<MeshAttr, Operation *> inlined;
    walkShardings(module, [&](Operation *op, TensorShardingAttr sharding) {
      if (MeshAttr mesh = sharding.getInlinedMesh())
        inlined.try_emplace(mesh, op);
    });
    // Symbols must agree on the device count (the MeshOp verifier); an
    // inlined mesh that doesn't can't become one.
    int64_t devices = 0;
    for (auto &[mesh, name] : symbolOf)
      if (!devices && !mesh.getAxes().empty())
        devices = mesh.getTotalSize();
    for (auto &[mesh, op] : inlined) {
      if (mesh.getAxes().empty())
        continue;
      if (!devices)
        devices = mesh.getTotalSize();
      if (mesh.getTotalSize() != devices) {
        op->emitOpError("has an inlined mesh of ")
            << mesh.getTotalSize() << " devices where the module's meshes have "
            << devices << ": it cannot become an sdy.mesh symbol";
        return signalPassFailure();
      }
    }
    OpBuilder builder(ctx);
    if (lastMesh)
      builder.setInsertionPointAfter(lastMesh);
    else
      builder.setInsertionPointToStart(module.getBody());
    for (auto &[mesh, op] : inlined) {
      if (symbolOf.contains(mesh))
        continue;
      std::string name =
          mesh.isMaximal()
              ? ("maximal_mesh_" + Twine(mesh.getDeviceIds().front())).str()
              : freeName(symbols);
      auto meshOp = MeshOp::create(builder, module.getLoc(), name, mesh);
      symbols.insert(meshOp);
      symbolOf[mesh] = meshOp.getSymNameAttr();
    }

    if (inlined.empty() && renamed.empty())
      return markAllAnalysesPreserved();
    rewriteShardings(module, [&](TensorShardingAttr sharding) {
      StringAttr name;
      if (MeshAttr mesh = sharding.getInlinedMesh())
        name = symbolOf.lookup(mesh);
      else if (FlatSymbolRefAttr ref = sharding.getMeshSymName())
        name = renamed.lookup(ref.getAttr());
      if (!name)
        return sharding;
      return TensorShardingAttr::get(
          ctx, FlatSymbolRefAttr::get(name), sharding.getDimShardings(),
          sharding.getReplicatedAxes(), sharding.getUnreducedAxes());
    });
  }

  /// The first of `mesh`, `mesh_0`, `mesh_1`, ... that names no symbol.
  static std::string freeName(SymbolTable &symbols) {
    if (!symbols.lookup("mesh"))
      return "mesh";
    for (int64_t i = 0;; ++i) {
      std::string name = ("mesh_" + Twine(i)).str();
      if (!symbols.lookup(name))
        return name;
    }
  }
};

} // namespace
