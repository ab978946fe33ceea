//===- Spmdization.cpp - mesh-spmdization ---------------------------------===//
//
// Rewrites an annotated function op by op, in order. `mapping` holds the
// per-device value of every original value rewritten so far and `held` the
// sharding that per-device value is in (absent: replicated). Annotations
// become reshardings; ops with a ShardingInterface model are rewritten by the
// model once their operands are in the shardings their loops need; other
// ops run on replicated operands. The original ops are erased at the end.
//
//===----------------------------------------------------------------------===//

#include "AddressOrderInfo.h"
#include "Prefetch.h"
#include "Interner.h"
#include "LoopStructures.h"
#include "Resharding.h"
#include "TableReads.h"
#include "meshsdy/Dialect/Mesh/Interfaces/LocalPieces.h"
#include "meshsdy/Dialect/Mesh/Transforms/ShardingAnnotations.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "Boundary.h"
#include "CarriedValues.h"
#include "meshsdy/Dialect/Mesh/IR/ShardNormalization.h"
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHSPMDIZATION
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// Remembers the top-level ops a builder creates in `body`, so that a failed
/// rewrite can be undone (ops nested in them go with them).
struct CreatedOps : public OpBuilder::Listener {
  explicit CreatedOps(Block *body) : body(body) {}
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint) override {
    if (op->getBlock() == body)
      ops.push_back(op);
  }
  Block *body;
  SmallVector<Operation *> ops;
};

class Spmdizer {
public:
  /// `moduleSymbols`: the symbol table of the function's parent, if a
  /// module-level pass left it (resolving callees through it costs O(1);
  /// without it each function scans the module).
  Spmdizer(FunctionOpInterface func, const SymbolTable *moduleSymbols)
      : func(func), created(&func.getFunctionBody().front()),
        builder(func.getContext(), &created), moduleSymbols(moduleSymbols) {}

  /// Rewrites the function; on failure, leaves it unchanged.
  LogicalResult run();

private:
  LogicalResult rewriteBody();
  void undo();

  LogicalResult rewrite(Operation *op);
  LogicalResult rewriteSharded(ShardingInterface op,
                               const LoopStructure &structure);
  LogicalResult rewriteReplicated(Operation *op);
  /// The table `read` reads left where it lies along some of its split
  /// dimensions (TableReads.h), if its sharding and the loops allow:
  /// `piece` receives the sharding it is read in (the other splits
  /// dropped: gathered), `kept` those dimensions (and whether the position
  /// there is computed, so masked), `partial` the axes the op's result is
  /// then partial over.
  bool planTableRead(const TableRead &read, FlatSymbolRefAttr mesh,
                     const LoopSharding &loops, MeshSharding &piece,
                     SmallVectorImpl<std::pair<int64_t, bool>> &kept,
                     DimSplitAxes &partial);
  /// Maps each value in `values` that is held sharded to its whole
  /// (replicated) form, gathering it at `loc`; `restore` receives what to
  /// map back once the op reading them is rewritten (other users still
  /// read the sharded forms).
  LogicalResult mapWhole(ArrayRef<Value> values, Location loc,
                         SmallVectorImpl<std::pair<Value, Value>> &restore);
  void unmapWhole(ArrayRef<std::pair<Value, Value>> restore) {
    for (auto [value, previous] : restore)
      mapping.map(value, previous);
  }
  LogicalResult rewriteLoop(scf::ForOp loop);
  /// A while whose before-arguments carry its results: every place of a
  /// carried value is sharded as its result is annotated.
  LogicalResult rewriteWhile(scf::WhileOp loop);
  /// An scf.if or scf.index_switch: each region rewritten, yielding its
  /// results in the shardings they are annotated with.
  LogicalResult rewriteBranch(Operation *branch);
  LogicalResult rewriteCall(CallOpInterface call);
  LogicalResult rewriteManualBoundary(UnrealizedConversionCastOp cast);
  /// The sharding each result of `op` is annotated with (null: replicated)
  /// and its per-device type.
  LogicalResult annotatedResultTypes(Operation *op,
                                     SmallVectorImpl<MeshSharding> &shardings,
                                     SmallVectorImpl<Type> &types);
  /// Rewrites the ops of `from` (not its terminator) at the end of `to`, then
  /// yields the per-device forms of `from`'s yielded values in `shardings`.
  LogicalResult rewriteRegionBody(Block &from, Block &to,
                                  ArrayRef<MeshSharding> shardings);
  /// The per-device value of `value` in sharding `wanted` (null: replicated).
  FailureOr<Value> localAs(Value value, const MeshSharding &wanted,
                           Location loc);
  /// localAs for a tensor; any other value is used as it is.
  FailureOr<Value> localOrSame(Value value, const MeshSharding &wanted,
                               Location loc) {
    if (isa<RankedTensorType>(value.getType()))
      return localAs(value, wanted, loc);
    return mapping.lookupOrDefault(value);
  }
  RankedTensorType globalType(Value value) const {
    auto it = argTypes.find(value);
    return it != argTypes.end() ? it->second
                                : dyn_cast<RankedTensorType>(value.getType());
  }
  MeshOp lookupMesh(const MeshSharding &sharding) {
    return sharding ? getMesh(func, sharding.getMeshAttr(), symbolTables)
                    : MeshOp();
  }

