//===- SdyToMesh.cpp - sdy shardings to mesh annotations ------------------===//
//
// The bridge from Shardy's world to meshsdy's partitioner. Every sharding an
// sdy program carries becomes a mesh.shard annotation; every op of the sdy
// dialect becomes the annotation or op that means the same. After it, the
// mesh pipeline (propagation fills the operand shardings each op needs, then
// spmdization) partitions the program.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/SdyToMesh/SdyToMesh.h"

#include "meshsdy/Dialect/Mesh/Transforms/ShardingAnnotations.h"
#include "MeshAxes.h"
#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

#include <map>

namespace mlir::meshsdy {
#define GEN_PASS_DEF_CONVERTSDYTOMESHPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;
using namespace mlir::meshsdy;

namespace {

/// Calls `fn` on every TensorShardingAttr in `attr`.
void forEachSharding(Attribute attr,
                     llvm::function_ref<void(sdy::TensorShardingAttr)> fn) {
  attr.walk([&](sdy::TensorShardingAttr sharding) { fn(sharding); });
}

/// The attributes of `op`, inherent and discardable, in the order of its
/// attribute dictionary. Read without building that dictionary: for an op
/// whose inherent attributes live in properties, `getAttrs` builds and
/// uniques a new one on every call, the larger part of the bridge's
/// analysis on a large program.
SmallVector<NamedAttribute, 8> allAttributes(Operation *op) {
  SmallVector<NamedAttribute, 8> attrs(op->getRawDictionaryAttrs().getValue());
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  if (!op->getPropertiesStorage() || !info)
    return attrs; // The dictionary holds them all, sorted.
  for (StringAttr name : info->getAttributeNames())
    if (std::optional<Attribute> value = op->getInherentAttr(name.getValue());
        value && *value)
      attrs.emplace_back(name, *value);
  llvm::sort(attrs);
  return attrs;
}

/// Every axis ref of `sharding`.
SmallVector<sdy::AxisRefAttr> axisRefs(sdy::TensorShardingAttr sharding) {
  SmallVector<sdy::AxisRefAttr> refs;
  for (sdy::DimensionShardingAttr dim : sharding.getDimShardings())
    llvm::append_range(refs, dim.getAxes());
  llvm::append_range(refs, sharding.getReplicatedAxes());
  llvm::append_range(refs, sharding.getUnreducedAxes());
  return refs;
}

struct ConvertSdyToMeshPass
    : meshsdy::impl::ConvertSdyToMeshPassBase<ConvertSdyToMeshPass> {
  /// The mesh axes of each sdy mesh, by symbol name.
  std::map<std::string, SplitMesh> meshes;
  /// `target`'s answers: a program has few distinct (sharding, type) pairs.
  DenseMap<std::pair<Attribute, Type>, mesh::MeshSharding> targets;

  /// Checks what the bridge cannot express and records the sub-axes used;
  /// touches nothing.
  LogicalResult analyse(ModuleOp module, Dialect *sdyDialect) {
    for (auto meshOp : module.getOps<sdy::MeshOp>()) {
      sdy::MeshAttr mesh = meshOp.getMesh();
      if (!mesh.getDeviceIds().empty())
        return meshOp.emitOpError("unsupported by convert-sdy-to-mesh: "
                                  "explicit device_ids");
      meshes.emplace(meshOp.getSymName().str(), SplitMesh(mesh));
    }
    // Attributes are uniqued: those found sound once (their shardings on
    // known meshes, their sub-axes recorded) or found with no sdy attribute
    // inside need no second look (a thousand layers share a few).
    DenseSet<Attribute> shardingsSeen;
    DenseMap<Attribute, bool> holdsSdy;
    WalkResult result = module.walk([&](Operation *op) {
      if (auto manual = dyn_cast<sdy::ManualComputationOp>(op)) {
        for (sdy::TensorShardingAttr sharding : llvm::concat<const sdy::TensorShardingAttr>(
                 manual.getInShardings().getShardings(),
                 manual.getOutShardings().getShardings()))
          if (!sharding.getUnreducedAxes().empty()) {
            op->emitOpError("unsupported by convert-sdy-to-mesh: unreduced "
                            "axes on a manual computation's boundary");
            return WalkResult::interrupt();
          }
        if (!llvm::all_of(llvm::concat<Value>(manual->getOperands(),
                                              manual->getResults()),
                          [](Value v) {
                            return isa<RankedTensorType>(v.getType());
                          })) {
          op->emitOpError("unsupported by convert-sdy-to-mesh: a manual "
                          "computation on values other than ranked tensors");
          return WalkResult::interrupt();
        }
      }
      for (NamedAttribute named : allAttributes(op)) {
        bool bad = false;
        if (!shardingsSeen.contains(named.getValue()))
          forEachSharding(named.getValue(), [&](sdy::TensorShardingAttr s) {
            if (bad)
              return;
            FlatSymbolRefAttr name = s.getMeshSymName();
            auto it = name ? meshes.find(name.getValue().str()) : meshes.end();
            if (it == meshes.end()) {
              op->emitOpError("unsupported by convert-sdy-to-mesh: a sharding "
                              "on an inlined or unknown mesh (run "
                              "sdy-lift-inlined-meshes first)");
              bad = true;
              return;
            }
            for (sdy::AxisRefAttr ref : axisRefs(s))
              it->second.use(ref);
          });
        if (bad)
          return WalkResult::interrupt();
        shardingsSeen.insert(named.getValue());
        // Shardings live under `sdy.*` names, in function argument and
        // result attributes, and on sdy ops; anything else is unknown.
        StringRef attrName = named.getName().getValue();
        if (!attrName.starts_with("sdy.") && op->getDialect() != sdyDialect &&
            !(isa<func::FuncOp>(op) &&
              (attrName == "arg_attrs" || attrName == "res_attrs"))) {
          auto [known, inserted] = holdsSdy.try_emplace(named.getValue(), false);
          if (inserted)
            named.getValue().walk([&](Attribute nested) {
              known->second |= &nested.getDialect() == sdyDialect;
            });
          if (known->second) {
            op->emitOpError("unsupported by convert-sdy-to-mesh: sdy "
                            "attribute '")
                << named.getName().getValue() << "'";
            return WalkResult::interrupt();
          }
        }
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
    for (auto &[name, split] : meshes) {
      std::string badAxis;
      if (failed(split.finalize(badAxis)))
        return module.lookupSymbol(name)->emitOpError(
                   "unsupported by convert-sdy-to-mesh: the sub-axes of axis '")
               << badAxis << "' overlap without nesting";
    }
    return success();
  }

  mesh::MeshSharding meshSharding(sdy::TensorShardingAttr sharding) {
    FlatSymbolRefAttr name = sharding.getMeshSymName();
    return toMeshSharding(sharding, name, meshes.at(name.getValue().str()));
  }

  /// A sharding of nothing on the module's only mesh (null if there are
  /// several: then nothing unannotated can be placed on one of them).
  mesh::MeshSharding replicated() {
    if (meshes.size() != 1)
      return {};
    return mesh::MeshSharding(
        FlatSymbolRefAttr::get(&getContext(), meshes.begin()->first), {});
  }

  /// The mesh sharding of `sharding` for a value of `type`, replicated if
  /// it is null. A dimension whose axes do not divide it (Shardy pads the
  /// last pieces) keeps the longest prefix of its mesh axes that does:
  /// mesh-spmdization gives every device a piece of one size.
  mesh::MeshSharding target(sdy::TensorShardingAttr sharding, Type type) {
    auto [it, inserted] = targets.try_emplace({sharding, type});
    if (inserted)
      it->second = computeTarget(sharding, type);
    return it->second;
  }

  /// `target`, not remembered.
  mesh::MeshSharding computeTarget(sdy::TensorShardingAttr sharding,
                                   Type type) {
    if (!sharding)
      return replicated();
    mesh::MeshSharding result = meshSharding(sharding);
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked || result.getSplitAxes().empty())
      return result;
    SmallVector<int64_t> meshShape =
        meshes.at(sharding.getMeshSymName().getValue().str()).getShape();
    SmallVector<mesh::DimSplitAxes> split;
    bool trimmed = false;
    for (auto [d, axes] : llvm::enumerate(result.getSplitAxes())) {
      mesh::DimSplitAxes kept(axes);
      int64_t size = d < static_cast<size_t>(ranked.getRank())
                         ? ranked.getDimSize(d)
                         : ShapedType::kDynamic;
      auto pieces = [&] {
        int64_t n = 1;
        for (mesh::MeshAxis axis : kept)
          n *= meshShape[axis];
        return n;
      };
      while (!ShapedType::isDynamic(size) && !kept.empty() &&
             size % pieces() != 0)
        kept.pop_back();
      trimmed |= kept.size() != axes.size();
      split.push_back(kept);
    }
    if (!trimmed)
      return result;
    return mesh::MeshSharding(result.getMeshAttr(), split,
                              result.getPartialAxes(),
                              result.getPartialType());
  }

  /// A new value: `value` read as sharded by `sharding` (replicated if
  /// null), when it is a ranked tensor; `value` itself otherwise.
  Value annotate(mesh::AnnotationBuilder &annotations, OpBuilder &builder,
                 Value value, sdy::TensorShardingAttr sharding) {
    mesh::MeshSharding meshSharding = target(sharding, value.getType());
    if (!isa<RankedTensorType>(value.getType()) || !meshSharding)
      return value;
    return mesh::ShardOp::create(builder, value.getLoc(), value.getType(),
                                 value, annotations.shardingValue(meshSharding),
                                 /*annotate_for_users=*/false);
  }

  /// Annotates what `value` is: its sdy sharding (replicated if null).
  void annotateValue(mesh::AnnotationBuilder &annotations, Value value,
                     sdy::TensorShardingAttr sharding) {
    mesh::MeshSharding meshSharding = target(sharding, value.getType());
    if (isa<RankedTensorType>(value.getType()) && meshSharding)
      annotations.annotateResult(value, meshSharding);
  }

  /// Annotates every result of `op` with its sdy sharding (replicated for
  /// results without one).
  void annotateResults(mesh::AnnotationBuilder &annotations, Operation *op,
                       sdy::TensorShardingPerValueAttr shardings) {
    for (OpResult result : op->getResults())
      annotateValue(annotations, result,
                    shardings ? shardings.getSharding(result.getResultNumber())
                              : sdy::TensorShardingAttr());
  }

  /// Replaces the single-result sdy op `op` by `input` resharded to
  /// `sharding`.
  void replaceByShard(mesh::AnnotationBuilder &annotations, Operation *op,
                      Value input, sdy::TensorShardingAttr sharding) {
    OpBuilder builder(op);
    op->getResult(0).replaceAllUsesWith(
        annotate(annotations, builder, input, sharding));
    op->erase();
  }

  /// Inlines a named computation: its operands resharded to the in
  /// shardings, its results to the out shardings.
  void inlineNamedComputation(mesh::AnnotationBuilder &annotations,
                              sdy::NamedComputationOp op) {
    OpBuilder builder(op);
    Block &body = op.getBody().front();
    auto in = op.getInShardingsAttr();
    auto out = op.getOutShardingsAttr();
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      Value operand = op->getOperand(i);
      if (in && in.getSharding(i))
        operand = annotate(annotations, builder, operand, in.getSharding(i));
      arg.replaceAllUsesWith(operand);
    }
    Operation *terminator = body.getTerminator();
    op->getBlock()->getOperations().splice(op->getIterator(),
                                           body.getOperations(), body.begin(),
                                           terminator->getIterator());
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      Value value = terminator->getOperand(i);
      if (out && out.getSharding(i))
        value = annotate(annotations, builder, value, out.getSharding(i));
      result.replaceAllUsesWith(value);
    }
    op->erase();
  }

  /// `sharding` with only the mesh axes for which `keep` holds.
  static mesh::MeshSharding restrict(const mesh::MeshSharding &sharding,
                                     function_ref<bool(mesh::MeshAxis)> keep) {
    SmallVector<mesh::DimSplitAxes> split;
    for (const mesh::DimSplitAxes &axes : sharding.getSplitAxes())
      split.push_back(
          llvm::to_vector_of<mesh::MeshAxis, 2>(llvm::make_filter_range(axes, keep)));
    return mesh::MeshSharding(sharding.getMeshAttr(), split);
  }

  /// The boundary of a manual computation (see kManualBoundaryAttr): `value`
  /// becomes a `builtin.unrealized_conversion_cast` to `type` that carries
  /// the manual part of the sharding as its second operand.
  Value manualBoundary(mesh::AnnotationBuilder &annotations, OpBuilder &builder,
                       Value value, Type type, const mesh::MeshSharding &manual,
                       StringRef kind) {
    auto cast = UnrealizedConversionCastOp::create(
        builder, value.getLoc(), TypeRange{type},
        ValueRange{value, annotations.shardingValue(manual)});
    cast->setAttr(mesh::kManualBoundaryAttr, builder.getStringAttr(kind));
    return cast.getResult(0);
  }

  /// Inlines a manual computation between its boundaries: each operand is
  /// resharded to its in sharding and enters the body as its per-device
  /// piece along the manual axes, still sharded along the free ones; each
  /// body result, sharded along the free axes of its out sharding, leaves
  /// as the pieces of the global result. mesh-spmdization turns a boundary
  /// into nothing but the bookkeeping of which value holds which piece.
  void inlineManualComputation(mesh::AnnotationBuilder &annotations,
                               sdy::ManualComputationOp op) {
    OpBuilder builder(op);
    SmallVector<mesh::MeshAxis> manualAxes;
    auto shardings = llvm::to_vector(llvm::concat<const sdy::TensorShardingAttr>(
        op.getInShardings().getShardings(), op.getOutShardings().getShardings()));
    if (!shardings.empty()) {
      const SplitMesh &split =
          meshes.at(shardings.front().getMeshSymName().getValue().str());
      for (StringAttr name : op.getManualAxes().getValue())
        llvm::append_range(manualAxes,
                           split.translate(sdy::AxisRefAttr::get(
                               &getContext(), name.getValue(), {})));
    }
    auto isManual = [&](mesh::MeshAxis axis) {
      return llvm::is_contained(manualAxes, axis);
    };
    auto isFree = [&](mesh::MeshAxis axis) { return !isManual(axis); };

    Block &body = op.getBody().front();
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      sdy::TensorShardingAttr in = op.getInShardings().getSharding(i);
      mesh::MeshSharding full = target(in, op->getOperand(i).getType());
      Value operand = annotate(annotations, builder, op->getOperand(i), in);
      Value piece = manualBoundary(annotations, builder, operand,
                                   arg.getType(), restrict(full, isManual),
                                   "enter");
      arg.replaceAllUsesWith(piece);
      annotations.annotateResult(piece, restrict(full, isFree));
    }
    Operation *terminator = body.getTerminator();
    op->getBlock()->getOperations().splice(op->getIterator(),
                                           body.getOperations(), body.begin(),
                                           terminator->getIterator());
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      sdy::TensorShardingAttr out = op.getOutShardings().getSharding(i);
      mesh::MeshSharding full = target(out, result.getType());
      Value local = terminator->getOperand(i);
      Value freeOnly = mesh::ShardOp::create(
          builder, local.getLoc(), local.getType(), local,
          annotations.shardingValue(restrict(full, isFree)),
          /*annotate_for_users=*/false);
      Value global =
          manualBoundary(annotations, builder, freeOnly, result.getType(),
                         restrict(full, isManual), "exit");
      result.replaceAllUsesWith(global);
      annotations.annotateResult(global, full);
    }
    op->erase();
  }

