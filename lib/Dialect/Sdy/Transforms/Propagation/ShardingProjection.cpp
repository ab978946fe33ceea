//===- ShardingProjection.cpp - shardings seen through a rule -------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardingProjection.h"

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "llvm/ADT/STLExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::sdy;

int64_t mlir::sdy::axisSize(AxisRefAttr axis, MeshAttr mesh) {
  if (axis.isSubAxis())
    return axis.getSubAxisInfo().getSize();
  MeshAxisAttr meshAxis = mesh ? mesh.getAxis(axis.getName()) : MeshAxisAttr();
  return meshAxis ? std::max<int64_t>(meshAxis.getSize(), 1) : 1;
}

AxisRefAttr mlir::sdy::makeAxisRef(MLIRContext *ctx, StringRef name,
                                   int64_t preSize, int64_t size,
                                   MeshAttr mesh) {
  MeshAxisAttr meshAxis = mesh ? mesh.getAxis(name) : MeshAxisAttr();
  if (preSize == 1 && meshAxis && size == meshAxis.getSize())
    return AxisRefAttr::get(ctx, name, SubAxisInfoAttr());
  return AxisRefAttr::get(ctx, name, SubAxisInfoAttr::get(ctx, preSize, size));
}

/// Whether two refs of one axis can shard one tensor together: with `"a"=6`,
/// `"a":(1)2` and `"a":(3)2` don't overlap but can't both exist (2 * 2
/// doesn't divide 6).
static bool canCoexist(AxisRefAttr a, AxisRefAttr b) {
  if (a.getName() != b.getName() || !a.isSubAxis() || !b.isSubAxis())
    return true;
  int64_t preA = a.getPreSize(), preB = b.getPreSize();
  int64_t nextA = a.getSubAxisInfo().getNextPreSize();
  int64_t nextB = b.getSubAxisInfo().getNextPreSize();
  int64_t minPre = std::min(preA, preB), maxPre = std::max(preA, preB);
  int64_t minNext = std::min(nextA, nextB), maxNext = std::max(nextA, nextB);
  if (minNext > maxPre)
    return minNext % maxPre == 0 && maxPre % minPre == 0 &&
           maxNext % minNext == 0;
  return maxPre % minNext == 0;
}

AxisRefAttr mlir::sdy::prefixAvoiding(AxisRefAttr axis,
                                      ArrayRef<AxisRefAttr> others) {
  for (AxisRefAttr other : others) {
    if (!axis || !canCoexist(axis, other))
      return {};
    if (!overlaps(axis, other))
      continue;
    // Only the part of `axis` before `other` starts survives.
    int64_t pre = axis.getPreSize(), otherPre = other.getPreSize();
    if (otherPre <= pre || otherPre % pre != 0)
      return {};
    MLIRContext *ctx = axis.getContext();
    axis = AxisRefAttr::get(ctx, axis.getName(),
                            SubAxisInfoAttr::get(ctx, pre, otherPre / pre));
  }
  return axis;
}

PrefixKind mlir::sdy::comparePrefix(ArrayRef<AxisRefAttr> first,
                                    ArrayRef<AxisRefAttr> second) {
  if (first.size() > second.size())
    return PrefixKind::NotPrefix;
  if (first.empty())
    return second.empty() ? PrefixKind::Equal : PrefixKind::StrictPrefix;
  size_t last = first.size() - 1;
  for (size_t i = 0; i < last; ++i)
    if (first[i] != second[i])
      return PrefixKind::NotPrefix;
  if (first[last] == second[last])
    return first.size() == second.size() ? PrefixKind::Equal
                                         : PrefixKind::StrictPrefix;
  return isPrefixOf(first[last], second[last]) ? PrefixKind::StrictPrefix
                                               : PrefixKind::NotPrefix;
}

bool TensorFactorShardings::expand(int64_t factor,
                                   ArrayRef<AxisRefAttr> newAxes) {
  FactorSharding &sharding = factors[factor];
  if (!sharding.isMapped ||
      comparePrefix(sharding.axes, newAxes) != PrefixKind::StrictPrefix)
    return false;
  sharding.axes.assign(newAxes.begin(), newAxes.end());
  return true;
}