  FunctionOpInterface func;
  const SymbolTable *moduleSymbols;
  CreatedOps created;
  OpBuilder builder;
  IRMapping mapping;
  BoundaryEntries boundaryEntries{func.getContext()};
  /// The sharding the per-device value of `value` is in (null: replicated).
  const MeshSharding &heldAs(Value value) const {
    static const MeshSharding replicated;
    auto it = held.find(value);
    return it == held.end() ? replicated : *it->second;
  }
  void hold(Value value, const MeshSharding &sharding) {
    held[value] = shardings.intern(sharding);
  }
  /// Maps `results` to `newResults`, held in `shardings`.
  void mapResults(ValueRange results, ValueRange newResults,
                  ArrayRef<MeshSharding> shardings) {
    for (auto [result, newResult, sharding] :
         llvm::zip(results, newResults, shardings)) {
      mapping.map(result, newResult);
      if (sharding)
        hold(result, sharding);
    }
  }
  /// Interned: most values share a few shardings.
  DenseMap<Value, const MeshSharding *, ValueAddressInfo> held;
  Interner<MeshSharding, hashMeshSharding> shardings;
  /// What a `mesh.sharding` value stands for, read once per value: the
  /// annotations of a function share a few sharding ops. Not interned: the
  /// boundary entries print each sharding as written, and `==` equates
  /// forms written differently.
  const MeshSharding &shardingOf(Value sharding) {
    auto [it, inserted] = shardingValues.try_emplace(sharding, nullptr);
    if (inserted)
      it->second = &shardingsRead.emplace_back(MeshSharding::get(sharding));
    return *it->second;
  }
  /// getResultAnnotation and getAnnotatedSharding, through shardingOf.
  MeshSharding resultAnnotation(Value value) {
    ShardOp shard = getResultAnnotationOp(value);
    return shard ? shardingOf(shard.getSharding()) : MeshSharding();
  }
  MeshSharding annotatedSharding(Value value) {
    auto shard = value.getDefiningOp<ShardOp>();
    return shard ? shardingOf(shard.getSharding()) : MeshSharding();
  }
  DenseMap<Value, const MeshSharding *, ValueAddressInfo> shardingValues;
  std::deque<MeshSharding> shardingsRead;
  /// Global types of the function arguments, which are retyped in place.
  DenseMap<Value, RankedTensorType> argTypes;
  ScanningSymbolTableCollection symbolTables;
  SmallVector<Type> resultTypes;
  /// Where the collectives resharding `value` for a user at `user` go.
  Location reshardLocation(Location user, Value value,
                           const MeshSharding &from, const MeshSharding &to);
  /// The `mesh.boundary` entries of the arguments and results.
  SmallVector<Attribute> argumentBoundary, resultBoundary;
  LoopStructures loopStructures;
};

FailureOr<Value> Spmdizer::localAs(Value value, const MeshSharding &wanted,
                                   Location loc) {
  Value local = mapping.lookupOrNull(value);
  if (!local)
    return emitError(loc) << "unsupported by mesh-spmdization: a value "
                             "defined outside the function body";
  RankedTensorType global = globalType(value);
  const MeshSharding &from = heldAs(value);
  if (!global || from == wanted)
    return local;
  MeshOp mesh = lookupMesh(from ? from : wanted);
  if (!mesh)
    return emitError(loc) << "mesh '" << (from ? from : wanted).getMesh()
                          << "' not found";
  return reshard(builder, reshardLocation(loc, value, from, wanted), mesh,
                 local, global, from, wanted);
}

/// `split_axes = [[0], []] partial = sum [1]`, as mesh.sharding prints it
/// (halos and offsets left out); "replicated" for none.
static std::string describe(const MeshSharding &sharding) {
  if (!sharding)
    return "replicated";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "split_axes = [";
  llvm::interleaveComma(sharding.getSplitAxes(), os, [&](const DimSplitAxes &axes) {
    os << "[";
    llvm::interleaveComma(axes, os);
    os << "]";
  });
  os << "]";
  if (!sharding.getPartialAxes().empty()) {
    os << " partial = " << stringifyReductionKind(sharding.getPartialType())
       << " [";
    llvm::interleaveComma(sharding.getPartialAxes(), os);
    os << "]";
  }
  if (!sharding.getStaticHaloSizes().empty())
    os << " halo_sizes";
  if (!sharding.getStaticShardedDimsOffsets().empty())
    os << " sharded_dims_offsets";
  return text;
}

Location Spmdizer::reshardLocation(Location user, Value value,
                                   const MeshSharding &from,
                                   const MeshSharding &to) {
  // Which value, and the two shardings: the collectives resharding it carry
  // this (visible with --mlir-print-debuginfo), and the value's own
  // location after the user's, so a collective leads back to both.
  // The annotated value, not its annotations.
  while (auto shard = value.getDefiningOp<ShardOp>())
    value = shard.getSrc();
  std::string what;
  if (auto arg = dyn_cast<BlockArgument>(value))
    what = "argument " + std::to_string(arg.getArgNumber());
  else
    what = "result " + std::to_string(cast<OpResult>(value).getResultNumber()) +
           " of " + value.getDefiningOp()->getName().getStringRef().str();
  MLIRContext *ctx = user.getContext();
  return FusedLoc::get(
      ctx, {user, value.getLoc()},
      StringAttr::get(ctx, "reshard " + what + ": " + describe(from) + " -> " +
                               describe(to)));
}

