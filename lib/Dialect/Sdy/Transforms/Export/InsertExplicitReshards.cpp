//===- InsertExplicitReshards.cpp - one sharding per factor ---------------===//
//
// Each op with a sharding rule gets one sharding per factor (results first,
// see the pass description); whatever operand or result disagrees with that
// choice is resharded, and a sharded reduction factor is all-reduced.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ShardingRules.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/FactorAxesChoice.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/ReshardToCollectives.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/ReshardCost.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardingProjection.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_INSERTEXPLICITRESHARDSPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// The dimension axes of `sharding` (null: replicated) for a rank-`rank`
/// tensor, for comparing shardings regardless of open/closed and priorities.
SmallVector<SmallVector<AxisRefAttr>> dimAxes(TensorShardingAttr sharding,
                                              int64_t rank) {
  SmallVector<SmallVector<AxisRefAttr>> result(rank);
  if (sharding)
    for (auto [i, dim] : llvm::enumerate(sharding.getDimShardings()))
      if (static_cast<int64_t>(i) < rank)
        result[i].assign(dim.getAxes().begin(), dim.getAxes().end());
  return result;
}

bool sameLayout(TensorShardingAttr a, TensorShardingAttr b, int64_t rank) {
  return dimAxes(a, rank) == dimAxes(b, rank);
}

/// Whether `sharding` (null: replicated) has the dimension axes `axes`.
bool hasDimAxes(TensorShardingAttr sharding, ArrayRef<AxisList> axes) {
  for (auto [dim, want] : llvm::enumerate(axes)) {
    ArrayRef<AxisRefAttr> have;
    if (sharding && dim < static_cast<size_t>(sharding.getRank()))
      have = sharding.getDimShardings()[dim].getAxes();
    if (!llvm::equal(have, want))
      return false;
  }
  return true;
}

int64_t rankOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type ? type.getRank() : -1;
}

/// The shardings of an op's operands and results (null: replicated), and
/// the mesh they are on.
struct OpShardings {
  SmallVector<TensorShardingAttr> operands, results;
  MeshAttr mesh;
  Attribute meshOrRef;
};

/// Whether every sharding in `shardings` is on `mesh` (`meshOrRef` in
/// `any`), or on a mesh of the same axes.
bool onOneMesh(Operation *op, ArrayRef<TensorShardingAttr> shardings,
               TensorShardingAttr any, MeshAttr mesh) {
  for (TensorShardingAttr sharding : shardings)
    if (sharding && sharding.getMeshOrRef() != any.getMeshOrRef()) {
      MeshAttr other = sharding.getMesh(op);
      if (!other || other.getAxes() != mesh.getAxes())
        return false;
    }
  return true;
}

/// The shardings of `op` under `rule`, or none when the op is left alone:
/// its rule is custom or does not fit it, everything is replicated, or its
/// tensors are on different meshes.
std::optional<OpShardings>
readOpShardings(Operation *op, OpShardingRuleAttr rule,
                function_ref<MeshAttr(TensorShardingAttr)> meshOf) {
  // Like Shardy, a custom rule (an opaque call) is left to the next stage.
  if (rule.getIsCustomRule())
    return std::nullopt;
  if (static_cast<int64_t>(rule.getOperandMappings().size()) !=
          op->getNumOperands() ||
      static_cast<int64_t>(rule.getResultMappings().size()) !=
          op->getNumResults())
    return std::nullopt;
  OpShardings result;
  TensorShardingAttr any;
  auto shardingOf = [&](Value value, int64_t rank) -> TensorShardingAttr {
    TensorShardingAttr sharding = getSharding(value);
    if (sharding && sharding.getRank() != rank)
      return {};
    any = any ? any : sharding;
    return sharding;
  };
  for (auto [value, mapping] :
       llvm::zip(op->getOperands(), rule.getOperandMappings())) {
    // A rank-0 mapping is a scalar operand (linalg.fill's value); any
    // other mismatch is a rule that does not fit: leave the op alone.
    if (rankOf(value) != mapping.getRank() &&
        !(mapping.getRank() == 0 && rankOf(value) < 0))
      return std::nullopt;
    result.operands.push_back(shardingOf(value, mapping.getRank()));
  }
  for (auto [value, mapping] :
       llvm::zip(op->getResults(), rule.getResultMappings())) {
    if (rankOf(value) != mapping.getRank())
      return std::nullopt;
    result.results.push_back(shardingOf(value, mapping.getRank()));
  }
  if (!any)
    return std::nullopt; // everything replicated
  result.mesh = meshOf(any);
  if (!result.mesh)
    return std::nullopt;
  // Like Shardy, tensors on different meshes are left alone.
  if (!onOneMesh(op, result.operands, any, result.mesh) ||
      !onOneMesh(op, result.results, any, result.mesh))
    return std::nullopt;
  result.meshOrRef = any.getMeshOrRef();
  return result;
}

