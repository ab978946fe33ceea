//===- WidenI1.cpp - store i1 buffers as bytes ----------------------------===//
//
// The element type of every i1 buffer changes in place: the ops that only
// pass a buffer on need no rewrite, and only the two that touch elements
// (load and store) get a conversion next to them.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/WidenI1/WidenI1.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::meshsdy {
#define GEN_PASS_DEF_WIDENI1MEMREFSPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;

namespace {

bool isI1(Type type) { return type.isInteger(1); }

/// `type` with its i1 buffers stored as i8, or null if it has none.
Type widened(Type type) {
  Type i8 = IntegerType::get(type.getContext(), 8);
  if (auto memref = dyn_cast<MemRefType>(type))
    return isI1(memref.getElementType()) ? memref.clone(i8) : Type();
  if (auto unranked = dyn_cast<UnrankedMemRefType>(type))
    return isI1(unranked.getElementType())
               ? UnrankedMemRefType::get(i8, unranked.getMemorySpace())
               : Type();
  if (auto function = dyn_cast<FunctionType>(type)) {
    bool changed = false;
    auto map = [&](TypeRange types) {
      SmallVector<Type> result;
      for (Type t : types) {
        Type w = widened(t);
        changed |= bool(w);
        result.push_back(w ? w : t);
      }
      return result;
    };
    SmallVector<Type> inputs = map(function.getInputs());
    SmallVector<Type> results = map(function.getResults());
    return changed ? FunctionType::get(type.getContext(), inputs, results)
                   : Type();
  }
  return Type();
}

bool hasI1Buffer(TypeRange types) {
  return llvm::any_of(types, [](Type t) {
    return isa<BaseMemRefType>(t) && widened(t);
  });
}

/// Ops that read or write the elements of a buffer in some other way than
/// memref.load / store: their meaning would change with the element type.
LogicalResult checkSupported(Operation *op) {
  if (!hasI1Buffer(op->getOperandTypes()) && !hasI1Buffer(op->getResultTypes()))
    return success();
  if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp, memref::ViewOp>(op))
    return op->emitOpError("unsupported by widen-i1-memrefs: it accesses the "
                           "bytes of an i1 buffer");
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (dialect == "vector" || dialect == "affine" || dialect == "tensor" ||
      dialect == "bufferization" || dialect == "llvm")
    return op->emitOpError("unsupported by widen-i1-memrefs: run it on "
                           "bufferized scalar code, after the linalg ops "
                           "became loops and before the lowering to LLVM");
  return success();
}

/// The initial value of an i1 global, as bytes 0 and 1.
Attribute widenedInitialValue(Attribute value, Type i8) {
  auto dense = dyn_cast_or_null<DenseIntElementsAttr>(value);
  if (!dense)
    return value; // uninitialized (a unit attribute) or absent
  return dense.mapValues(i8, [](const APInt &bit) { return bit.zext(8); });
}

struct WidenI1MemrefsPass
    : meshsdy::impl::WidenI1MemrefsPassBase<WidenI1MemrefsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Check everything first so that a failure leaves the module untouched.
    if (module.walk([](Operation *op) {
                return succeeded(checkSupported(op)) ? WalkResult::advance()
                                                     : WalkResult::interrupt();
              })
            .wasInterrupted())
      return signalPassFailure();

    Type i8 = IntegerType::get(&getContext(), 8);
    OpBuilder builder(&getContext());
    module.walk([&](Operation *op) {
      if (auto function = dyn_cast<FunctionOpInterface>(op))
        if (Type w = widened(function.getFunctionType()))
          function.setType(w);
      if (auto global = dyn_cast<memref::GlobalOp>(op)) {
        if (Type w = widened(global.getType())) {
          global.setType(cast<MemRefType>(w));
          if (std::optional<Attribute> init = global.getInitialValue())
            global.setInitialValueAttr(widenedInitialValue(*init, i8));
        }
      }
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (Type w = widened(arg.getType()))
              arg.setType(w);
      for (OpResult result : op->getResults())
        if (Type w = widened(result.getType()))
          result.setType(w);

      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        if (isI1(load.getType())) { // its buffer is (or will be) i8 now
          load.getResult().setType(i8);
          builder.setInsertionPointAfter(load);
          auto bit = arith::TruncIOp::create(builder, load.getLoc(),
                                             builder.getI1Type(), load);
          load.getResult().replaceAllUsesExcept(bit, bit);
        }
      } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
        if (isI1(store.getValueToStore().getType())) {
          builder.setInsertionPoint(store);
          auto byte = arith::ExtUIOp::create(builder, store.getLoc(), i8,
                                             store.getValueToStore());
          store.getValueMutable().assign(byte);
        }
      }
    });
  }
};

} // namespace
