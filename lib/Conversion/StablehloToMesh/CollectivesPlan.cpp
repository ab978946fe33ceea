//===- CollectivesPlan.cpp - read and check StableHLO collectives ---------===//

#include "CollectivesToMesh.h"

#include "ReductionRegion.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::meshsdy;

std::optional<Kind> mlir::meshsdy::kindOf(Operation *op) {
  return llvm::StringSwitch<std::optional<Kind>>(op->getName().getStringRef())
      .Case("stablehlo.all_reduce", Kind::AllReduce)
      .Case("stablehlo.all_gather", Kind::AllGather)
      .Case("stablehlo.reduce_scatter", Kind::ReduceScatter)
      .Case("stablehlo.all_to_all", Kind::AllToAll)
      .Case("stablehlo.collective_permute", Kind::CollectivePermute)
      .Case("stablehlo.partition_id", Kind::PartitionId)
      .Case("stablehlo.replica_id", Kind::ReplicaId)
      .Default(std::nullopt);
}


namespace {

/// The value of an integer attribute, if it fits in 64 bits (read as its
/// type's signedness says).
std::optional<int64_t> integerValue(Attribute attribute) {
  auto attr = dyn_cast_or_null<IntegerAttr>(attribute);
  if (!attr)
    return std::nullopt;
  if (!attr.getType().isUnsignedInteger())
    return attr.getValue().trySExtValue();
  std::optional<uint64_t> value = attr.getValue().tryZExtValue();
  if (!value || *value > static_cast<uint64_t>(INT64_MAX))
    return std::nullopt;
  return static_cast<int64_t>(*value);
}

/// An integer attribute as its value, any other as itself.
std::string printable(Attribute attr) {
  if (std::optional<int64_t> value = integerValue(attr))
    return std::to_string(*value);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << attr;
  return text;
}

/// `name`'s value as a non-negative integer attribute of `op`, if it is one.
std::optional<int64_t> integerAttr(Operation *op, StringRef name) {
  std::optional<int64_t> value = integerValue(op->getAttr(name));
  if (!value || *value < 0)
    return std::nullopt;
  return value;
}

/// The device ids of `attr`, row-major, if every one fits in 64 bits.
std::optional<SmallVector<int64_t>> deviceIds(DenseIntElementsAttr attr) {
  SmallVector<int64_t> ids;
  for (APInt value : attr.getValues<APInt>()) {
    std::optional<int64_t> id = value.trySExtValue();
    if (!id)
      return std::nullopt;
    ids.push_back(*id);
  }
  return ids;
}

/// The handle of a `#stablehlo.channel_handle<handle = N, type = T>` (an
/// opaque attribute here), 0 when there is none.
int64_t channelHandle(Operation *op) {
  auto opaque = dyn_cast_or_null<OpaqueAttr>(op->getAttr("channel_handle"));
  if (!opaque)
    return 0;
  StringRef data = opaque.getAttrData();
  size_t at = data.find("handle = ");
  if (at == StringRef::npos)
    return 0;
  int64_t handle = 0;
  StringRef digits = data.drop_front(at + 9).take_while(llvm::isDigit);
  if (digits.getAsInteger(10, handle))
    return 0;
  return handle;
}

} // namespace

SmallVector<int64_t> CollectivesToMesh::meshShape(sdy::MeshOp mesh) const {
  SmallVector<int64_t> shape;
  for (sdy::MeshAxisAttr axis : mesh.getMesh().getAxes())
    shape.push_back(axis.getSize());
  return shape;
}

int64_t CollectivesToMesh::groupSize(const Plan &plan) const {
  SmallVector<int64_t> shape = meshShape(plan.sdyMesh);
  int64_t size = 1;
  for (int16_t axis : plan.axes)
    size *= shape[axis];
  return size;
}

LogicalResult CollectivesToMesh::checkModule() {
  Attribute replicas = module->getAttr("mhlo.num_replicas");
  if (replicas && integerValue(replicas) != 1)
    return module.emitOpError("unsupported: mhlo.num_replicas = ")
           << printable(replicas)
           << "; meshsdy runs one program per device of a mesh";
  return success();
}