/// Makes one op compatible with one sharding per factor: the plan is the
/// axes chosen for each factor (`chosen`, made when built); the emission
/// reshards the operands that disagree with it before the op, and after the
/// op all-reduces sharded reductions and reshards the results back to what
/// they were declared.
class OpReshards {
public:
  OpReshards(Operation *op, OpShardingRuleAttr rule, OpShardings shardings)
      : op(op), rule(rule), shardings(std::move(shardings)),
        mesh(this->shardings.mesh),
        projection(ShardingProjection::build(this->shardings.operands,
                                             this->shardings.results, rule,
                                             mesh)),
        chosen(chooseAxes()) {}

  void reshardOperands();
  void reshardResults();

private:
  /// The axes of each factor: what chooseFactorAxes picks, off the
  /// permutation factors.
  SmallVector<AxisList> chooseAxes() const;
  /// Bytes one device sends if the op computes with `plan` (axes per
  /// factor): its operands resharded to it, its results back.
  double planBytes(ArrayRef<AxisList> plan) const;
  /// `tensor` sharded with the axes `plan` gives its factors.
  TensorShardingAttr chosenSharding(const TensorFactorShardings &tensor,
                                    TensorMappingAttr mapping,
                                    ArrayRef<AxisList> plan) const;
  TensorShardingAttr chosenSharding(const TensorFactorShardings &tensor,
                                    TensorMappingAttr mapping) const {
    return chosenSharding(tensor, mapping, chosen);
  }
  /// Whether `current` already has the dimension axes of the chosen
  /// sharding of `tensor` (found without building that sharding: most
  /// tensors keep theirs).
  bool keepsLayout(TensorShardingAttr current,
                   const TensorFactorShardings &tensor,
                   TensorMappingAttr mapping) const {
    SmallVector<AxisList> axes;
    tensor.toDimAxes(mapping, rule.getFactorSizes(), mesh, axes,
                     /*closed=*/nullptr, chosen);
    return hasDimAxes(current, axes);
  }
  /// The axes the results are all-reduced over, in mesh order.
  AxisList reducedAxes() const;
  /// After `result`: an all_reduce over `reduced` if any, computed as
  /// `computed`, then a reshard to `original` if `changed`.
  void reduceAndReshardBack(OpBuilder &builder, OpResult result,
                            ArrayRef<AxisRefAttr> reduced,
                            TensorShardingAttr computed,
                            TensorShardingAttr original, bool changed) const;

  Operation *op;
  OpShardingRuleAttr rule;
  OpShardings shardings;
  MeshAttr mesh;
  ShardingProjection projection;
  SmallVector<AxisList> chosen;
};

SmallVector<AxisList> OpReshards::chooseAxes() const {
  SmallVector<int64_t> tensorSizes;
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
    auto shaped = dyn_cast<RankedTensorType>(type);
    tensorSizes.push_back(
        shaped && shaped.hasStaticShape() ? shaped.getNumElements() : 0);
  }
  SmallVector<AxisList> axes =
      chooseFactorAxes(projection, rule, tensorSizes, mesh);
  // Our partitioner computes no op along a sharded permutation factor
  // (Shardy leaves that to XLA): its axes move to the batching factors, as
  // need-replication axes do, or are gathered, whichever sends fewer bytes
  // (moving costs an all_to_all of the operand and one of the result back;
  // gathering an all_gather of the operand, the result sliced back for
  // free). On a tie they move.
  SmallVector<AxisList> moved = axes, gathered = axes;
  for (int64_t factor : rule.getPermutationFactors()) {
    moveAxesToBatchingFactors(factor, rule, mesh, moved);
    gathered[factor].clear();
  }
  if (moved != gathered && planBytes(gathered) < planBytes(moved))
    return gathered;
  return moved;
}

double OpReshards::planBytes(ArrayRef<AxisList> plan) const {
  double bytes = 0;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || type.getRank() == 0)
      continue;
    TensorShardingAttr target = chosenSharding(
        projection.getOperands()[i], rule.getOperandMappings()[i], plan);
    bytes += reshardBytes(type, dimAxes(shardings.operands[i], type.getRank()),
                          dimAxes(target, type.getRank()), mesh);
  }
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || type.getRank() == 0)
      continue;
    TensorShardingAttr target = chosenSharding(
        projection.getResults()[i], rule.getResultMappings()[i], plan);
    bytes += reshardBytes(type, dimAxes(target, type.getRank()),
                          dimAxes(shardings.results[i], type.getRank()), mesh);
  }
  return bytes;
}

