//===- FactorAxesChoice.cpp - one sharding per factor of an op ------------===//
//
// See the header for the three steps and the final move of need-replication
// axes.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Export/FactorAxesChoice.h"

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

#include <tuple>

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// The longest prefix of `axes` that overlaps none of `others` (the last
/// axis may shrink to a prefix sub-axis).
AxisList prefixWithout(ArrayRef<AxisRefAttr> axes,
                       ArrayRef<AxisRefAttr> others) {
  AxisList kept;
  for (AxisRefAttr axis : axes) {
    AxisRefAttr prefix = prefixAvoiding(axis, others);
    if (!prefix)
      break;
    kept.push_back(prefix);
    if (prefix != axis)
      break;
  }
  return kept;
}

bool isScalar(TensorMappingAttr mapping) { return mapping.getRank() == 0; }

SmallVector<TensorMappingAttr> allMappings(OpShardingRuleAttr rule) {
  SmallVector<TensorMappingAttr> mappings(rule.getOperandMappings());
  llvm::append_range(mappings, rule.getResultMappings());
  return mappings;
}

bool inAllNonScalarTensors(OpShardingRuleAttr rule, int64_t factor) {
  return llvm::all_of(allMappings(rule), [&](TensorMappingAttr mapping) {
    return isScalar(mapping) ||
           llvm::any_of(mapping.getDimMappings(), [&](DimMappingAttr dim) {
             return llvm::is_contained(dim.getFactorIndices(), factor);
           });
  });
}

/// Step 1: the factor axes every tensor agrees on, or nothing.
std::optional<SmallVector<AxisList>>
agreedAxes(const ShardingProjection &projection, OpShardingRuleAttr rule) {
  int64_t numFactors = rule.getNumFactors();
  SmallVector<AxisList> chosen(numFactors);
  AxisList used;
  for (int64_t factor = 0; factor < numFactors; ++factor) {
    const FactorSharding *first = nullptr;
    for (const TensorFactorShardings &tensor : projection.getTensors()) {
      const FactorSharding *f = tensor.find(factor);
      if (!f)
        continue;
      if (first && f->axes != first->axes)
        return std::nullopt;
      first = first ? first : f;
    }
    if (!first)
      continue;
    if (rule.isNeedReplicationFactor(factor)) {
      if (!first->axes.empty())
        return std::nullopt;
      continue;
    }
    if (anyOverlap(first->axes, used))
      return std::nullopt;
    chosen[factor] = first->axes;
    used.append(first->axes.begin(), first->axes.end());
  }
  return chosen;
}

bool hasDimensionWithSeveralFactors(OpShardingRuleAttr rule) {
  return llvm::any_of(allMappings(rule), [](TensorMappingAttr mapping) {
    return llvm::any_of(mapping.getDimMappings(), [](DimMappingAttr dim) {
      return dim.getFactorIndices().size() > 1;
    });
  });
}

/// Step 2: follow one of the two non-scalar tensors.
SmallVector<AxisList> followOneTensor(const ShardingProjection &projection,
                                      OpShardingRuleAttr rule,
                                      ArrayRef<int64_t> tensorSizes,
                                      ArrayRef<int64_t> nonScalar,
                                      MeshAttr mesh) {
  auto preference = [&](int64_t index) {
    const TensorFactorShardings &tensor = projection.getTensors()[index];
    bool permutationSharded = false;
    int64_t shardingSize = 1;
    for (int64_t factor = 0; factor < rule.getNumFactors(); ++factor)
      if (const FactorSharding *f = tensor.find(factor)) {
        shardingSize *= getTotalSize(f->axes, mesh);
        permutationSharded |=
            rule.isPermutationFactor(factor) && !f->axes.empty();
      }
    return std::make_tuple(!permutationSharded, tensorSizes[index],
                           shardingSize);
  };
  int64_t preferred = nonScalar[0], other = nonScalar[1];
  if (preference(preferred) < preference(other))
    std::swap(preferred, other);
  SmallVector<AxisList> chosen(rule.getNumFactors());
  AxisList used;
  const TensorFactorShardings &first = projection.getTensors()[preferred];
  for (int64_t factor = 0; factor < rule.getNumFactors(); ++factor)
    if (const FactorSharding *f = first.find(factor)) {
      chosen[factor] = f->axes;
      used.append(f->axes.begin(), f->axes.end());
    }
  const TensorFactorShardings &second = projection.getTensors()[other];
  for (int64_t factor = 0; factor < rule.getNumFactors(); ++factor)
    if (const FactorSharding *f = second.find(factor); f && !first.find(factor))
      chosen[factor] = prefixWithout(f->axes, used);
  return chosen;
}

