//===- ConvertShardMesh.cpp - the shard <-> mesh conversion passes ------===//
//
// Both passes run the same three steps, in the direction they name:
//   1. check the module, untouched, for what has no counterpart, with a
//      diagnostic on each such op;
//   2. convert a copy of the module: every op of the source dialect is
//      rebuilt by the mapping (DialectMapping.h) or, for shard_shape, by
//      ShardShape.h; then every attribute and type left (signatures, block
//      arguments, discardable attributes) is replaced;
//   3. verify the copy (the target dialect's verifiers may be stricter than
//      the source's) and only then move it into the module.
// So a failing pass leaves the module as it was.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/ShardMesh/ShardMesh.h"

#include "DialectMapping.h"
#include "ShardShape.h"
#include "meshsdy/Dialect/Mesh/IR/MeshDialect.h"
#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::meshsdy {
#define GEN_PASS_DEF_CONVERTSHARDTOMESHPASS
#define GEN_PASS_DEF_CONVERTMESHTOSHARDPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;
using namespace mlir::meshsdy;
using namespace mlir::meshsdy::shardmesh;

namespace {

/// Whether `op` is a (registered) op of the dialect `direction` converts.
bool isSource(Direction direction, Operation *op) {
  return op->isRegistered() &&
         op->getName().getDialectNamespace() == sourceDialect(direction);
}

bool isShardShape(Operation *op) {
  return isa<shard::ShardShapeOp, mesh::ShardShapeOp>(op);
}

/// The sharding `shard.get_sharding` stands for: that of the `shard.shard`
/// (of either dialect, mid-conversion) annotating its source as a result;
/// null if there is none. Operands are read untyped: mid-conversion their
/// types may be the other dialect's already.
Value knownSharding(shard::GetShardingOp op) {
  Operation *def = op->getOperand(0).getDefiningOp();
  if (auto shardOp = dyn_cast_or_null<shard::ShardOp>(def))
    return shardOp.getAnnotateForUsers() ? Value() : def->getOperand(1);
  if (auto meshOp = dyn_cast_or_null<mesh::ShardOp>(def))
    return meshOp.getAnnotateForUsers() ? Value() : def->getOperand(1);
  return Value();
}

/// Step 1: a diagnostic on every op of the source dialect that has no
/// counterpart. Touches nothing.
LogicalResult check(Direction direction, ModuleOp module) {
  bool ok = true;
  module.walk([&](Operation *op) {
    if (!isSource(direction, op))
      return;
    auto unsupported = [&]() {
      ok = false;
      return op->emitOpError("unsupported by ") << passName(direction) << ": ";
    };
    StringRef target = targetOpName(direction, op->getName().getStringRef());
    if (auto get = dyn_cast<shard::GetShardingOp>(op)) {
      if (!knownSharding(get))
        unsupported() << "mesh has no get_sharding; only the sharding of a "
                         "value a 'shard.shard' annotates (not for its users) "
                         "is known";
    } else if (target.empty()) {
      unsupported() << "no counterpart in the other dialect";
    } else if (isShardShape(op)) {
      ok &= succeeded(checkShardShape(direction, op));
    } else {
      for (StringRef attr : attributesWithoutCounterpart(direction, op))
        unsupported() << "'" << attr << "' has no counterpart in '" << target
                      << "'";
    }
  });
  return success(ok);
}

/// The op each location was converted into (the first, if several), to name
/// it in verifier errors, which not all carry the op's name.
using ConvertedOps = llvm::DenseMap<Location, OperationName>;

/// Step 2, on the copy `module` that step 1 accepted.
ConvertedOps convert(Direction direction, ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  AttrTypeReplacer replacer = makeReplacer(direction, ctx);
  // Definitions come before uses in a pre-order walk, so an op's operands
  // are mostly converted already; the conversions accept either dialect.
  SmallVector<Operation *> ops;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isSource(direction, op))
      ops.push_back(op);
  });
  OpBuilder builder(ctx);
  SmallVector<Operation *> maybeDead;
  ConvertedOps converted;
  for (Operation *op : ops) {
    builder.setInsertionPoint(op);
    if (auto get = dyn_cast<shard::GetShardingOp>(op)) {
      get.getResult().replaceAllUsesWith(knownSharding(get));
      op->erase();
      continue;
    }
    Operation *rebuilt =
        isShardShape(op) ? convertShardShape(direction, builder, op, maybeDead)
                         : rebuild(direction, builder, op, replacer);
    converted.try_emplace(rebuilt->getLoc(), rebuilt->getName());
    op->replaceAllUsesWith(rebuilt->getResults());
    op->erase();
  }
  // Device indices that only fed a converted shard_shape.
  for (Operation *op : llvm::SetVector<Operation *>(maybeDead.begin(),
                                                     maybeDead.end()))
    if (isOpTriviallyDead(op))
      op->erase();
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  return converted;
}

/// Step 3: verifies the converted copy; each verifier error is reported as
/// this pass's, at the op's location, naming the op it became.
LogicalResult verifyConverted(Direction direction, ModuleOp module,
                              const ConvertedOps &converted) {
  SmallVector<std::pair<Location, std::string>> errors;
  LogicalResult verified = success();
  {
    ScopedDiagnosticHandler collect(module.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        errors.emplace_back(d.getLocation(), d.str());
      return success();
    });
    verified = verify(module);
  }
  for (auto &[loc, message] : errors) {
    InFlightDiagnostic diag = emitError(loc) << "unsupported by "
                                             << passName(direction) << ": ";
    auto it = converted.find(loc);
    if (it != converted.end())
      diag << "the converted '" << it->second << "' does not verify: ";
    else
      diag << "the converted program does not verify: ";
    diag << message;
  }
  return verified;
}

LogicalResult convertModule(Direction direction, ModuleOp module) {
  if (failed(check(direction, module)))
    return failure();
  ModuleOp copy = module.clone();
  ConvertedOps converted = convert(direction, copy);
  if (failed(verifyConverted(direction, copy, converted))) {
    copy->erase();
    return failure();
  }
  module.getBodyRegion().takeBody(copy.getBodyRegion());
  module->setAttrs(copy->getAttrDictionary());
  copy->erase();
  return success();
}

struct ConvertShardToMeshPass
    : meshsdy::impl::ConvertShardToMeshPassBase<ConvertShardToMeshPass> {
  void runOnOperation() override {
    if (failed(convertModule(Direction::ShardToMesh, getOperation())))
      signalPassFailure();
  }
};

struct ConvertMeshToShardPass
    : meshsdy::impl::ConvertMeshToShardPassBase<ConvertMeshToShardPass> {
  void runOnOperation() override {
    if (failed(convertModule(Direction::MeshToShard, getOperation())))
      signalPassFailure();
  }
};

} // namespace
