//===- StablehloToScf.cpp - StableHLO control flow to scf -----------------===//
//
// The ops are unregistered here (the front door parses jaxlib's generic
// output with unregistered dialects allowed), so nothing about them is
// verified: every property the rewrite relies on is checked first, for all
// of them, and only then is anything rewritten. The regions are moved into
// the scf ops, never copied; only their terminators are replaced.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/StablehloToScf/StablehloToScf.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::meshsdy {
#define GEN_PASS_DEF_CONVERTSTABLEHLOCONTROLFLOWTOSCFPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;

namespace {

constexpr StringLiteral kWhile = "stablehlo.while";
constexpr StringLiteral kIf = "stablehlo.if";
constexpr StringLiteral kCase = "stablehlo.case";
constexpr StringLiteral kReturn = "stablehlo.return";

bool isControlFlow(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == kWhile || name == kIf || name == kCase;
}

/// A rank-0 tensor whose element type satisfies `element`.
bool isScalarTensor(Type type, function_ref<bool(Type)> element) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 0 && element(tensor.getElementType());
}

bool isI1(Type type) { return type.isInteger(1); }
bool isSignlessInteger(Type type) { return type.isSignlessInteger(); }

/// Checks that region `index` of `op` is one block with arguments of
/// `argTypes`, ending in a stablehlo.return of `returnTypes` (described as
/// `expected` in the diagnostic).
LogicalResult checkRegion(Operation *op, unsigned index, TypeRange argTypes,
                          TypeRange returnTypes, StringRef expected) {
  Region &region = op->getRegion(index);
  if (!region.hasOneBlock())
    return op->emitOpError("unsupported: region ")
           << index << " has " << region.getBlocks().size()
           << " blocks, expected 1";
  Block &block = region.front();
  if (!llvm::equal(block.getArgumentTypes(), argTypes))
    return op->emitOpError("region ")
           << index << " - block argument types do not match the operands";
  if (block.empty() || block.back().getName().getStringRef() != kReturn)
    return op->emitOpError("region ")
           << index << " - does not end in '" << kReturn << "'";
  if (!llvm::equal(block.back().getOperandTypes(), returnTypes))
    return op->emitOpError("region ")
           << index << " - '" << kReturn << "' must return " << expected;
  return success();
}

LogicalResult checkWhile(Operation *op) {
  if (op->getNumRegions() != 2)
    return op->emitOpError("expected 2 regions (cond, do), got ")
           << op->getNumRegions();
  if (!llvm::equal(op->getOperandTypes(), op->getResultTypes()))
    return op->emitOpError("operand and result types differ");
  Type predicate =
      RankedTensorType::get({}, IntegerType::get(op->getContext(), 1));
  if (failed(checkRegion(op, 0, op->getOperandTypes(), predicate,
                         "one tensor<i1>")))
    return failure();
  return checkRegion(op, 1, op->getOperandTypes(), op->getResultTypes(),
                     "the op's result types");
}

LogicalResult checkIf(Operation *op) {
  if (op->getNumOperands() != 1 ||
      !isScalarTensor(op->getOperand(0).getType(), isI1))
    return op->emitOpError("unsupported: the predicate must be one "
                           "tensor<i1>");
  if (op->getNumRegions() != 2)
    return op->emitOpError("expected 2 regions (true, false), got ")
           << op->getNumRegions();
  for (unsigned i = 0; i < 2; ++i)
    if (failed(checkRegion(op, i, {}, op->getResultTypes(),
                           "the op's result types")))
      return failure();
  return success();
}

LogicalResult checkCase(Operation *op) {
  if (op->getNumOperands() != 1 ||
      !isScalarTensor(op->getOperand(0).getType(), isSignlessInteger))
    return op->emitOpError("unsupported: the index must be one rank-0 "
                           "tensor of a signless integer");
  if (op->getNumRegions() == 0)
    return op->emitOpError("expected at least one branch");
  for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
    if (failed(checkRegion(op, i, {}, op->getResultTypes(),
                           "the op's result types")))
      return failure();
  return success();
}

LogicalResult check(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name == kWhile)
    return checkWhile(op);
  if (name == kIf)
    return checkIf(op);
  return checkCase(op);
}

/// Replaces the stablehlo.return ending `block` by scf.yield.
void yieldInstead(OpBuilder &builder, Block &block) {
  Operation *ret = block.getTerminator();
  builder.setInsertionPoint(ret);
  scf::YieldOp::create(builder, ret->getLoc(), ret->getOperands());
  ret->erase();
}