  /// Drops the `sdy.*` entries of all argument and result attributes, with
  /// one new attribute list each (setting them one by one is quadratic).
  static void dropSdyBoundaryAttrs(func::FuncOp func) {
    auto kept = [&](DictionaryAttr attrs) {
      SmallVector<NamedAttribute> result;
      if (attrs)
        for (NamedAttribute a : attrs)
          if (!a.getName().getValue().starts_with("sdy."))
            result.push_back(a);
      return DictionaryAttr::get(func.getContext(), result);
    };
    SmallVector<DictionaryAttr> args, results;
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      args.push_back(kept(func.getArgAttrDict(i)));
    for (unsigned i = 0; i < func.getNumResults(); ++i)
      results.push_back(kept(func.getResultAttrDict(i)));
    func.setAllArgAttrs(args);
    func.setAllResultAttrs(results);
  }

  void convertFunction(func::FuncOp func) {
    if (func.isExternal())
      return dropSdyBoundaryAttrs(func);
    mesh::AnnotationBuilder annotations(func);
    OpBuilder builder(func.getContext());

    // The body first: a result annotation goes right after its op, before
    // the boundary's annotations are placed.
    SmallVector<Operation *> ops;
    func.getFunctionBody().walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops) {
      if (isa<mesh::ShardOp, mesh::ShardingOp>(op))
        continue;
      if (auto c = dyn_cast<sdy::ShardingConstraintOp>(op)) {
        replaceByShard(annotations, op, c.getInput(), c.getSharding());
      } else if (auto r = dyn_cast<sdy::ReshardOp>(op)) {
        replaceByShard(annotations, op, r.getInput(), r.getSharding());
      } else if (auto collective = dyn_cast<sdy::CollectiveOpInterface>(op)) {
        replaceByShard(annotations, op, collective.getTensor(),
                       collective.getOutSharding());
      } else if (auto edge = dyn_cast<sdy::DataFlowEdgeOp>(op)) {
        Value input = edge.getInput();
        edge.getResult().replaceAllUsesWith(input);
        edge.erase();
      } else if (auto barrier = dyn_cast<sdy::PropagationBarrierOp>(op)) {
        barrier.getResult().replaceAllUsesWith(barrier.getInput());
        barrier.erase();
      } else if (isa<sdy::ShardingGroupOp>(op)) {
        op->erase();
      } else if (auto named = dyn_cast<sdy::NamedComputationOp>(op)) {
        inlineNamedComputation(annotations, named);
      } else if (auto manual = dyn_cast<sdy::ManualComputationOp>(op)) {
        inlineManualComputation(annotations, manual);
      } else if (auto constant = dyn_cast<sdy::ConstantOp>(op)) {
        builder.setInsertionPoint(constant);
        auto replacement = arith::ConstantOp::create(
            builder, constant.getLoc(), cast<TypedAttr>(constant.getValue()));
        replacement->setDiscardableAttrs(constant->getDiscardableAttrDictionary());
        constant.getResult().replaceAllUsesWith(replacement.getResult());
        constant.erase();
        annotateResults(annotations, replacement,
                        replacement->getAttrOfType<sdy::TensorShardingPerValueAttr>(
                            sdy::kShardingAttr));
        replacement->removeAttr(sdy::kShardingAttr);
      } else if (!isa<sdy::ReturnOp>(op) && !op->hasTrait<OpTrait::IsTerminator>()) {
        annotateResults(annotations, op,
                        op->getAttrOfType<sdy::TensorShardingPerValueAttr>(
                            sdy::kShardingAttr));
        for (NamedAttribute a : op->getDiscardableAttrDictionary())
          if (a.getName().getValue().starts_with("sdy."))
            op->removeDiscardableAttr(a.getName());
      }
    }