TensorShardingAttr
OpReshards::chosenSharding(const TensorFactorShardings &tensor,
                           TensorMappingAttr mapping,
                           ArrayRef<AxisList> plan) const {
  TensorFactorShardings target = tensor;
  AxisList sharding; // the axes the target's dimensions use
  for (int64_t factor = 0, e = rule.getNumFactors(); factor < e; ++factor) {
    FactorSharding &f = target.factors[factor];
    if (!f.isMapped)
      continue;
    f.axes = plan[factor];
    f.overflowAxes.clear();
    f.isClosed = true;
    sharding.append(f.axes.begin(), f.axes.end());
  }
  // An axis that now shards a dimension is no longer unreduced (it is
  // reduced first) nor explicitly replicated.
  auto used = [&](AxisRefAttr axis) {
    return llvm::any_of(sharding,
                        [&](AxisRefAttr s) { return overlaps(axis, s); });
  };
  llvm::erase_if(target.unreducedAxes, used);
  llvm::erase_if(target.replicatedAxes, used);
  return target.toSharding(op->getContext(), mapping, rule.getFactorSizes(),
                           shardings.meshOrRef, mesh);
}

void OpReshards::reshardOperands() {
  OpBuilder builder(op);
  for (auto [i, operand] : llvm::enumerate(op->getOpOperands())) {
    int64_t rank = rankOf(operand.get());
    if (rank <= 0)
      continue;
    if (keepsLayout(shardings.operands[i], projection.getOperands()[i],
                    rule.getOperandMappings()[i]))
      continue;
    TensorShardingAttr target = chosenSharding(projection.getOperands()[i],
                                               rule.getOperandMappings()[i]);
    operand.set(ReshardOp::create(builder, op->getLoc(),
                                  operand.get().getType(), operand.get(),
                                  target));
  }
}

AxisList OpReshards::reducedAxes() const {
  AxisList reduced;
  for (int64_t factor : rule.getReductionFactors())
    // A factor a result indexes is not reduced over, whatever a written
    // rule says: its axes shard that result.
    if (llvm::none_of(rule.getResultMappings(), [&](TensorMappingAttr result) {
          return llvm::any_of(result.getDimMappings(), [&](DimMappingAttr dim) {
            return llvm::is_contained(dim.getFactorIndices(), factor);
          });
        }))
      reduced.append(chosen[factor].begin(), chosen[factor].end());
  // Axes the result is declared unreduced on stay unreduced.
  if (!shardings.results.empty() && shardings.results[0])
    llvm::erase_if(reduced, [&](AxisRefAttr axis) {
      return llvm::is_contained(shardings.results[0].getUnreducedAxes(),
                                axis);
    });
  llvm::sort(reduced, getMeshComparator(mesh));
  return reduced;
}

/// `sharding` without the replicated axes that overlap one of `axes`.
static TensorShardingAttr withoutReplicated(TensorShardingAttr sharding,
                                            ArrayRef<AxisRefAttr> axes) {
  auto overlapsOne = [&](AxisRefAttr replicated) {
    return llvm::any_of(
        axes, [&](AxisRefAttr axis) { return overlaps(replicated, axis); });
  };
  if (!sharding || llvm::none_of(sharding.getReplicatedAxes(), overlapsOne))
    return sharding;
  SmallVector<AxisRefAttr> kept;
  for (AxisRefAttr replicated : sharding.getReplicatedAxes())
    if (!overlapsOne(replicated))
      kept.push_back(replicated);
  return TensorShardingAttr::get(sharding.getContext(),
                                 sharding.getMeshOrRef(),
                                 sharding.getDimShardings(), kept,
                                 sharding.getUnreducedAxes());
}

