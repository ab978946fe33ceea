//===- ModuleShardingPropagation.cpp - mesh-module-sharding-propagation ---===//
//
// Sharding propagation across calls. Functions are propagated callees first;
// before a caller is, each of its calls gets the callee's boundary shardings
// as fixed annotations: operands annotated for users with the shardings of
// the callee's arguments, results annotated with the shardings of the values
// the callee returns. mesh-spmdization then partitions caller and callee
// apart and their signatures agree.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Transforms/ShardingAnnotations.h"
#include "ShardingPropagation.h"
#include "meshsdy/Dialect/Mesh/IR/ShardNormalization.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHMODULESHARDINGPROPAGATION
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// The function with a body that `call` calls, if it resolves to one.
FunctionOpInterface definedCallee(CallOpInterface call,
                                  SymbolTableCollection &symbols) {
  auto callee =
      dyn_cast_or_null<FunctionOpInterface>(call.resolveCallableInTable(&symbols));
  return callee && !callee.isExternal() ? callee : FunctionOpInterface();
}

/// The functions with a body directly in `module`, callees before callers.
/// Fails, with an error, on a recursive call. The depth-first search keeps
/// its own stack: call chains may be long.
FailureOr<SmallVector<FunctionOpInterface>>
calleesFirst(ModuleOp module, SymbolTableCollection &symbols) {
  struct Frame {
    FunctionOpInterface func;
    SmallVector<std::pair<CallOpInterface, FunctionOpInterface>> calls;
    unsigned next = 0;
  };
  SmallVector<FunctionOpInterface> order;
  DenseMap<Operation *, bool> finished; // false: on the stack
  SmallVector<Frame> stack;
  auto enter = [&](FunctionOpInterface func) {
    finished[func] = false;
    Frame frame{func, {}, 0};
    func.walk([&](CallOpInterface call) {
      if (FunctionOpInterface callee = definedCallee(call, symbols))
        frame.calls.emplace_back(call, callee);
    });
    stack.push_back(std::move(frame));
  };
  for (auto root : module.getOps<FunctionOpInterface>()) {
    if (root.isExternal() || finished.count(root))
      continue;
    enter(root);
    while (!stack.empty()) {
      Frame &top = stack.back();
      if (top.next == top.calls.size()) {
        finished[top.func] = true;
        order.push_back(top.func);
        stack.pop_back();
        continue;
      }
      auto [call, callee] = top.calls[top.next++];
      auto it = finished.find(callee);
      if (it == finished.end()) {
        enter(callee); // `top` is not used after this.
        continue;
      }
      if (!it->second)
        return call->emitOpError(
            "unsupported by mesh-module-sharding-propagation: a recursive "
            "call (the callee's shardings depend on its own callers)");
    }
  }
  return order;
}

/// Shardings of equal effect: both replicated (null or without axes) or
/// equal.
bool sameSharding(const MeshSharding &a, const MeshSharding &b) {
  bool aReplicated = !a || a.isReplicated();
  bool bReplicated = !b || b.isReplicated();
  if (aReplicated || bReplicated)
    return aReplicated && bReplicated;
  return a == b;
}

/// The shardings at a propagated function's boundary: its arguments' result
/// annotations and those of the values it returns (null: replicated).
/// Computed once per function: reading them per call would cost the
/// number of uses of each argument at every call site.
struct Boundary {
  SmallVector<MeshSharding, 2> arguments;
  SmallVector<MeshSharding, 1> results;
};

/// The boundary of `func` (one block, propagated), or failure if its body
/// does not end in a terminator.
FailureOr<Boundary> getBoundary(FunctionOpInterface func) {
  Block &body = func.getFunctionBody().front();
  if (body.empty() || !body.back().hasTrait<OpTrait::IsTerminator>())
    return failure();
  Boundary boundary;
  for (BlockArgument arg : body.getArguments())
    boundary.arguments.push_back(getResultAnnotation(arg));
  for (Value returned : body.back().getOperands())
    boundary.results.push_back(getAnnotatedSharding(returned));
  return boundary;
}