LogicalResult CollectivesToMesh::plan() {
  SmallVector<std::pair<Operation *, Kind>> found;
  module.walk([&](Operation *op) {
    if (std::optional<Kind> kind = kindOf(op))
      found.emplace_back(op, *kind);
  });
  if (found.empty())
    return success();
  if (failed(checkModule()))
    return failure();
  for (auto [op, kind] : found) {
    FailureOr<Plan> plan = planOne(op, kind);
    if (failed(plan))
      return failure();
    plans.push_back(*plan);
  }
  return success();
}

LogicalResult
CollectivesToMesh::readManualContext(Plan &plan,
                                     SmallVectorImpl<int16_t> &manual) {
  Operation *op = plan.op;
  SmallVector<sdy::ManualComputationOp> enclosing;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (auto computation = dyn_cast<sdy::ManualComputationOp>(parent))
      enclosing.push_back(computation);
  if (enclosing.empty())
    return op->emitOpError("unsupported outside a manual computation (a "
                           "shard_map body): collectives and device ids need "
                           "per-device values");
  // The mesh: the one the innermost computation's shardings name, else the
  // module's only sdy mesh.
  FlatSymbolRefAttr meshName;
  sdy::ManualComputationOp innermost = enclosing.front();
  for (sdy::TensorShardingAttr sharding :
       llvm::concat<const sdy::TensorShardingAttr>(
           innermost.getInShardings().getShardings(),
           innermost.getOutShardings().getShardings()))
    if (!meshName)
      meshName = sharding.getMeshSymName();
  if (meshName)
    plan.sdyMesh = symbols.lookup<sdy::MeshOp>(meshName.getValue());
  else if (llvm::hasSingleElement(module.getOps<sdy::MeshOp>()))
    plan.sdyMesh = *module.getOps<sdy::MeshOp>().begin();
  if (!plan.sdyMesh)
    return op->emitOpError("unsupported: the enclosing manual computation's "
                           "mesh is not an sdy.mesh of the module");
  sdy::MeshAttr mesh = plan.sdyMesh.getMesh();
  if (!mesh.getDeviceIds().empty() || mesh.getAxes().empty())
    return op->emitOpError("unsupported: mesh '")
           << plan.sdyMesh.getSymName()
           << "' has explicit device_ids or no axes";
  if (mesh.getTotalSize() > kMaxDevices)
    return op->emitOpError("unsupported: mesh '")
           << plan.sdyMesh.getSymName() << "' has " << mesh.getTotalSize()
           << " devices, more than " << kMaxDevices;
  Attribute partitions = module->getAttr("mhlo.num_partitions");
  if (partitions && integerValue(partitions) != mesh.getTotalSize())
    return op->emitOpError("unsupported: mhlo.num_partitions = ")
           << printable(partitions) << " but mesh '"
           << plan.sdyMesh.getSymName()
           << "' has " << mesh.getTotalSize() << " devices";
  for (sdy::ManualComputationOp computation : enclosing)
    for (StringAttr name : computation.getManualAxes().getValue())
      for (auto [i, axis] : llvm::enumerate(mesh.getAxes()))
        if (axis.getName() == name.getValue())
          manual.push_back(static_cast<int16_t>(i));
  return success();
}

FailureOr<SmallVector<int16_t>>
CollectivesToMesh::groupAxes(Plan &plan, ArrayRef<int16_t> manual,
                             bool ordered) {
  Operation *op = plan.op;
  SmallVector<int64_t> shape = meshShape(plan.sdyMesh);
  auto attr =
      dyn_cast_or_null<DenseIntElementsAttr>(op->getAttr("replica_groups"));
  if (!attr || attr.getType().getRank() != 2)
    return op->emitOpError("expected 'replica_groups', a 2-D tensor of "
                           "device ids");
  ArrayRef<int64_t> dims = attr.getType().getShape();
  std::optional<SmallVector<int64_t>> ids = deviceIds(attr);
  DeviceGroups groups(dims[0]);
  for (int64_t g = 0; ids && g < dims[0]; ++g)
    groups[g].assign(ids->begin() + g * dims[1],
                     ids->begin() + (g + 1) * dims[1]);
  // No groups: every device is in one group.
  if (dims[0] == 0 || dims[1] == 0) {
    groups.assign(1, {});
    for (int64_t id = 0; id < plan.sdyMesh.getMesh().getTotalSize(); ++id)
      groups[0].push_back(id);
  }
  std::optional<SmallVector<int16_t>> axes =
      ids ? matchMeshAxes(shape, groups, ordered) : std::nullopt;
  if (!axes)
    return op->emitOpError("unsupported: replica groups ")
           << attr << " are not the device groups of any mesh axes of '"
           << plan.sdyMesh.getSymName() << "'";
  for (int16_t axis : *axes)
    if (!llvm::is_contained(manual, axis))
      return op->emitOpError("unsupported: the replica groups span mesh axis '")
             << plan.sdyMesh.getMesh().getAxes()[axis].getName()
             << "', which is not a manual axis of the enclosing manual "
                "computations";
  return *axes;
}