/// A (factor, axes) candidate of step 3.
struct Candidate {
  int64_t factor;
  AxisList axes;
  int64_t weight = 0;     // elements of the tensors it leaves in place
  int64_t precedence = 0; // pass-through 3, reduction 2, permutation 1, ...
  int64_t shardingSize = 0; // what it adds to the factor's current axes

  /// Candidates compare by weight, precedence, sharding size, factor, then
  /// axes (fewer first, then by name, pre-size and size).
  bool lessThan(const Candidate &other, MeshAttr mesh) const {
    auto key = [](const Candidate &c) {
      return std::make_tuple(c.weight, c.precedence, c.shardingSize, c.factor,
                             c.axes.size());
    };
    if (key(*this) != key(other))
      return key(*this) < key(other);
    for (auto [a, b] : llvm::zip(axes, other.axes)) {
      auto parts = [&](AxisRefAttr axis) {
        return std::make_tuple(axis.getName(), axis.getPreSize(),
                               axisSize(axis, mesh));
      };
      if (parts(a) != parts(b))
        return parts(a) < parts(b);
    }
    return false;
  }
};

int64_t precedenceOf(OpShardingRuleAttr rule, int64_t factor) {
  if (rule.isNeedReplicationFactor(factor))
    return 0;
  if (rule.isPermutationFactor(factor))
    return 1;
  if (rule.isReductionFactor(factor))
    return 2;
  return 3;
}