/// The element of the rank-0 tensor `tensor`.
Value element(OpBuilder &builder, Location loc, Value tensor) {
  return tensor::ExtractOp::create(builder, loc, tensor, ValueRange{});
}

Operation *rewriteWhile(OpBuilder &builder, Operation *op) {
  auto loop = scf::WhileOp::create(builder, op->getLoc(), op->getResultTypes(),
                                   op->getOperands());
  loop.getBefore().takeBody(op->getRegion(0));
  loop.getAfter().takeBody(op->getRegion(1));
  Block &before = loop.getBefore().front();
  Operation *ret = before.getTerminator();
  builder.setInsertionPoint(ret);
  scf::ConditionOp::create(builder, ret->getLoc(),
                           element(builder, ret->getLoc(), ret->getOperand(0)),
                           before.getArguments());
  ret->erase();
  yieldInstead(builder, loop.getAfter().front());
  return loop;
}

Operation *rewriteIf(OpBuilder &builder, Operation *op) {
  Value predicate = element(builder, op->getLoc(), op->getOperand(0));
  auto branch = scf::IfOp::create(builder, op->getLoc(), op->getResultTypes(),
                                  predicate, /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
  branch.getThenRegion().takeBody(op->getRegion(0));
  branch.getElseRegion().takeBody(op->getRegion(1));
  yieldInstead(builder, branch.getThenRegion().front());
  yieldInstead(builder, branch.getElseRegion().front());
  return branch;
}

/// Two branches (every `jax.lax.cond`): branch 0 if the index is 0, else
/// branch 1, which is also where an index out of range goes. An scf.if is
/// partitioned with its branches; an scf.index_switch runs on whole
/// tensors.
Operation *rewriteTwoWayCase(OpBuilder &builder, Operation *op) {
  Location loc = op->getLoc();
  Value index = element(builder, loc, op->getOperand(0));
  Value zero = arith::ConstantOp::create(
      builder, loc, builder.getIntegerAttr(index.getType(), 0));
  Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                      index, zero);
  auto branch = scf::IfOp::create(builder, loc, op->getResultTypes(), first,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
  branch.getThenRegion().takeBody(op->getRegion(0));
  branch.getElseRegion().takeBody(op->getRegion(1));
  yieldInstead(builder, branch.getThenRegion().front());
  yieldInstead(builder, branch.getElseRegion().front());
  return branch;
}

Operation *rewriteCase(OpBuilder &builder, Operation *op) {
  if (op->getNumRegions() == 2)
    return rewriteTwoWayCase(builder, op);
  Location loc = op->getLoc();
  Value index = arith::IndexCastOp::create(
      builder, loc, builder.getIndexType(),
      element(builder, loc, op->getOperand(0)));
  unsigned numCases = op->getNumRegions() - 1;
  SmallVector<int64_t> cases = llvm::to_vector(llvm::seq<int64_t>(0, numCases));
  auto switchOp = scf::IndexSwitchOp::create(builder, loc, op->getResultTypes(),
                                             index, cases, numCases);
  for (unsigned i = 0; i < numCases; ++i) {
    switchOp.getCaseRegions()[i].takeBody(op->getRegion(i));
    yieldInstead(builder, switchOp.getCaseRegions()[i].front());
  }
  switchOp.getDefaultRegion().takeBody(op->getRegion(numCases));
  yieldInstead(builder, switchOp.getDefaultRegion().front());
  return switchOp;
}

struct ConvertStablehloControlFlowToScfPass
    : meshsdy::impl::ConvertStablehloControlFlowToScfPassBase<
          ConvertStablehloControlFlowToScfPass> {
  void runOnOperation() override {
    // Inner ops first; each keeps its place in the list while the regions
    // holding it move.
    SmallVector<Operation *> ops;
    getOperation()->walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (isControlFlow(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(check(op)))
        return signalPassFailure();
    OpBuilder builder(&getContext());
    for (Operation *op : ops) {
      builder.setInsertionPoint(op);
      StringRef name = op->getName().getStringRef();
      Operation *replacement = name == kWhile ? rewriteWhile(builder, op)
                               : name == kIf  ? rewriteIf(builder, op)
                                              : rewriteCase(builder, op);
      op->replaceAllUsesWith(replacement->getResults());
      op->erase();
    }
  }
};

} // namespace
