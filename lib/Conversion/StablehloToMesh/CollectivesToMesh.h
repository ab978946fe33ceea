//===- CollectivesToMesh.h - StableHLO collectives as mesh ones -*- C++ -*-===//
//
// The state of convert-stablehlo-collectives-to-mesh: every StableHLO
// collective of the module read into a Plan (CollectivesPlan.cpp), then
// rewritten into mesh collectives (CollectivesRewrite.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_CONVERSION_STABLEHLOTOMESH_COLLECTIVESTOMESH_H
#define MESHSDY_LIB_CONVERSION_STABLEHLOTOMESH_COLLECTIVESTOMESH_H

#include "DeviceGroups.h"
#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::meshsdy {

/// The largest mesh whose device groups are matched (a table of its
/// devices is built).
constexpr int64_t kMaxDevices = 1 << 20;

/// The StableHLO ops the conversion rewrites.
enum class Kind {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  CollectivePermute,
  PartitionId,
  ReplicaId,
};

/// The StableHLO op `op` is, if it is one this conversion handles.
std::optional<Kind> kindOf(Operation *op);

/// What a collective does, read from its attributes and checked.
struct Plan {
  Operation *op;
  Kind kind;
  /// The sdy mesh of the enclosing manual computations.
  sdy::MeshOp sdyMesh;
  /// The mesh axes its groups span.
  SmallVector<int16_t> axes;
  mesh::ReductionKind reduction = mesh::ReductionKind::Sum;
  /// all_gather, reduce_scatter: the tensor dimension; all_to_all: the
  /// split dimension.
  int64_t dim = 0;
  /// all_to_all: the concat dimension.
  int64_t concatDim = 0;
  /// collective_permute.
  MeshShift shift{0, 0, false};
};

class CollectivesToMesh {
public:
  CollectivesToMesh(ModuleOp module) : module(module), symbols(module) {}

  /// Reads and checks every collective; fails with a diagnostic.
  LogicalResult plan();
  /// Rewrites them (after a successful plan).
  void rewrite();

private:
  LogicalResult checkModule();
  FailureOr<Plan> planOne(Operation *op, Kind kind);
  /// The enclosing manual computations' mesh and manual mesh axes.
  LogicalResult readManualContext(Plan &plan, SmallVectorImpl<int16_t> &manual);
  FailureOr<SmallVector<int16_t>> groupAxes(Plan &plan,
                                            ArrayRef<int16_t> manual,
                                            bool ordered);
  LogicalResult checkTypes(Plan &plan);
  int64_t groupSize(const Plan &plan) const;
  SmallVector<int64_t> meshShape(sdy::MeshOp mesh) const;

  FlatSymbolRefAttr companion(sdy::MeshOp mesh);
  SmallVector<Value> rewriteOne(OpBuilder &builder, const Plan &plan);
  Value shift(OpBuilder &builder, const Plan &plan, Value input);

  ModuleOp module;
  SymbolTable symbols;
  SmallVector<Plan> plans;
  /// The companion mesh of each sdy mesh, once declared.
  DenseMap<Operation *, FlatSymbolRefAttr> companions;
};

} // namespace mlir::meshsdy

#endif // MESHSDY_LIB_CONVERSION_STABLEHLOTOMESH_COLLECTIVESTOMESH_H