/// True if `op` passes or receives tensors.
static bool hasTensors(Operation *op) {
  return llvm::any_of(
      llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()),
      [](Type type) { return isa<RankedTensorType>(type); });
}

LogicalResult Spmdizer::rewriteReplicated(Operation *op) {
  // A call in there would keep whole-tensor types while its callee is
  // partitioned on its own.
  WalkResult calls = op->walk([](CallOpInterface call) {
    return hasTensors(call) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (calls.wasInterrupted())
    return op->emitOpError("unsupported by mesh-spmdization: a call with "
                           "tensor operands or results inside an op that runs "
                           "on whole tensors");
  // Whole tensors in: the operands and what the regions use from above.
  SetVector<Value> inputs(op->getOperands().begin(), op->getOperands().end());
  getUsedValuesDefinedAbove(op->getRegions(), inputs);
  SmallVector<std::pair<Value, Value>> restore;
  if (failed(mapWhole(inputs.getArrayRef(), op->getLoc(), restore)))
    return failure();
  Operation *clone = builder.clone(*op, mapping);
  // Inside, everything is whole: annotations there say nothing any more.
  clone->walk([](ShardOp shard) {
    shard.getResult().replaceAllUsesWith(shard.getSrc());
    shard.erase();
  });
  unmapWhole(restore);
  return success();
}

LogicalResult
Spmdizer::mapWhole(ArrayRef<Value> values, Location loc,
                   SmallVectorImpl<std::pair<Value, Value>> &restore) {
  for (Value value : values) {
    if (!heldAs(value))
      continue;
    FailureOr<Value> whole = localAs(value, MeshSharding(), loc);
    if (failed(whole))
      return failure();
    restore.emplace_back(value, mapping.lookup(value));
    mapping.map(value, *whole);
  }
  return success();
}

LogicalResult Spmdizer::rewriteSharded(ShardingInterface op,
                                       const LoopStructure &structure) {
  ArrayRef<AffineMap> maps = structure.maps;
  ArrayRef<utils::IteratorType> iterators = structure.iterators;
  Operation *operation = op.getOperation();
  unsigned numOperands = operation->getNumOperands();
  // What is known: the shardings the operands are held in, then the result
  // annotations.
  SmallVector<MeshSharding, 4> known;
  for (Value operand : operation->getOperands())
    known.push_back(heldAs(operand));
  for (Value result : operation->getResults())
    known.push_back(resultAnnotation(result));
  FlatSymbolRefAttr mesh;
  for (const MeshSharding &sharding : known)
    if (sharding && !mesh)
      mesh = sharding.getMeshAttr();
  // A table split along the rows the body computes (an embedding) may stay
  // where it lies (planTableRead), whatever its ids' sharding.
  SetVector<Value> above;
  getUsedValuesDefinedAbove(operation->getRegions(), above);
  SmallVector<Value> tensorsAbove(llvm::make_filter_range(
      above, [](Value v) { return isa<RankedTensorType>(v.getType()); }));
  SmallVector<Value> splitAbove(llvm::make_filter_range(
      tensorsAbove, [&](Value v) {
        return heldAs(v) && !heldAs(v).isReplicated();
      }));
  std::optional<TableRead> tableRead;
  if (splitAbove.size() == 1)
    tableRead = matchTableRead(operation, splitAbove.front());
  if (!mesh && tableRead)
    mesh = heldAs(tableRead->table).getMeshAttr();
  if (!mesh)
    return rewriteReplicated(operation);

  SmallVector<SplitAxes> axes(known.size());
  SmallVector<const SplitAxes *> axesPtrs(known.size(), nullptr);
  SmallVector<unsigned> order;
  for (auto [i, sharding] : llvm::enumerate(known)) {
    if (!sharding || sharding.getMeshAttr() != mesh)
      continue;
    for (ArrayRef<MeshAxis> dim : sharding.getSplitAxes())
      axes[i].push_back(DimSplitAxes(dim));
    axesPtrs[i] = &axes[i];
    order.push_back(i);
  }
  SmallVector<RankedTensorType> types;
  for (Value operand : operation->getOperands())
    types.push_back(globalType(operand));
  for (Type type : operation->getResultTypes())
    types.push_back(dyn_cast<RankedTensorType>(type));
  MeshOp meshOp = lookupMesh(MeshSharding(mesh, {}));
  LoopSharding loops = deriveLoopSharding(
      iterators.size(), maps, axesPtrs, order,
      getSplittableLoops(op, maps, iterators, types), types,
      meshOp && meshOp.isStatic() ? meshOp.getShape() : ArrayRef<int64_t>());

  SmallVector<Value> localOperands;
  SmallVector<MeshSharding, 4> operandShardings;
  for (auto [i, operand] : llvm::enumerate(operation->getOperands())) {
    MeshSharding needed = MeshSharding(mesh, loops.project(maps[i]));
    FailureOr<Value> local =
        localOrSame(operand, needed, operation->getLoc());
    if (failed(local))
      return failure();
    localOperands.push_back(*local);
    operandShardings.push_back(needed);
  }

  DimSplitAxes partial = loops.reductionAxes(iterators);
  ReductionKind kind = getPartialReductionKind(op, loops, iterators);
  // A table read where it lies, along the rows it computes (the result is
  // then partial over their axes) or positions its split loops cover.
  MeshSharding tablePiece;
  SmallVector<std::pair<int64_t, bool>> keptTableDims;
  if (tableRead && !planTableRead(*tableRead, mesh, loops, tablePiece,
                                  keptTableDims, partial))
    tableRead.reset();
  SmallVector<MeshSharding, 4> resultShardings;
  for (OpResult result : operation->getResults())
    resultShardings.push_back(
        isa<RankedTensorType>(result.getType())
            ? MeshSharding(mesh, loops.project(maps[numOperands +
                                            result.getResultNumber()]),
                         partial, kind)
            : MeshSharding());
  // Tensors the regions read from above (a gather's table) are read
  // whole, as in the original: the model said its regions allow it. The
  // table planned above is read where it lies.
  if (tableRead)
    llvm::erase(tensorsAbove, tableRead->table);
  SmallVector<std::pair<Value, Value>> restore;
  Value localTable;
  SmallVector<TablePieceDim> tablePieces;
  if (tableRead) {
    Location loc = operation->getLoc();
    FailureOr<Value> local = localAs(tableRead->table, tablePiece, loc);
    if (failed(local))
      return failure();
    for (auto [dim, masked] : keptTableDims) {
      FailureOr<std::pair<Value, Value>> piece = buildLocalPiece(
          builder, loc, lookupMesh(tablePiece), globalType(tableRead->table),
          tablePiece, dim);
      if (failed(piece))
        return operation->emitOpError("mesh-spmdization found no piece of "
                                      "dimension ")
               << dim << " of the table it reads (internal error)";
      tablePieces.push_back({dim, piece->first, piece->second, masked});
    }
    localTable = *local;
    restore.emplace_back(tableRead->table, mapping.lookup(tableRead->table));
    mapping.map(tableRead->table, localTable);
  }
  if (failed(mapWhole(tensorsAbove, operation->getLoc(), restore)))
    return failure();
  LogicalResult spmdized = op.spmdize(localOperands, operandShardings,
                                      resultShardings, mapping, symbolTables,
                                      builder);
  unmapWhole(restore);
  if (failed(spmdized))
    return failure();
  if (tableRead &&
      failed(maskTableRead(
          mapping.lookupOrDefault(operation->getResult(0)).getDefiningOp(),
          localTable,
          tablePieces, builder)))
    return failure();
  for (auto [result, sharding] :
       llvm::zip(operation->getResults(), resultShardings))
    if (sharding)
      hold(result, sharding);
  return success();
}

bool Spmdizer::planTableRead(const TableRead &read, FlatSymbolRefAttr mesh,
                             const LoopSharding &loops, MeshSharding &piece,
                             SmallVectorImpl<std::pair<int64_t, bool>> &kept,
                             DimSplitAxes &partial) {
  const MeshSharding &held = heldAs(read.table);
  RankedTensorType global = globalType(read.table);
  MeshOp meshOp = lookupMesh(held);
  if (!held || held.getMeshAttr() != mesh || !held.getPartialAxes().empty() ||
      !global || !meshOp || !meshOp.isStatic())
    return false;
  SplitAxes pieceAxes(global.getRank());
  DimSplitAxes masked;
  for (auto [dim, loop] : llvm::enumerate(read.loops)) {
    ArrayRef<MeshAxis> axes = held.getSplitAxes(dim);
    if (axes.empty() || global.isDynamicDim(dim))
      continue;
    // A loop position: kept where the loop is split as the dimension is,
    // over the same extent (the same pieces); gathered otherwise.
    if (loop >= 0 &&
        (static_cast<size_t>(loop) >= loops.loopAxes.size() ||
         ArrayRef<MeshAxis>(loops.loopAxes[loop]) != axes ||
         static_cast<size_t>(loop) >= loops.loopExtents.size() ||
         loops.loopExtents[loop] != global.getDimSize(dim)))
      continue;
    pieceAxes[dim] = DimSplitAxes(axes);
    kept.emplace_back(dim, loop < 0);
    if (loop < 0)
      llvm::append_range(masked, axes);
  }
  if (!masked.empty()) {
    // The result becomes partial over the masked axes: not if it already is
    // (a reduction), if a loop is split over one of them, or if the body
    // does more than yield the element (the neutral element would not be
    // one any more); a sum of i1 is no or. Those dimensions are gathered
    // then.
    Type element = global.getElementType();
    if (!read.yieldsElement || !partial.empty() ||
        llvm::any_of(masked,
                     [&](MeshAxis axis) { return loops.usesAxis(axis); }) ||
        !(isa<FloatType>(element) ||
          (isa<IntegerType>(element) && element.getIntOrFloatBitWidth() > 1))) {
      for (auto [dim, isMasked] : kept)
        if (isMasked)
          pieceAxes[dim].clear();
      llvm::erase_if(kept, [](auto entry) { return entry.second; });
      masked.clear();
    }
  }
  if (kept.empty())
    return false;
  piece = MeshSharding(mesh, pieceAxes);
  for (auto [dim, isMasked] : kept) {
    FailureOr<DimPieces> pieces = getDimPieces(global, meshOp, piece, dim);
    if (failed(pieces))
      return false;
    // A device without rows would still read its (empty) piece.
    for (int64_t k = 0; isMasked && k < pieces->count; ++k)
      if (pieces->size(k) == 0)
        return false;
  }
  if (!masked.empty())
    partial = masked;
  return true;
}

LogicalResult Spmdizer::rewriteRegionBody(Block &from, Block &to,
                                          ArrayRef<MeshSharding> shardings) {
  OpBuilder::InsertionGuard guard(builder);
  for (Operation &op : from.without_terminator()) {
    builder.setInsertionPointToEnd(&to);
    if (failed(rewrite(&op)))
      return failure();
  }
  builder.setInsertionPointToEnd(&to);
  Operation *terminator = from.getTerminator();
  SmallVector<Value> yielded;
  for (auto [value, sharding] :
       llvm::zip(terminator->getOperands(), shardings)) {
    FailureOr<Value> local =
        localOrSame(value, sharding, terminator->getLoc());
    if (failed(local))
      return failure();
    yielded.push_back(*local);
  }
  scf::YieldOp::create(builder, terminator->getLoc(), yielded);
  return success();
}

LogicalResult Spmdizer::rewriteLoop(scf::ForOp loop) {
  // The carried value is sharded as propagation annotated the result.
  SmallVector<MeshSharding, 4> shardings;
  SmallVector<Value> inits;
  for (auto [init, result] : llvm::zip(loop.getInitArgs(), loop.getResults())) {
    shardings.push_back(resultAnnotation(result));
    FailureOr<Value> local =
        localOrSame(init, shardings.back(), loop.getLoc());
    if (failed(local))
      return failure();
    inits.push_back(*local);
  }
  auto newLoop = scf::ForOp::create(
      builder, loop.getLoc(), mapping.lookupOrDefault(loop.getLowerBound()),
      mapping.lookupOrDefault(loop.getUpperBound()),
      mapping.lookupOrDefault(loop.getStep()), inits,
      [](OpBuilder &, Location, Value, ValueRange) {});
  mapping.map(loop.getInductionVar(), newLoop.getInductionVar());
  for (auto [oldArg, newArg, sharding] :
       llvm::zip(loop.getRegionIterArgs(), newLoop.getRegionIterArgs(),
                 shardings)) {
    mapping.map(oldArg, newArg);
    if (sharding)
      hold(oldArg, sharding);
  }
  if (failed(rewriteRegionBody(*loop.getBody(), *newLoop.getBody(),
                               shardings)))
    return failure();
  mapResults(loop.getResults(), newLoop.getResults(), shardings);
  return success();
}

LogicalResult Spmdizer::rewriteWhile(scf::WhileOp loop) {
  SmallVector<MeshSharding, 4> shardings;
  SmallVector<Type> types;
  if (failed(annotatedResultTypes(loop, shardings, types)))
    return failure();
  SmallVector<Value> inits;
  for (auto [init, sharding] : llvm::zip(loop.getInits(), shardings)) {
    FailureOr<Value> local = localOrSame(init, sharding, loop.getLoc());
    if (failed(local))
      return failure();
    inits.push_back(*local);
  }
  auto noBody = [](OpBuilder &, Location, ValueRange) {};
  auto newLoop = scf::WhileOp::create(builder, loop.getLoc(), types, inits,
                                      noBody, noBody);
  auto mapArguments = [&](Block &from, Block &to) {
    for (auto [oldArg, newArg, sharding] :
         llvm::zip(from.getArguments(), to.getArguments(), shardings)) {
      mapping.map(oldArg, newArg);
      if (sharding)
        hold(oldArg, sharding);
    }
  };
  mapArguments(*loop.getBeforeBody(), *newLoop.getBeforeBody());
  mapArguments(*loop.getAfterBody(), *newLoop.getAfterBody());
  {
    OpBuilder::InsertionGuard guard(builder);
    for (Operation &op : loop.getBeforeBody()->without_terminator()) {
      builder.setInsertionPointToEnd(newLoop.getBeforeBody());
      if (failed(rewrite(&op)))
        return failure();
    }
    builder.setInsertionPointToEnd(newLoop.getBeforeBody());
    scf::ConditionOp condition = loop.getConditionOp();
    SmallVector<Value> args;
    for (auto [value, sharding] : llvm::zip(condition.getArgs(), shardings)) {
      FailureOr<Value> local =
          localOrSame(value, sharding, condition.getLoc());
      if (failed(local))
        return failure();
      args.push_back(*local);
    }
    scf::ConditionOp::create(builder, condition.getLoc(),
                             mapping.lookupOrDefault(condition.getCondition()),
                             args);
  }
  if (failed(rewriteRegionBody(*loop.getAfterBody(), *newLoop.getAfterBody(),
                               shardings)))
    return failure();
  mapResults(loop.getResults(), newLoop.getResults(), shardings);
  return success();
}

LogicalResult
Spmdizer::annotatedResultTypes(Operation *op,
                               SmallVectorImpl<MeshSharding> &shardings,
                               SmallVectorImpl<Type> &types) {
  for (Value result : op->getResults()) {
    auto global = dyn_cast<RankedTensorType>(result.getType());
    shardings.push_back(global ? resultAnnotation(result) : MeshSharding());
    if (!global) {
      types.push_back(result.getType());
      continue;
    }
    FailureOr<RankedTensorType> local =
        getLocalType(op, global, shardings.back(), symbolTables,
                     /*allowUneven=*/true);
    if (failed(local))
      return failure();
    types.push_back(*local);
  }
  return success();
}

LogicalResult Spmdizer::rewriteBranch(Operation *branch) {
  SmallVector<MeshSharding, 4> shardings;
  SmallVector<Type> resultTypes;
  if (failed(annotatedResultTypes(branch, shardings, resultTypes)))
    return failure();
  Operation *newBranch;
  if (auto ifOp = dyn_cast<scf::IfOp>(branch)) {
    newBranch = scf::IfOp::create(
        builder, branch->getLoc(), resultTypes,
        mapping.lookupOrDefault(ifOp.getCondition()),
        /*withElseRegion=*/!ifOp.getElseRegion().empty());
  } else {
    auto switchOp = cast<scf::IndexSwitchOp>(branch);
    newBranch = scf::IndexSwitchOp::create(
        builder, branch->getLoc(), resultTypes,
        mapping.lookupOrDefault(switchOp.getArg()), switchOp.getCases(),
        switchOp.getNumCases());
  }
  for (auto [from, to] :
       llvm::zip(branch->getRegions(), newBranch->getRegions())) {
    if (from.empty())
      continue;
    if (to.empty())
      to.emplaceBlock();
    Block &block = to.front();
    if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
      block.back().erase();
    if (failed(rewriteRegionBody(from.front(), block, shardings)))
      return failure();
  }
  mapResults(branch->getResults(), newBranch->getResults(), shardings);
  return success();
}

LogicalResult Spmdizer::rewriteCall(CallOpInterface call) {
  // A callee with a body is partitioned on its own; a function pass may not
  // read it. The call site says what the callee's signature becomes: an
  // operand annotated for users is passed in that sharding, any other
  // replicated; a result is what its result annotation says (replicated
  // without one). mesh-module-sharding-propagation writes these from the
  // callee. A declaration keeps its signature: whole tensors in and out.
  Operation *op = call.getOperation();
  auto symbol = dyn_cast<SymbolRefAttr>(call.getCallableForCallee());
  if (!symbol && hasTensors(op))
    return op->emitOpError("unsupported by mesh-spmdization: an indirect "
                           "call with tensor operands or results");
  Operation *calleeOp = nullptr;
  if (symbol && moduleSymbols && symbol.getNestedReferences().empty() &&
      SymbolTable::getNearestSymbolTable(op) == func->getParentOp())
    calleeOp = moduleSymbols->lookup(symbol.getRootReference());
  else if (symbol)
    calleeOp = symbolTables.lookupNearestSymbolFrom(op, symbol);
  auto callee = dyn_cast_or_null<FunctionOpInterface>(calleeOp);
  bool partitioned = callee && !callee.isExternal();
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto shard = operand.getDefiningOp<ShardOp>();
    MeshSharding wanted = partitioned && shard && shard.getAnnotateForUsers()
                              ? MeshSharding::get(shard.getSharding())
                              : MeshSharding();
    FailureOr<Value> local =
        localOrSame(operand, wanted, op->getLoc());
    if (failed(local))
      return failure();
    operands.push_back(*local);
  }
  SmallVector<MeshSharding, 4> shardings;
  SmallVector<Type> types;
  if (!partitioned) {
    shardings.resize(op->getNumResults());
    llvm::append_range(types, op->getResultTypes());
  } else if (failed(annotatedResultTypes(op, shardings, types))) {
    return failure();
  }
  Operation *newOp = builder.clone(*op, mapping);
  newOp->setOperands(operands);
  for (auto [result, newResult, type, sharding] :
       llvm::zip(op->getResults(), newOp->getResults(), types, shardings)) {
    newResult.setType(type);
    if (sharding)
      hold(result, sharding);
  }
  return success();
}

/// `sharding` (null: replicated) without the split axes of `manual`, or
/// with them in front of each dimension's axes (`add`).
static MeshSharding withManualAxes(const MeshSharding &sharding,
                                   const MeshSharding &manual, bool add) {
  SmallVector<DimSplitAxes> split;
  size_t rank = std::max(sharding.getSplitAxes().size(),
                         manual.getSplitAxes().size());
  for (size_t d = 0; d < rank; ++d) {
    ArrayRef<MeshAxis> manualAxes = manual.getSplitAxes(d);
    DimSplitAxes dim;
    if (add)
      llvm::append_range(dim, manualAxes);
    for (MeshAxis axis : sharding.getSplitAxes(d))
      if (!llvm::is_contained(manualAxes, axis))
        dim.push_back(axis);
    split.push_back(dim);
  }
  return MeshSharding(manual.getMeshAttr(), split, sharding.getPartialAxes(),
                      sharding.getPartialType());
}

LogicalResult Spmdizer::rewriteManualBoundary(UnrealizedConversionCastOp cast) {
  auto kind = cast->getAttrOfType<StringAttr>(kManualBoundaryAttr);
  bool enter = kind && kind.getValue() == "enter";
  auto global = cast.getNumResults() == 1
                    ? dyn_cast<RankedTensorType>(cast.getResult(0).getType())
                    : RankedTensorType();
  MeshSharding manual = cast.getNumOperands() == 2
                            ? MeshSharding::get(cast.getOperand(1))
                            : MeshSharding();
  if (!kind || (!enter && kind.getValue() != "exit") || !global || !manual ||
      !isa<RankedTensorType>(cast.getOperand(0).getType()))
    return cast.emitOpError("malformed manual region boundary: expected a "
                            "tensor and a mesh.sharding to one tensor, with ")
           << kManualBoundaryAttr << " = \"enter\" or \"exit\"";
  Value value = cast.getOperand(0);
  Value local = mapping.lookupOrNull(value);
  if (!local)
    return cast.emitOpError("unsupported by mesh-spmdization: a value "
                            "defined outside the function body");
  const MeshSharding &held = heldAs(value);
  MeshSharding result = withManualAxes(held, manual, /*add=*/!enter);
  auto sameAxes = [](const MeshSharding &a, const MeshSharding &b) {
    return a.getSplitAxes() == b.getSplitAxes() &&
           a.getPartialAxes() == b.getPartialAxes();
  };
  if (enter && !sameAxes(withManualAxes(result, manual, /*add=*/true), held))
    return cast.emitOpError("unsupported by mesh-spmdization: a manual "
                            "region's operand is not split along its manual "
                            "axes first");
  // Leaving, the body's value may only be split along the free axes.
  if (!enter && llvm::any_of(held.getSplitAxes(), [&](ArrayRef<MeshAxis> axes) {
        return llvm::any_of(axes, [&](MeshAxis axis) {
          return llvm::any_of(manual.getSplitAxes(),
                              [&](ArrayRef<MeshAxis> manualAxes) {
                                return llvm::is_contained(manualAxes, axis);
                              });
        });
      }))
    return cast.emitOpError("unsupported by mesh-spmdization: a manual "
                            "region's result is split along a manual axis");
  FailureOr<RankedTensorType> expected =
      getLocalType(cast, global, result, symbolTables, /*allowUneven=*/true);
  if (failed(expected))
    return failure();
  if (*expected != local.getType())
    return cast.emitOpError("unsupported by mesh-spmdization: the per-device "
                            "pieces of a manual region's boundary are ")
           << local.getType() << ", its body expects " << *expected;
  mapping.map(cast.getResult(0), local);
  if (!result.getSplitAxes().empty() || !result.getPartialAxes().empty())
    hold(cast.getResult(0), result);
  return success();
}

LogicalResult Spmdizer::rewrite(Operation *op) {
  if (isa<ShardingOp>(op))
    return success();
  if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op);
      cast && cast->hasAttr(kManualBoundaryAttr))
    return rewriteManualBoundary(cast);
  if (auto call = dyn_cast<CallOpInterface>(op))
    return rewriteCall(call);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return rewriteLoop(loop);
  if (auto loop = dyn_cast<scf::WhileOp>(op); loop && carriesResults(loop))
    return rewriteWhile(loop);
  if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
    return rewriteBranch(op);
  if (auto shard = dyn_cast<ShardOp>(op)) {
    const MeshSharding &sharding = shardingOf(shard.getSharding());
    if (!sharding || !sharding.getDynamicHaloSizes().empty() ||
        !sharding.getDynamicShardedDimsOffsets().empty())
      return shard.emitOpError("unsupported by mesh-spmdization: the "
                               "sharding must be a mesh.sharding op with "
                               "static sizes");
    FailureOr<Value> local = localAs(shard.getSrc(), sharding, op->getLoc());
    if (failed(local))
      return failure();
    mapping.map(shard.getResult(), *local);
    hold(shard.getResult(), sharding);
    return success();
  }
  if (op->hasTrait<OpTrait::ReturnLike>() &&
      op->getParentOp() == func.getOperation()) {
    // A function result is sharded as its annotation says; an unannotated
    // one is replicated, whatever the op that computed it produced.
    SmallVector<Value> results;
    for (Value operand : op->getOperands()) {
      MeshSharding sharding = annotatedSharding(operand);
      // An argument returned as is has been retyped already.
      auto arg = dyn_cast<BlockArgument>(operand);
      Type global = arg && argTypes.count(arg) ? Type(argTypes.lookup(arg))
                                               : operand.getType();
      resultBoundary.push_back(
          boundaryEntries.get(global, sharding));
      FailureOr<Value> local =
          localOrSame(operand, sharding, op->getLoc());
      if (failed(local))
        return failure();
      results.push_back(*local);
      resultTypes.push_back(local->getType());
    }
    Operation *newOp = builder.clone(*op, mapping);
    newOp->setOperands(results);
    return success();
  }
  if (auto sharded = dyn_cast<ShardingInterface>(op)) {
    // A copy: the structures of ops other than linalg's are not kept.
    LoopStructure structure = loopStructures.get(sharded);
    // A tensor its regions read from above has no place in the loop
    // sharding: such an op runs on whole tensors, unless its model lets it
    // read them whole while its loops are split (a linalg gather).
    SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    bool tensorFromAbove = llvm::any_of(above, [](Value v) {
      return isa<RankedTensorType>(v.getType());
    });
    if (structure.maps.size() == op->getNumOperands() + op->getNumResults() &&
        (!tensorFromAbove || sharded.canReadWholeTensorsFromAbove()))
      return rewriteSharded(sharded, structure);
  }
  return rewriteReplicated(op);
}