/// Annotates the calls of `caller` with the boundaries of their (already
/// propagated) callees.
LogicalResult annotateCalls(FunctionOpInterface caller,
                            const DenseMap<Operation *, Boundary> &boundaries,
                            SymbolTableCollection &symbols) {
  AnnotationBuilder annotations(caller);
  WalkResult result = caller.walk([&](CallOpInterface call) {
    FunctionOpInterface callee = definedCallee(call, symbols);
    if (!callee)
      return WalkResult::advance(); // Unknown body: whole tensors in and out.
    auto it = boundaries.find(callee);
    Operation *op = call.getOperation();
    if (it == boundaries.end() ||
        it->second.arguments.size() != op->getNumOperands() ||
        it->second.results.size() != op->getNumResults()) {
      op->emitOpError("does not match the signature of its callee");
      return WalkResult::interrupt();
    }
    const Boundary &boundary = it->second;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<RankedTensorType>(operand.get().getType()))
        continue;
      const MeshSharding &needed =
          boundary.arguments[operand.getOperandNumber()];
      auto shard = operand.get().getDefiningOp<ShardOp>();
      if (shard && shard.getAnnotateForUsers()) {
        if (sameSharding(MeshSharding::get(shard.getSharding()), needed))
          continue;
        op->emitOpError("operand #")
            << operand.getOperandNumber()
            << " is annotated for users with a sharding other than that of "
               "the callee's argument";
        return WalkResult::interrupt();
      }
      if (needed)
        annotations.annotateOperand(operand, needed);
    }
    for (OpResult result : op->getResults()) {
      if (!isa<RankedTensorType>(result.getType()))
        continue;
      const MeshSharding &returned = boundary.results[result.getResultNumber()];
      MeshSharding existing = getResultAnnotation(result);
      if (existing) {
        if (sameSharding(existing, returned))
          continue;
        op->emitOpError("result #")
            << result.getResultNumber()
            << " is annotated with a sharding other than that of the value "
               "the callee returns";
        return WalkResult::interrupt();
      }
      if (returned)
        annotations.annotateResult(result, returned);
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct MeshModuleShardingPropagationPass
    : mesh::impl::MeshModuleShardingPropagationBase<
          MeshModuleShardingPropagationPass> {
  using Base::Base;

  void runOnOperation() override {
    // Chains left by canonicalize or CSE, in defined form.
    normalizeResultAnnotations(getOperation());
    SymbolTableCollection symbols;
    DenseMap<Operation *, Boundary> boundaries;
    // Built here and kept for the function passes that follow
    // (mesh-spmdization resolves callees through it); propagation adds no
    // symbols.
    (void)getAnalysis<SymbolTable>();
    markAnalysesPreserved<SymbolTable>();
    FailureOr<SmallVector<FunctionOpInterface>> order =
        calleesFirst(getOperation(), symbols);
    if (failed(order))
      return signalPassFailure();
    for (FunctionOpInterface func : *order) {
      if (!func.getFunctionBody().hasOneBlock()) {
        func.emitOpError("unsupported by mesh-module-sharding-propagation: a "
                         "function body with several blocks");
        return signalPassFailure();
      }
      if (failed(annotateCalls(func, boundaries, symbols)))
        return signalPassFailure();
      FailureOr<PropagationCounts> counts = propagateShardings(func, traversal, debugShardingOrigins);
      if (failed(counts))
        return signalPassFailure();
      if (FailureOr<Boundary> boundary = getBoundary(func); succeeded(boundary))
        boundaries[func] = std::move(*boundary);
      numAnnotations += counts->annotations;
      numReplicatedOps += counts->replicatedOps;
      numRevisits += counts->revisits;
    }
  }
};

} // namespace