void TensorFactorShardings::toDimAxes(TensorMappingAttr mapping,
                                      ArrayRef<int64_t> factorSizes,
                                      MeshAttr mesh,
                                      SmallVectorImpl<AxisList> &axes,
                                      SmallVectorImpl<bool> *closed,
                                      ArrayRef<AxisList> plan) const {
  axes.assign(mapping.getRank(), AxisList());
  if (closed)
    closed->assign(mapping.getRank(), false);
  // Consecutive sub-axes can only meet at a factor boundary.
  auto append = [&](AxisList &into, ArrayRef<AxisRefAttr> more) {
    for (auto [i, axis] : llvm::enumerate(more)) {
      if (i == 0)
        appendOrMerge(into, axis, mesh);
      else
        into.push_back(axis);
    }
  };
  for (auto [dim, dimMapping] : llvm::enumerate(mapping.getDimMappings())) {
    for (int64_t factor : dimMapping.getFactorIndices()) {
      const FactorSharding &sharding = factors[factor];
      ArrayRef<AxisRefAttr> factorAxes =
          plan.empty() ? ArrayRef<AxisRefAttr>(sharding.axes)
                       : ArrayRef<AxisRefAttr>(plan[factor]);
      if (closed)
        (*closed)[dim] = (*closed)[dim] || !plan.empty() || sharding.isClosed;
      int64_t shardedSize = 1;
      for (AxisRefAttr axis : factorAxes)
        shardedSize *= axisSize(axis, mesh);
      append(axes[dim], factorAxes);
      if (plan.empty() && !sharding.overflowAxes.empty()) {
        append(axes[dim], sharding.overflowAxes);
        break;
      }
      // A factor not fully sharded ends the dimension: the axes of the next
      // factors would need a strided view.
      if (shardedSize < factorSizes[factor] ||
          factorSizes[factor] % shardedSize != 0)
        break;
    }
  }
}

TensorShardingAttr TensorFactorShardings::toSharding(
    MLIRContext *ctx, TensorMappingAttr mapping, ArrayRef<int64_t> factorSizes,
    Attribute meshOrRef, MeshAttr mesh) const {
  SmallVector<AxisList> axes;
  SmallVector<bool> closed;
  toDimAxes(mapping, factorSizes, mesh, axes, &closed);
  SmallVector<DimensionShardingAttr> dims;
  dims.reserve(mapping.getRank());
  for (auto [dimAxes, dimClosed] : llvm::zip(axes, closed))
    dims.push_back(DimensionShardingAttr::get(ctx, dimAxes, dimClosed,
                                              std::optional<int64_t>()));
  return TensorShardingAttr::get(ctx, meshOrRef, dims, replicatedAxes,
                                 unreducedAxes);
}

/// Whether `axis` is a sub-axis as large as its whole mesh axis (which
/// makeAxisRef spells as the full axis).
static bool coversWholeAxis(AxisRefAttr axis, MeshAttr mesh) {
  if (!axis.isSubAxis() || axis.getPreSize() != 1 || !mesh)
    return false;
  MeshAxisAttr meshAxis = mesh.getAxis(axis.getName());
  return meshAxis && meshAxis.getSize() == axis.getSubAxisInfo().getSize();
}