LogicalResult Spmdizer::run() {
  if (!func.getFunctionBody().hasOneBlock())
    return func.emitOpError("unsupported by mesh-spmdization: a function "
                            "body with several blocks");
  if (succeeded(rewriteBody()))
    return success();
  undo();
  return failure();
}

void Spmdizer::undo() {
  for (Operation *op : llvm::reverse(created.ops)) {
    op->dropAllUses();
    op->erase();
  }
  for (auto [arg, type] : argTypes)
    arg.setType(type);
}

LogicalResult Spmdizer::rewriteBody() {
  Block &entry = func.getFunctionBody().front();

  for (BlockArgument arg : entry.getArguments()) {
    mapping.map(arg, arg);
    auto global = dyn_cast<RankedTensorType>(arg.getType());
    MeshSharding sharding = resultAnnotation(arg);
    argumentBoundary.push_back(
        boundaryEntries.get(arg.getType(), sharding));
    if (!global || !sharding)
      continue;
    MeshOp mesh = lookupMesh(sharding);
    if (!mesh)
      return func.emitOpError("mesh '") << sharding.getMesh() << "' not found";
    FailureOr<RankedTensorType> local =
        getLocalType(arg.getLoc(), global, mesh, sharding,
                     /*allowUneven=*/true);
    if (failed(local))
      return failure();
    argTypes[arg] = global;
    hold(arg, sharding);
    arg.setType(*local);
  }

  SmallVector<Operation *> original;
  StreamPrefetcher stream;
  for (Operation &op : entry) {
    stream.at(&op);
    original.push_back(&op);
  }
  for (size_t i = 0, e = original.size(); i < e; ++i) {
    if (i + kPrefetchDistance < e)
      prefetchOp(original[i + kPrefetchDistance]);
    builder.setInsertionPoint(original[i]);
    if (failed(rewrite(original[i])))
      return failure();
  }
  // Users first, so that a sharding's operands (dynamic halo sizes) go after
  // it. The per-device ops read none of the original values, except maybe a
  // sharding: that one stays, with what it reads.
  for (size_t i = original.size(); i-- > 0;) {
    if (i >= kPrefetchDistance)
      prefetchOp(original[i - kPrefetchDistance]);
    if (original[i]->use_empty())
      original[i]->erase();
  }

  SmallVector<Type> argumentTypes(entry.getArgumentTypes());
  func.setFunctionTypeAttr(TypeAttr::get(
      FunctionType::get(func.getContext(), argumentTypes, resultTypes)));
  // The contract, where some boundary value is sharded: without one the
  // function is unchanged at its boundary.
  auto sharded = [](Attribute entry) {
    return cast<DictionaryAttr>(entry).contains("mesh");
  };
  if (llvm::any_of(argumentBoundary, sharded) ||
      llvm::any_of(resultBoundary, sharded)) {
    Builder b(func.getContext());
    func->setAttr(kBoundaryAttrName,
                  b.getDictionaryAttr(
                      {b.getNamedAttr("arguments",
                                      b.getArrayAttr(argumentBoundary)),
                       b.getNamedAttr("results",
                                      b.getArrayAttr(resultBoundary))}));
  }
  return success();
}

struct MeshSpmdizationPass
    : mesh::impl::MeshSpmdizationBase<MeshSpmdizationPass> {
  void runOnOperation() override {
    FunctionOpInterface func = getOperation();
    if (func.isExternal())
      return;
    // Chains left by canonicalize or CSE after propagation, in defined form.
    normalizeResultAnnotations(func);
    // Read-only, shared by the functions partitioned in parallel.
    std::optional<std::reference_wrapper<SymbolTable>> symbols;
    if (Operation *parent = func->getParentOp())
      symbols = getCachedParentAnalysis<SymbolTable>(parent);
    if (failed(Spmdizer(func, symbols ? &symbols->get() : nullptr).run()))
      signalPassFailure();
  }
};

} // namespace