FailureOr<Plan> CollectivesToMesh::planOne(Operation *op, Kind kind) {
  Plan plan{op, kind, sdy::MeshOp(), {}};
  SmallVector<int16_t> manual;
  if (failed(readManualContext(plan, manual)))
    return failure();
  if (kind == Kind::PartitionId || kind == Kind::ReplicaId) {
    if (failed(checkTypes(plan)))
      return failure();
    return plan;
  }
  bool globalIds = kind == Kind::AllToAll || kind == Kind::CollectivePermute
                       ? channelHandle(op) > 0
                       : op->hasAttr("use_global_device_ids");
  if (!globalIds)
    return op->emitOpError("unsupported: groups of replica ids (")
           << (kind == Kind::AllToAll || kind == Kind::CollectivePermute
                   ? "no positive channel_handle"
                   : "no use_global_device_ids")
           << "); meshsdy reads groups of partition ids";
  if (kind == Kind::CollectivePermute) {
    auto attr = dyn_cast_or_null<DenseIntElementsAttr>(
        op->getAttr("source_target_pairs"));
    if (!attr || attr.getType().getRank() != 2 ||
        attr.getType().getShape()[1] != 2)
      return op->emitOpError("expected 'source_target_pairs', a Nx2 tensor "
                             "of device ids");
    SmallVector<std::pair<int64_t, int64_t>> pairs;
    std::optional<SmallVector<int64_t>> ids = deviceIds(attr);
    for (size_t i = 0; ids && i + 1 < ids->size(); i += 2)
      pairs.emplace_back((*ids)[i], (*ids)[i + 1]);
    std::optional<MeshShift> shift =
        ids ? matchShift(meshShape(plan.sdyMesh), pairs) : std::nullopt;
    if (!shift)
      return op->emitOpError("unsupported: source_target_pairs ")
             << attr << " are not a shift along one mesh axis of '"
             << plan.sdyMesh.getSymName() << "'";
    if (!llvm::is_contained(manual, shift->axis))
      return op->emitOpError("unsupported: the pairs shift along mesh axis '")
             << plan.sdyMesh.getMesh().getAxes()[shift->axis].getName()
             << "', which is not a manual axis of the enclosing manual "
                "computations";
    plan.shift = *shift;
    plan.axes = {shift->axis};
  } else {
    bool ordered = kind != Kind::AllReduce;
    FailureOr<SmallVector<int16_t>> axes = groupAxes(plan, manual, ordered);
    if (failed(axes))
      return failure();
    plan.axes = *axes;
  }
  if (kind == Kind::AllReduce || kind == Kind::ReduceScatter) {
    std::optional<mesh::ReductionKind> reduction =
        op->getNumRegions() == 1 ? matchReductionRegion(op->getRegion(0))
                                 : std::nullopt;
    if (!reduction)
      return op->emitOpError("unsupported: the reduction region is not one "
                             "add, multiply, maximum, minimum, and, or, xor "
                             "of its two arguments (signed or float)");
    plan.reduction = *reduction;
  }
  if (failed(checkTypes(plan)))
    return failure();
  return plan;
}