    // The boundary: arguments and results, replicated unless annotated.
    Block &entry = func.getFunctionBody().front();
    for (BlockArgument arg : entry.getArguments()) {
      annotateValue(annotations, arg,
                    func.getArgAttrOfType<sdy::TensorShardingAttr>(
                        arg.getArgNumber(), sdy::kShardingAttr));
    }
    func.walk([&](func::ReturnOp ret) {
      builder.setInsertionPoint(ret);
      for (OpOperand &operand : ret->getOpOperands())
        operand.set(annotate(annotations, builder, operand.get(),
                             func.getResultAttrOfType<sdy::TensorShardingAttr>(
                                 operand.getOperandNumber(),
                                 sdy::kShardingAttr)));
    });
    dropSdyBoundaryAttrs(func);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Dialect *sdyDialect = getContext().getLoadedDialect<sdy::SdyDialect>();
    if (!sdyDialect)
      return; // Nothing in the module can come from an unloaded dialect.
    meshes.clear();
    targets.clear();
    if (failed(analyse(module, sdyDialect)))
      return signalPassFailure();

    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
      convertFunction(func);

    OpBuilder builder(&getContext());
    for (auto meshOp : llvm::to_vector(module.getOps<sdy::MeshOp>())) {
      builder.setInsertionPoint(meshOp);
      mesh::MeshOp::create(builder, meshOp.getLoc(), meshOp.getSymName(),
                           meshes.at(meshOp.getSymName().str()).getShape());
      meshOp.erase();
    }

    // Whatever is left is an sdy construct outside a function.
    WalkResult left = module.walk([&](Operation *op) {
      if (op->getDialect() == sdyDialect) {
        op->emitOpError("unsupported by convert-sdy-to-mesh: outside a "
                        "func.func");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      return signalPassFailure();
  }
};

} // namespace
