//===- BodylessCSE.cpp - CSE that leaves linalg bodies alone --------------===//
//
// The partitioning pipelines run CSE once after mesh-spmdization, for what
// partitioning writes twice: a collective, a process index, a tensor.empty,
// a size computed for two uneven pieces. Upstream's `cse` also visits the
// body of every linalg op, one scope per body and a hash per scalar op in
// it: on the 1000-layer MLP those bodies are two thirds of its ops and of
// its time, and partitioning never writes a body twice. `meshsdy-cse`
// eliminates what upstream's eliminates (same hashing, same equivalence,
// trivially dead ops erased) everywhere else: the ops of the function and
// of nested regions (scf loops and branches), including linalg ops
// themselves, compared with their bodies. Two differences, both leaving
// more ops than upstream would: nothing inside a linalg body is merged or
// erased, and an op that reads memory is kept (upstream merges two reads
// with no write between; after partitioning, values are tensors). Where a
// region it would visit has several blocks, it runs upstream's CSE on the
// whole op instead.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/SpmdizePipelines.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/ScopedHashTable.h"
#include "llvm/Support/RecyclingAllocator.h"

using namespace mlir;

namespace {

/// An op and its hash, computed once: the table hashes a key on lookup,
/// on insertion and again when its scope ends, and an op's hash (its
/// properties, its result types) costs more than the rest of the pass.
struct OpKey {
  Operation *op;
  unsigned hash;
};

/// Ops keyed as upstream's CSE keys them: name, attributes, properties,
/// result types and operands; locations ignored.
struct OpKeyInfo {
  static OpKey get(Operation *op) {
    return {op, static_cast<unsigned>(OperationEquivalence::computeHash(
                    op, OperationEquivalence::directHashValue,
                    OperationEquivalence::ignoreHashValue,
                    OperationEquivalence::IgnoreLocations))};
  }
  static OpKey getEmptyKey() {
    return {llvm::DenseMapInfo<Operation *>::getEmptyKey(), 0};
  }
  static OpKey getTombstoneKey() {
    return {llvm::DenseMapInfo<Operation *>::getTombstoneKey(), 0};
  }
  static unsigned getHashValue(const OpKey &key) { return key.hash; }
  static bool isEqual(const OpKey &lhs, const OpKey &rhs) {
    if (lhs.op == rhs.op)
      return true;
    if (isMarker(lhs.op) || isMarker(rhs.op) || lhs.hash != rhs.hash)
      return false;
    return OperationEquivalence::isEquivalentTo(
        lhs.op, rhs.op, OperationEquivalence::IgnoreLocations);
  }
  static bool isMarker(Operation *op) {
    return op == getEmptyKey().op || op == getTombstoneKey().op;
  }
};

using KnownOps = llvm::ScopedHashTable<
    OpKey, Operation *, OpKeyInfo,
    llvm::RecyclingAllocator<llvm::BumpPtrAllocator,
                             llvm::ScopedHashTableVal<OpKey, Operation *>>>;

/// A body this pass does not enter: a linalg op's scalar computation.
static bool isBody(Operation *op) { return isa<linalg::LinalgOp>(op); }

/// True if some region the pass would enter under `root` has several
/// blocks: those are left to upstream's CSE, which walks their dominance
/// tree.
static bool needsUpstream(Operation *root) {
  WalkResult walk = root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != root && isBody(op))
      return WalkResult::skip();
    for (Region &region : op->getRegions())
      if (!region.empty() && !region.hasOneBlock())
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

class Eliminator {
public:
  /// Merges and erases in `root`'s regions; true if it changed anything.
  bool run(Operation *root) {
    KnownOps known;
    for (Region &region : root->getRegions())
      visitRegion(region, known);
    for (Operation *op : dead)
      op->erase();
    return !dead.empty();
  }

private:
  void visitRegion(Region &region, KnownOps &known) {
    if (region.empty())
      return;
    KnownOps::ScopeTy scope(known);
    bool dominance = !mayBeGraphRegion(region);
    for (Operation &op : region.front()) {
      if (op.getNumRegions() != 0 && !isBody(&op)) {
        // Values from outside an isolated op cannot be named inside it.
        if (op.hasTrait<OpTrait::IsIsolatedFromAbove>()) {
          KnownOps nested;
          for (Region &inner : op.getRegions())
            visitRegion(inner, nested);
        } else {
          for (Region &inner : op.getRegions())
            visitRegion(inner, known);
        }
      }
      visitOp(&op, known, dominance);
    }
  }

  void visitOp(Operation *op, KnownOps &known, bool dominance) {
    if (op->hasTrait<OpTrait::IsTerminator>())
      return;
    if (isOpTriviallyDead(op)) {
      dead.push_back(op);
      return;
    }
    if (!isMemoryEffectFree(op))
      return;
    OpKey key = OpKeyInfo::get(op);
    Operation *existing = known.lookup(key);
    if (!existing) {
      known.insert(key, op);
      return;
    }
    if (dominance) {
      // No use of `op` has been visited yet.
      op->replaceAllUsesWith(existing);
      dead.push_back(op);
    } else {
      // A graph region (a module's body): uses already visited keep `op`.
      op->replaceUsesWithIf(existing->getResults(), [&](OpOperand &use) {
        return !known.count(OpKeyInfo::get(use.getOwner()));
      });
      if (op->use_empty())
        dead.push_back(op);
    }
    if (isa<UnknownLoc>(existing->getLoc()) && !isa<UnknownLoc>(op->getLoc()))
      existing->setLoc(op->getLoc());
  }

  SmallVector<Operation *> dead;
};

struct BodylessCSEPass : PassWrapper<BodylessCSEPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BodylessCSEPass)

  StringRef getArgument() const override { return "meshsdy-cse"; }
  StringRef getName() const override { return "MeshsdyCSE"; }
  StringRef getDescription() const override {
    return "cse (upstream's hashing and equivalence, trivially dead ops "
           "erased) everywhere but inside linalg ops' bodies; preserves all "
           "analyses when it changes nothing";
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    if (needsUpstream(root)) {
      IRRewriter rewriter(root->getContext());
      bool changed = false;
      eliminateCommonSubExpressions(rewriter, getAnalysis<DominanceInfo>(),
                                    root, &changed);
      if (!changed)
        markAllAnalysesPreserved();
      return;
    }
    if (!Eliminator().run(root))
      markAllAnalysesPreserved();
  }
};

} // namespace

std::unique_ptr<Pass> mlir::meshsdy::createBodylessCSEPass() {
  return std::make_unique<BodylessCSEPass>();
}

void mlir::meshsdy::registerBodylessCSEPass() {
  PassRegistration<BodylessCSEPass>();
}
