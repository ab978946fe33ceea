//===- ConstantOrScalarSplitter.cpp - one copy of a constant per user -----===//

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/Transforms/Common/ConstantOrScalar.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "mlir/IR/Builders.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_CONSTANTORSCALARSPLITTERPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// Where the copy of `producer` for `user` goes: before the user, unless
/// the user sits in the body of an op with a sharding rule (a linalg body
/// reading the constant from above, as a gather reads its table): such
/// bodies compute on elements, where nothing is sharded, so the copy goes
/// before the outermost such op instead. (Bodies of data-flow ops, an
/// scf.for's, compute on tensors: the copy stays next to its user there.)
Operation *copyPoint(Operation *user, Operation *producer) {
  Operation *point = user;
  for (Operation *ancestor = user->getParentOp();
       ancestor && ancestor != producer->getParentOp();
       ancestor = ancestor->getParentOp())
    if (isa<ShardingRuleOpInterface>(ancestor))
      point = ancestor;
  return point;
}

struct ConstantOrScalarSplitterPass
    : sdy::impl::ConstantOrScalarSplitterPassBase<
          ConstantOrScalarSplitterPass> {
  using ConstantOrScalarSplitterPassBase::ConstantOrScalarSplitterPassBase;

  void runOnOperation() override {
    // Producers come before their users in a pre-order walk, so one walk
    // finds every constant sub-computation.
    llvm::DenseSet<Operation *> constantOps;
    SmallVector<Operation *> order;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      ConstantKind kind = getConstantKind(op, constantOps);
      if (kind == ConstantKind::Constant)
        constantOps.insert(op);
      if (kind != ConstantKind::None)
        order.push_back(op);
    });
    // Users first: the copies made for a user add uses to the producers,
    // which are split when their turn comes.
    OpBuilder builder(&getContext());
    // A local count: statistics may be compiled out.
    int64_t clones = 0;
    for (Operation *op : llvm::reverse(order)) {
      Value result = op->getResult(0);
      SetVector<Operation *> users;
      for (OpOperand &use : result.getUses())
        users.insert(use.getOwner());
      if (users.size() < 2)
        continue;
      for (Operation *user : llvm::drop_begin(users)) {
        builder.setInsertionPoint(copyPoint(user, op));
        Operation *copy = builder.clone(*op);
        user->replaceUsesOfWith(result, copy->getResult(0));
        ++clones;
      }
    }
    numClones += clones;
    if (clones == 0)
      markAllAnalysesPreserved();
  }
};

} // namespace
