//===- ReductionRegion.cpp - the reduction a StableHLO region computes ----===//

#include "ReductionRegion.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::meshsdy;
using mesh::ReductionKind;

namespace {

std::optional<ReductionKind> kindOfStablehloOp(StringRef name) {
  return llvm::StringSwitch<std::optional<ReductionKind>>(name)
      .Case("stablehlo.add", ReductionKind::Sum)
      .Case("stablehlo.multiply", ReductionKind::Product)
      .Case("stablehlo.maximum", ReductionKind::Max)
      .Case("stablehlo.minimum", ReductionKind::Min)
      .Case("stablehlo.and", ReductionKind::BitwiseAnd)
      .Case("stablehlo.or", ReductionKind::BitwiseOr)
      .Case("stablehlo.xor", ReductionKind::BitwiseXor)
      .Default(std::nullopt);
}

std::optional<ReductionKind> kindOfArithOp(StringRef name) {
  return llvm::StringSwitch<std::optional<ReductionKind>>(name)
      .Cases("arith.addf", "arith.addi", ReductionKind::Sum)
      .Cases("arith.mulf", "arith.muli", ReductionKind::Product)
      .Cases("arith.maximumf", "arith.maxnumf", "arith.maxsi",
             ReductionKind::Max)
      .Cases("arith.minimumf", "arith.minnumf", "arith.minsi",
             ReductionKind::Min)
      .Case("arith.andi", ReductionKind::BitwiseAnd)
      .Case("arith.ori", ReductionKind::BitwiseOr)
      .Case("arith.xori", ReductionKind::BitwiseXor)
      .Default(std::nullopt);
}

/// True if `op`'s operands are `a` and `b`, in either order.
bool combines(Operation *op, Value a, Value b) {
  if (op->getNumOperands() != 2)
    return false;
  Value x = op->getOperand(0), y = op->getOperand(1);
  return (x == a && y == b) || (x == b && y == a);
}

/// The arith op a linalg.generic of `a` and `b` applies, if its body is
/// that op and a yield of it.
std::optional<ReductionKind> kindOfGeneric(linalg::GenericOp generic, Value a,
                                           Value b) {
  if (generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1)
    return std::nullopt;
  Value x = generic.getDpsInputs()[0], y = generic.getDpsInputs()[1];
  if (!((x == a && y == b) || (x == b && y == a)))
    return std::nullopt;
  Block &body = generic.getRegion().front();
  if (body.getNumArguments() != 3 || !llvm::hasNItems(body, 2))
    return std::nullopt;
  Operation &combine = body.front();
  Operation *yield = body.getTerminator();
  if (!combines(&combine, body.getArgument(0), body.getArgument(1)) ||
      combine.getNumResults() != 1 || yield->getNumOperands() != 1 ||
      yield->getOperand(0) != combine.getResult(0))
    return std::nullopt;
  return kindOfArithOp(combine.getName().getStringRef());
}

} // namespace

std::optional<ReductionKind>
mlir::meshsdy::matchReductionRegion(Region &region) {
  if (!region.hasOneBlock())
    return std::nullopt;
  Block &block = region.front();
  if (block.getNumArguments() != 2 || block.empty())
    return std::nullopt;
  Operation *ret = &block.back();
  if (ret->getName().getStringRef() != "stablehlo.return" ||
      ret->getNumOperands() != 1)
    return std::nullopt;
  Value a = block.getArgument(0), b = block.getArgument(1);
  Value result = ret->getOperand(0);
  Operation *def = result.getDefiningOp();
  if (!def || def->getNumResults() != 1)
    return std::nullopt;
  if (auto generic = dyn_cast<linalg::GenericOp>(def))
    return kindOfGeneric(generic, a, b);
  if (!combines(def, a, b))
    return std::nullopt;
  return kindOfStablehloOp(def->getName().getStringRef());
}