namespace {

/// `type` with dimension `dim` multiplied by `factor` (divided, if
/// `divide`; nullopt if it does not divide). Dynamic sizes stay dynamic.
std::optional<SmallVector<int64_t>> scaled(RankedTensorType type, int64_t dim,
                                           int64_t factor, bool divide) {
  SmallVector<int64_t> shape(type.getShape());
  if (ShapedType::isDynamic(shape[dim]))
    return shape;
  if (divide && shape[dim] % factor != 0)
    return std::nullopt;
  shape[dim] = divide ? shape[dim] / factor : shape[dim] * factor;
  return shape;
}

/// The device id's casts: jaxlib's legalization reads the unsigned id
/// through `builtin.unrealized_conversion_cast`s to a signless integer
/// tensor of its width. The type they cast to, if every use is one.
FailureOr<Type> deviceIdCastType(Operation *op) {
  auto type = op->getNumOperands() == 0 && op->getNumResults() == 1
                  ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
                  : RankedTensorType();
  if (!type || type.getRank() != 0 || !isa<IntegerType>(type.getElementType()))
    return op->emitOpError("expected no operands and one rank-0 integer "
                           "tensor result");
  Type target;
  for (Operation *user : op->getUsers()) {
    auto cast = dyn_cast<UnrealizedConversionCastOp>(user);
    auto to = cast && cast.getNumOperands() == 1 && cast.getNumResults() == 1
                  ? dyn_cast<RankedTensorType>(cast.getResult(0).getType())
                  : RankedTensorType();
    if (!to || to.getRank() != 0 || !to.getElementType().isSignlessInteger(
                                        type.getElementTypeBitWidth()) ||
        (target && target != to))
      return op->emitOpError("unsupported: the device id is read other than "
                             "through a cast to a signless integer tensor of "
                             "its width");
    target = to;
  }
  return target;
}

} // namespace

LogicalResult CollectivesToMesh::checkTypes(Plan &plan) {
  Operation *op = plan.op;
  if (plan.kind == Kind::PartitionId || plan.kind == Kind::ReplicaId)
    return deviceIdCastType(op);
  bool variadic = plan.kind == Kind::AllReduce ||
                  plan.kind == Kind::AllGather || plan.kind == Kind::AllToAll;
  if (op->getNumOperands() == 0 ||
      op->getNumOperands() != op->getNumResults() ||
      (!variadic && op->getNumOperands() != 1))
    return op->emitOpError("expected ")
           << (variadic ? "as many results as operands"
                        : "one operand and one result");
  StringRef dimName = plan.kind == Kind::AllGather       ? "all_gather_dim"
                      : plan.kind == Kind::ReduceScatter ? "scatter_dimension"
                      : plan.kind == Kind::AllToAll      ? "split_dimension"
                                                         : "";
  int64_t size = groupSize(plan);
  if (plan.kind == Kind::AllToAll) {
    std::optional<int64_t> count = integerAttr(op, "split_count");
    std::optional<int64_t> concat = integerAttr(op, "concat_dimension");
    if (!count || !concat || *count != size)
      return op->emitOpError("expected 'split_count' (the group size, ")
             << size << ") and 'concat_dimension'";
    plan.concatDim = *concat;
  }
  if (!dimName.empty()) {
    std::optional<int64_t> dim = integerAttr(op, dimName);
    if (!dim)
      return op->emitOpError("expected '") << dimName << "'";
    plan.dim = *dim;
  }
  for (auto [i, operand, result] :
       llvm::enumerate(op->getOperands(), op->getResults())) {
    auto in = dyn_cast<RankedTensorType>(operand.getType());
    auto out = dyn_cast<RankedTensorType>(result.getType());
    if (!in || !out || in.getElementType() != out.getElementType())
      return op->emitOpError("operand ")
             << i << " - expected ranked tensors of one element type";
    std::optional<SmallVector<int64_t>> expected(in.getShape());
    if (!dimName.empty() &&
        (plan.dim >= in.getRank() || plan.concatDim >= in.getRank()))
      return op->emitOpError("operand ")
             << i << " - '" << dimName << "' out of range for " << in;
    if (plan.kind == Kind::AllGather)
      expected = scaled(in, plan.dim, size, /*divide=*/false);
    if (plan.kind == Kind::ReduceScatter || plan.kind == Kind::AllToAll)
      expected = scaled(in, plan.dim, size, /*divide=*/true);
    if (expected && plan.kind == Kind::AllToAll)
      expected = scaled(RankedTensorType::get(*expected, in.getElementType()),
                        plan.concatDim, size, /*divide=*/false);
    if (!expected || ArrayRef<int64_t>(*expected) != out.getShape())
      return op->emitOpError("operand ")
             << i << " - result type " << out << " does not follow from "
             << in << " and a group of " << size << " devices";
    if (plan.kind == Kind::CollectivePermute && !plan.shift.rotate &&
        !isa<IntegerType, FloatType>(in.getElementType()))
      return op->emitOpError("unsupported: a device no pair sends to gets "
                             "zeros, which meshsdy writes for integers and "
                             "floats only, not ")
             << in.getElementType();
  }
  return success();
}
