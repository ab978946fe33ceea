//===- Verifiers.h - shared sdy verification helpers ------------*- C++ -*-===//
//
// Private to lib/Dialect/Sdy/IR. Each helper checks one family of the spec's
// **Constraints:** lists and reports through `emitError`, which callers bind
// to an op and a prefix such as "operand 0 - ".
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_SDY_IR_VERIFIERS_VERIFIERS_H
#define MESHSDY_LIB_DIALECT_SDY_IR_VERIFIERS_VERIFIERS_H

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"

#include <string>

namespace mlir::sdy {

/// Emits an error; the caller has already added its context.
using EmitErrorFn = function_ref<InFlightDiagnostic()>;

/// Returns a diagnostic on `op` that starts with `prefix` (may be empty).
InFlightDiagnostic emitOpErrorWithPrefix(Operation *op, StringRef prefix);

/// The mesh `meshOrRef` denotes as seen from `op`; emits "unknown mesh: @x"
/// and returns null if the symbol is not an `sdy.mesh`. `symbols` may be
/// null (then the nearest symbol tables are searched directly).
MeshAttr resolveMesh(Attribute meshOrRef, Operation *op,
                     SymbolTableCollection *symbols, EmitErrorFn emitError);

/// The constraints of AxisRefAttr, SubAxisInfoAttr and AxisRefListAttr for
/// `axes` on `mesh`: known names, valid sub-axes, no overlap, nothing
/// mergeable.
LogicalResult verifyAxisRefList(ArrayRef<AxisRefAttr> axes, MeshAttr mesh,
                                EmitErrorFn emitError);

/// The constraints of TensorShardingAttr for a value of `type`. Sets `*mesh`
/// to the resolved mesh when non-null.
LogicalResult verifyTensorSharding(TensorShardingAttr sharding, Type type,
                                   Operation *op,
                                   SymbolTableCollection *symbols,
                                   EmitErrorFn emitError,
                                   MeshAttr *mesh = nullptr);

/// verifyTensorSharding for each of `types`; `valueKind` ("operand",
/// "result") names the values in errors: "result 1 - ...".
LogicalResult verifyShardingPerValue(TensorShardingPerValueAttr shardings,
                                     TypeRange types, StringRef valueKind,
                                     Operation *op,
                                     SymbolTableCollection *symbols,
                                     StringRef prefix = "");

/// The op-dependent constraints of OpShardingRuleAttr for `op`.
LogicalResult verifyShardingRuleForOp(OpShardingRuleAttr rule, Operation *op);

/// Mesh-dependent checks shared by all collectives: `out_sharding` fits the
/// result, and both shardings' meshes. Returns the operand sharding (a fully
/// closed one if it is missing and allowed) and the mesh of `out_sharding`.
LogicalResult verifyCollectiveSymbolUses(CollectiveOpInterface op,
                                         SymbolTableCollection &symbols,
                                         TensorShardingAttr &inSharding,
                                         MeshAttr &mesh);

} // namespace mlir::sdy

#endif // MESHSDY_LIB_DIALECT_SDY_IR_VERIFIERS_VERIFIERS_H