/// Projects one tensor (see the file comment).
static TensorFactorShardings projectTensor(TensorMappingAttr mapping,
                                           TensorShardingAttr sharding,
                                           ArrayRef<int64_t> factorSizes,
                                           MeshAttr mesh) {
  MLIRContext *ctx = mapping.getContext();
  TensorFactorShardings result;
  result.factors.resize(factorSizes.size());
  for (auto [dim, dimMapping] : llvm::enumerate(mapping.getDimMappings())) {
    ArrayRef<AxisRefAttr> axes;
    bool dimClosed = false;
    if (sharding && dim < static_cast<size_t>(sharding.getRank())) {
      DimensionShardingAttr dimSharding = sharding.getDimShardings()[dim];
      axes = dimSharding.getAxes();
      dimClosed = dimSharding.getIsClosed();
    }
    // Cursor over `axes`: the axis at `next` is what is left of it, a
    // sub-axis of pre-size `pre` and size `left`.
    size_t next = 0;
    int64_t pre = 1, left = 1;
    auto load = [&] {
      if (next < axes.size()) {
        pre = axes[next].getPreSize();
        left = axisSize(axes[next], mesh);
      }
    };
    load();
    auto current = [&] {
      // Most axes are taken whole: reuse the attribute rather than unique
      // the same one again.
      AxisRefAttr axis = axes[next];
      if (pre == axis.getPreSize() && left == axisSize(axis, mesh) &&
          !coversWholeAxis(axis, mesh))
        return axis;
      return makeAxisRef(ctx, axis.getName(), pre, left, mesh);
    };
    auto takeRest = [&](AxisList &into) {
      for (; next < axes.size(); ++next, load())
        appendOrMerge(into, current(), mesh);
    };

    bool overflowed = false;
    ArrayRef<int64_t> dimFactors = dimMapping.getFactorIndices();
    for (auto [position, factor] : llvm::enumerate(dimFactors)) {
      FactorSharding &factorSharding = result.factors[factor];
      factorSharding.isMapped = true;
      factorSharding.isMinorMost = position + 1 == dimFactors.size();
      if (overflowed) {
        factorSharding.isClosed = true;
        continue;
      }
      factorSharding.isClosed = dimClosed;
      if (factorSharding.isMinorMost) {
        takeRest(factorSharding.axes);
        break;
      }
      int64_t remaining = factorSizes[factor];
      while (next < axes.size()) {
        int64_t common = std::gcd(remaining, left);
        if (left != 1 && common == 1)
          break;
        if (left > common) {
          // Split the axis: this factor takes its first `common` devices.
          factorSharding.axes.push_back(
              makeAxisRef(ctx, axes[next].getName(), pre, common, mesh));
          pre *= common;
          left /= common;
          remaining /= common;
          continue;
        }
        factorSharding.axes.push_back(current());
        remaining /= left;
        ++next;
        load();
      }
      if (remaining > 1 && next < axes.size()) {
        overflowed = true;
        takeRest(factorSharding.overflowAxes);
      }
    }
  }
  if (sharding) {
    result.replicatedAxes.assign(sharding.getReplicatedAxes().begin(),
                                 sharding.getReplicatedAxes().end());
    result.unreducedAxes.assign(sharding.getUnreducedAxes().begin(),
                                sharding.getUnreducedAxes().end());
  }
  return result;
}

ShardingProjection
ShardingProjection::build(ArrayRef<TensorShardingAttr> operandShardings,
                          ArrayRef<TensorShardingAttr> resultShardings,
                          OpShardingRuleAttr rule, MeshAttr mesh) {
  ShardingProjection projection;
  projection.numOperands = operandShardings.size();
  ArrayRef<int64_t> sizes = rule.getFactorSizes();
  for (auto [sharding, mapping] :
       llvm::zip(operandShardings, rule.getOperandMappings()))
    projection.tensors.push_back(projectTensor(mapping, sharding, sizes, mesh));
  for (auto [sharding, mapping] :
       llvm::zip(resultShardings, rule.getResultMappings()))
    projection.tensors.push_back(projectTensor(mapping, sharding, sizes, mesh));
  return projection;
}

UpdatedTensors ShardingProjection::expandAll(int64_t factor,
                                             ArrayRef<AxisRefAttr> newAxes) {
  UpdatedTensors updated(getNumOperands(), getNumResults());
  for (auto [index, tensor] : llvm::enumerate(tensors)) {
    if (!tensor.expand(factor, newAxes))
      continue;
    if (static_cast<int64_t>(index) < numOperands)
      updated.operands.set(index);
    else
      updated.results.set(index - numOperands);
  }
  return updated;
}
