//===- CostModel.cpp - what collectives and live tensors cost -------------===//

#include "meshsdy/Dialect/Mesh/Transforms/CostModel.h"
#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::mesh;

int64_t mlir::mesh::elementBytes(Type elementType) {
  if (!elementType.isIntOrFloat())
    return 4;
  return (std::max(elementType.getIntOrFloatBitWidth(), 8u) + 7) / 8;
}

/// `elements * elementBytes`, or nullopt if a factor is negative or the
/// product overflows.
static std::optional<int64_t> bytesOf(ArrayRef<int64_t> shape,
                                      Type elementType) {
  int64_t bytes = elementBytes(elementType);
  for (int64_t size : shape)
    if (size < 0 || llvm::MulOverflow(bytes, size, bytes))
      return std::nullopt;
  return bytes;
}

std::optional<int64_t> mlir::mesh::tensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  return bytesOf(tensor.getShape(), tensor.getElementType());
}

std::optional<double> mlir::mesh::ringFactor(StringRef name,
                                             int64_t groupSize) {
  double g = static_cast<double>(groupSize);
  return llvm::StringSwitch<std::optional<double>>(name)
      .Cases({"mesh.all_gather", "mesh.broadcast"}, g - 1)
      .Case("mesh.all_reduce", 2.0 * (g - 1) / g)
      .Cases({"mesh.reduce_scatter", "mesh.all_to_all", "mesh.scatter"},
             (g - 1) / g)
      .Cases({"mesh.gather", "mesh.reduce", "mesh.send", "mesh.shift"}, 1.0)
      .Case("mesh.all_slice", 0.0)
      .Default(std::nullopt);
}

bool mlir::mesh::isPricedCollective(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "mesh.update_halo" || ringFactor(name, 2).has_value();
}

/// The elements an update_halo on a tensor of `shape` sends: each split
/// dimension's low and high halo widths times the extent of the other
/// dimensions; nullopt for a dynamic width. The attributes are read by name,
/// so that an op built without verification is priced, not trusted.
static std::optional<int64_t> haloElements(Operation *op,
                                           ArrayRef<int64_t> shape) {
  auto split = op->getAttrOfType<MeshAxesArrayAttr>("split_axes");
  auto halos = op->getAttrOfType<DenseI64ArrayAttr>("static_halo_sizes");
  ArrayRef<int64_t> widths = halos ? halos.asArrayRef() : ArrayRef<int64_t>();
  int64_t total = 1;
  for (int64_t size : shape)
    if (llvm::MulOverflow(total, size, total))
      return std::nullopt;
  int64_t elements = 0;
  size_t pair = 0;
  for (auto [dim, axes] :
       llvm::enumerate(split ? split.getAxes() : ArrayRef<DenseI16ArrayAttr>())) {
    if (!axes || axes.empty())
      continue;
    if (dim >= shape.size() || 2 * pair + 1 >= widths.size())
      break;
    int64_t lo = widths[2 * pair], hi = widths[2 * pair + 1];
    ++pair;
    if (lo < 0 || hi < 0) // Dynamic (`?`) widths.
      return std::nullopt;
    int64_t face = total / std::max<int64_t>(shape[dim], 1), sent;
    if (llvm::AddOverflow(lo, hi, sent) ||
        llvm::MulOverflow(sent, face, sent) ||
        llvm::AddOverflow(elements, sent, elements))
      return std::nullopt;
  }
  return elements;
}

std::optional<double>
mlir::mesh::collectiveBytesSent(Operation *op,
                                std::optional<ArrayRef<int64_t>> operandShape) {
  if (!isPricedCollective(op) || op->getNumOperands() == 0)
    return std::nullopt;
  auto tensor = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!tensor)
    return std::nullopt;
  ArrayRef<int64_t> shape = operandShape ? *operandShape : tensor.getShape();
  if (static_cast<int64_t>(shape.size()) != tensor.getRank())
    return std::nullopt;
  std::optional<int64_t> bytes = bytesOf(shape, tensor.getElementType());
  if (!bytes)
    return std::nullopt;
  if (isa<UpdateHaloOp>(op)) {
    std::optional<int64_t> elements = haloElements(op, shape);
    std::optional<int64_t> sent =
        elements ? bytesOf({*elements}, tensor.getElementType()) : std::nullopt;
    return sent ? std::optional<double>(*sent) : std::nullopt;
  }
  auto meshName = op->getAttrOfType<FlatSymbolRefAttr>("mesh");
  auto meshOp = meshName
                    ? SymbolTable::lookupNearestSymbolFrom<MeshOp>(op, meshName)
                    : MeshOp();
  if (!meshOp)
    return std::nullopt;
  auto axes = op->getAttrOfType<DenseI16ArrayAttr>("mesh_axes");
  int64_t group = collectiveProcessGroupSize(
      axes ? axes.asArrayRef() : ArrayRef<MeshAxis>(), meshOp.getShape());
  if (ShapedType::isDynamic(group))
    return std::nullopt;
  return *ringFactor(op->getName().getStringRef(), group) * double(*bytes);
}

bool mlir::mesh::isAliasingAnnotation(Operation *op) {
  if (!op || op->getNumOperands() == 0)
    return false;
  return isa<ShardOp>(op) ||
         op->getName().getStringRef() == "sdy.sharding_constraint" ||
         op->getName().getStringRef() == "sdy.reshard";
}

int64_t mlir::mesh::peakLiveTensorBytes(func::FuncOp func) {
  if (func.isExternal())
    return 0;
  Block &body = func.getFunctionBody().front();
  DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(body))
    position[&op] = i;
  // An annotation's result is its operand: it holds no data of its own.
  auto root = [](Value value) {
    while (isAliasingAnnotation(value.getDefiningOp()))
      value = value.getDefiningOp()->getOperand(0);
    return value;
  };
  // [first, last] position at which each tensor is live; -1 for arguments.
  DenseMap<Value, std::pair<int64_t, int64_t>> live;
  auto define = [&](Value value, int64_t at) {
    if (tensorBytes(value.getType()) &&
        !isAliasingAnnotation(value.getDefiningOp()))
      live.try_emplace(value, at, at);
  };
  for (BlockArgument arg : body.getArguments())
    define(arg, -1);
  for (Operation &op : body)
    for (Value result : op.getResults())
      define(result, position[&op]);
  func.walk([&](Operation *user) {
    Operation *top = body.findAncestorOpInBlock(*user);
    if (!top)
      return;
    for (Value operand : user->getOperands()) {
      auto it = live.find(root(operand));
      if (it != live.end())
        it->second.second = std::max(it->second.second, position[top]);
    }
  });
  // Sweep: a tensor adds its bytes where it starts and removes them after
  // its last use.
  std::map<int64_t, int64_t> delta;
  for (auto &[value, span] : live) {
    int64_t bytes = *tensorBytes(value.getType());
    delta[span.first] += bytes;
    delta[span.second + 1] -= bytes;
  }
  int64_t current = 0, peak = 0;
  for (auto &[at, change] : delta) {
    current += change;
    peak = std::max(peak, current);
  }
  return peak;
}