/// Results: a sharded reduction is all-reduced; a result that cannot
/// keep its sharding is computed as chosen and resharded back.
void OpReshards::reshardResults() {
  AxisList reduced = reducedAxes();
  SmallVector<TensorShardingAttr> newResultShardings;
  bool resultsChanged = false;
  OpBuilder builder(op->getContext());
  builder.setInsertionPointAfter(op);
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    int64_t rank = rankOf(result);
    TensorShardingAttr original =
        shardings.results[i]
            ? shardings.results[i]
            : TensorShardingAttr::getFullyOpen(op->getContext(), rank,
                                               shardings.meshOrRef);
    bool changed = !keepsLayout(shardings.results[i], projection.getResults()[i],
                                rule.getResultMappings()[i]);
    TensorShardingAttr computed =
        changed ? chosenSharding(projection.getResults()[i],
                                 rule.getResultMappings()[i])
                : original;
    // The op's own result holds partial sums over the reduced axes: it is
    // not replicated along them (an unclosed sharding may say so).
    TensorShardingAttr partial = withoutReplicated(computed, reduced);
    newResultShardings.push_back(partial);
    resultsChanged |= changed || partial != computed;
    reduceAndReshardBack(builder, result, reduced, computed, original,
                         changed);
  }
  if (resultsChanged)
    op->setAttr(kShardingAttr, TensorShardingPerValueAttr::get(
                                   op->getContext(), newResultShardings));
}

void OpReshards::reduceAndReshardBack(OpBuilder &builder, OpResult result,
                                      ArrayRef<AxisRefAttr> reduced,
                                      TensorShardingAttr computed,
                                      TensorShardingAttr original,
                                      bool changed) const {
  Value value = result;
  SmallPtrSet<Operation *, 2> added;
  if (!reduced.empty()) {
    auto allReduce = AllReduceOp::create(
        builder, op->getLoc(), result.getType(), value,
        AxisRefListAttr::get(op->getContext(), mergedAxes(reduced, mesh)),
        computed);
    added.insert(allReduce);
    value = allReduce.getResult();
  }
  if (changed) {
    auto reshard = ReshardOp::create(builder, op->getLoc(), result.getType(),
                                     value, original);
    added.insert(reshard);
    value = reshard.getResult();
  }
  if (value != result)
    result.replaceAllUsesExcept(value, added);
}

struct InsertExplicitReshardsPass
    : sdy::impl::InsertExplicitReshardsPassBase<InsertExplicitReshardsPass> {
  using InsertExplicitReshardsPassBase::InsertExplicitReshardsPassBase;

  void runOnOperation() override {
    meshes.clear();
    SmallVector<std::pair<Operation *, OpShardingRuleAttr>> ops;
    {
      // Ops alike share one rule, built once (a thousand identical layers
      // would otherwise build each rule a thousand times). The cache is
      // gone before the first reshard is inserted.
      ShardingRuleCache rules;
      getOperation().walk([&](Operation *op) {
        // (An unregistered op has no dialect; its sdy.sharding_rule counts.)
        if (isa_and_present<SdyDialect>(op->getDialect()) ||
            op->getNumResults() == 0)
          return;
        if (OpShardingRuleAttr rule = rules.get(op).rule)
          ops.emplace_back(op, rule);
      });
    }
    for (auto [op, rule] : ops)
      makeCompatible(op, rule);
    reshardReturnedValues();
    if (insertCollectives)
      lowerReshardsToCollectives(getOperation(),
                                 /*keepRedundantReshards=*/false);
  }

  /// A returned value gets the function's result sharding.
  void reshardReturnedValues() {
    func::FuncOp func = getOperation();
    func.walk([&](func::ReturnOp ret) {
      if (ret->getParentOp() != func)
        return;
      OpBuilder builder(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        auto target = func.getResultAttrOfType<TensorShardingAttr>(
            operand.getOperandNumber(), kShardingAttr);
        int64_t rank = rankOf(operand.get());
        if (!target || rank < 0 || target.getRank() != rank ||
            sameLayout(getSharding(operand.get()), target, rank))
          continue;
        operand.set(ReshardOp::create(builder, ret.getLoc(),
                                      operand.get().getType(), operand.get(),
                                      target));
      }
    });
  }

  /// The mesh of `sharding`, looked up once per mesh name: from the
  /// function, whose ops see the same symbols (a symbol lookup scans the
  /// module's ops).
  MeshAttr meshOf(TensorShardingAttr sharding) {
    auto [it, inserted] = meshes.try_emplace(sharding.getMeshOrRef());
    if (inserted)
      it->second = sharding.getMesh(getOperation());
    return it->second;
  }
  DenseMap<Attribute, MeshAttr> meshes;

  /// Reshards `op`'s operands and results to one sharding per factor, or
  /// leaves it alone (see readOpShardings).
  void makeCompatible(Operation *op, OpShardingRuleAttr rule) {
    std::optional<OpShardings> shardings = readOpShardings(
        op, rule, [&](TensorShardingAttr sharding) { return meshOf(sharding); });
    if (!shardings)
      return;
    OpReshards reshards(op, rule, std::move(*shardings));
    reshards.reshardOperands();
    reshards.reshardResults();
  }
};

} // namespace
