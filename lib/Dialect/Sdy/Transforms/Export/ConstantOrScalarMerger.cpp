//===- ConstantOrScalarMerger.cpp - merge identical constant copies -------===//

#include "meshsdy/Dialect/Sdy/Transforms/Common/ConstantOrScalar.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "mlir/IR/OperationSupport.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_CONSTANTORSCALARMERGERPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// Hashing and equality of ops as CSE sees them: same name, attributes
/// (shardings included), result types, operands and regions.
struct OpKey : llvm::DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *op) {
    return OperationEquivalence::computeHash(
        const_cast<Operation *>(op), OperationEquivalence::directHashValue,
        OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations);
  }
  static bool isEqual(const Operation *a, const Operation *b) {
    if (a == b)
      return true;
    if (a == getEmptyKey() || a == getTombstoneKey() || b == getEmptyKey() ||
        b == getTombstoneKey())
      return false;
    return OperationEquivalence::isEquivalentTo(
        const_cast<Operation *>(a), const_cast<Operation *>(b),
        OperationEquivalence::IgnoreLocations);
  }
};

struct ConstantOrScalarMergerPass
    : sdy::impl::ConstantOrScalarMergerPassBase<ConstantOrScalarMergerPass> {
  using ConstantOrScalarMergerPassBase::ConstantOrScalarMergerPassBase;

  void runOnOperation() override {
    llvm::DenseSet<Operation *> constantOps;
    // A local count: statistics may be compiled out.
    int64_t merged = 0;
    getOperation().walk([&](Block *block) {
      // An earlier op of the same block dominates the later one's uses.
      llvm::DenseSet<Operation *, OpKey> seen;
      for (Operation &op : llvm::make_early_inc_range(*block)) {
        ConstantKind kind = getConstantKind(&op, constantOps);
        if (kind == ConstantKind::None)
          continue;
        auto [it, inserted] = seen.insert(&op);
        if (inserted) {
          if (kind == ConstantKind::Constant)
            constantOps.insert(&op);
          continue;
        }
        op.getResult(0).replaceAllUsesWith((*it)->getResult(0));
        op.erase();
        ++merged;
      }
    });
    numMerged += merged;
    if (merged == 0)
      markAllAnalysesPreserved();
  }
};

} // namespace