/// Step 3: the greedy choice.
SmallVector<AxisList> greedyChoice(const ShardingProjection &projection,
                                   OpShardingRuleAttr rule,
                                   ArrayRef<int64_t> tensorSizes,
                                   MeshAttr mesh) {
  int64_t numFactors = rule.getNumFactors();
  SmallVector<Candidate> candidates;
  for (const TensorFactorShardings &tensor : projection.getTensors())
    for (int64_t factor = 0; factor < numFactors; ++factor)
      if (const FactorSharding *f = tensor.find(factor))
        for (size_t n = f->axes.size(); n > 0; --n) {
          ArrayRef<AxisRefAttr> prefix = ArrayRef(f->axes).take_front(n);
          if (llvm::none_of(candidates, [&](const Candidate &c) {
                return c.factor == factor && ArrayRef(c.axes) == prefix;
              }))
            candidates.push_back({factor, AxisList(prefix), 0,
                                  precedenceOf(rule, factor),
                                  getTotalSize(prefix, mesh)});
        }
  for (Candidate &candidate : candidates)
    for (auto [index, tensor] : llvm::enumerate(projection.getTensors()))
      if (const FactorSharding *f = tensor.find(candidate.factor);
          f && comparePrefix(candidate.axes, f->axes) != PrefixKind::NotPrefix)
        candidate.weight += tensorSizes[index];

  // factor -> the factors right before it in some dimension that are not
  // fully sharded yet.
  SmallVector<llvm::SmallSetVector<int64_t, 2>> waitsFor(numFactors);
  for (TensorMappingAttr mapping : allMappings(rule))
    for (DimMappingAttr dim : mapping.getDimMappings()) {
      ArrayRef<int64_t> factors = dim.getFactorIndices();
      for (size_t i = 1; i < factors.size(); ++i)
        waitsFor[factors[i]].insert(factors[i - 1]);
    }

  SmallVector<AxisList> chosen(numFactors);
  while (!candidates.empty()) {
    Candidate *best = nullptr;
    for (Candidate &candidate : candidates)
      if (waitsFor[candidate.factor].empty() &&
          (!best || best->lessThan(candidate, mesh)))
        best = &candidate;
    if (!best)
      break;
    int64_t factor = best->factor;
    AxisList axes = best->axes;
    chosen[factor] = axes;
    if (getTotalSize(axes, mesh) == rule.getFactorSizes()[factor])
      for (auto &waiting : waitsFor)
        waiting.remove(factor);
    SmallVector<Candidate> kept;
    for (Candidate &candidate : candidates) {
      if (candidate.factor == factor) {
        // Only a candidate that extends the choice stays.
        if (comparePrefix(axes, candidate.axes) != PrefixKind::StrictPrefix)
          continue;
        candidate.shardingSize =
            getTotalSize(candidate.axes, mesh) / getTotalSize(axes, mesh);
      } else if (anyOverlap(candidate.axes, axes)) {
        candidate.axes = prefixWithout(candidate.axes, axes);
        if (candidate.axes == chosen[candidate.factor])
          continue;
        candidate.shardingSize = getTotalSize(candidate.axes, mesh) /
                                 getTotalSize(chosen[candidate.factor], mesh);
      } else {
        candidate.shardingSize = getTotalSize(candidate.axes, mesh);
      }
      kept.push_back(std::move(candidate));
    }
    candidates = std::move(kept);
  }
  return chosen;
}

} // namespace

void mlir::sdy::moveAxesToBatchingFactors(int64_t factor,
                                          OpShardingRuleAttr rule,
                                          MeshAttr mesh,
                                          SmallVectorImpl<AxisList> &chosen) {
  AxisList moving = std::move(chosen[factor]);
  chosen[factor].clear();
  if (!inAllNonScalarTensors(rule, factor))
    return;
  ArrayRef<AxisRefAttr> axes = moving;
  for (int64_t other = 0; other < rule.getNumFactors() && !axes.empty();
       ++other) {
    int64_t size = rule.getFactorSizes()[other];
    if (!rule.isPassThroughFactor(other) || size <= 0 ||
        !inAllNonScalarTensors(rule, other))
      continue;
    int64_t current = getTotalSize(chosen[other], mesh);
    if (size % current != 0)
      continue;
    int64_t room = size / current;
    while (!axes.empty() && room % axisSize(axes.front(), mesh) == 0) {
      room /= axisSize(axes.front(), mesh);
      appendOrMerge(chosen[other], axes.front(), mesh);
      axes = axes.drop_front();
    }
  }
}

SmallVector<AxisList> mlir::sdy::chooseFactorAxes(
    const ShardingProjection &projection, OpShardingRuleAttr rule,
    ArrayRef<int64_t> tensorSizes, MeshAttr mesh) {
  if (std::optional<SmallVector<AxisList>> agreed =
          agreedAxes(projection, rule))
    return *agreed;

  SmallVector<int64_t> nonScalar;
  for (auto [index, mapping] : llvm::enumerate(allMappings(rule)))
    if (!isScalar(mapping))
      nonScalar.push_back(index);
  if (nonScalar.size() == 2 && rule.getNeedReplicationFactors().empty() &&
      !hasDimensionWithSeveralFactors(rule))
    return followOneTensor(projection, rule, tensorSizes, nonScalar, mesh);

  SmallVector<AxisList> chosen =
      greedyChoice(projection, rule, tensorSizes, mesh);
  for (int64_t factor : rule.getNeedReplicationFactors())
    moveAxesToBatchingFactors(factor, rule, mesh, chosen);
  return chosen;
}
