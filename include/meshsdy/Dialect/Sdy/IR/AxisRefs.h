//===- AxisRefs.h - algebra of axis refs and shardings ----------*- C++ -*-===//
//
// Predicates and operations on axis refs (`"a"` or the sub-axis `"a":(m)k`)
// and tensor shardings that propagation and partitioning build on. A sub-axis
// `(m)k` of an axis of size n is the k-sized factor after the first m devices
// when the axis is reshaped to [m, k, n/(m*k)]; a full axis is `(1)n`. Two
// refs of the same axis are compared through the half-open "pre-size
// interval" [m, m*k): with `"a"=8`, `"a":(1)2` covers [1, 2), `"a":(2)4`
// covers [2, 8) and `"a"` covers [1, 8).
//
// The one home of the axis algebra: meshsdy.dialects.sdy reads it through the
// C API (`overlaps`, `merge`, ... on plain AxisRef values);
// test/python/reference/axes.py is an independent reference a test compares
// with it.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_IR_AXISREFS_H
#define MESHSDY_DIALECT_SDY_IR_AXISREFS_H

#include "meshsdy/Dialect/Sdy/IR/SdyAttrs.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <string>

namespace mlir::sdy {

/// Renders `axis` as it is written in a sharding: `"a"` or `"a":(2)4`.
std::string axisRefToString(AxisRefAttr axis);

/// Renders a list of axis refs as `{"a", "b":(1)2}`.
std::string axisRefsToString(ArrayRef<AxisRefAttr> axes);

/// Whether `a` and `b` share devices of the same axis.
///   overlaps("a", "a":(2)2) == true
///   overlaps("a":(1)2, "a":(2)2) == false   (intervals [1,2) and [2,4))
///   overlaps("a":(1)4, "a":(2)4) == true    ([1,4) and [2,8))
///   overlaps("a", "b") == false
bool overlaps(AxisRefAttr a, AxisRefAttr b);

/// Whether some ref of `axes` overlaps some ref of `others`.
bool anyOverlap(ArrayRef<AxisRefAttr> axes, ArrayRef<AxisRefAttr> others);
/// Whether every device index of `b` is covered by `a`.
///   contains("a", "a":(2)2) == true ; contains("a":(1)4, "a":(2)2) == true
///   contains("a":(2)2, "a":(1)4) == false
bool contains(AxisRefAttr a, AxisRefAttr b);

/// Whether `a` is a (not necessarily strict) prefix of `b`: same axis, same
/// pre-size and `a` is not longer.
///   isPrefixOf("a":(1)2, "a") == true ; isPrefixOf("a":(2)2, "a") == false
///   isPrefixOf("a", "a") == true
bool isPrefixOf(AxisRefAttr a, AxisRefAttr b);

/// isPrefixOf(a, b) && a != b.
bool isStrictPrefixOf(AxisRefAttr a, AxisRefAttr b);

/// Whether `a` immediately followed by `b` forms one (sub-)axis, i.e. both
/// are sub-axes of the same axis and `b` starts where `a` ends.
///   canMerge("a":(1)2, "a":(2)2) == true ; canMerge("a":(2)2, "a":(1)2) ==
///   false ; canMerge("a", "a":(2)2) == false
bool canMerge(AxisRefAttr a, AxisRefAttr b);

/// Merges two refs for which canMerge(a, b) holds; the result is the full
/// axis when it covers it. With `"a"=8`: merge("a":(1)2, "a":(2)2) is
/// `"a":(1)4`, merge("a":(1)2, "a":(2)4) is `"a"`.
AxisRefAttr merge(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh);

/// Appends `axis` to `axes`, merging it into the last axis when the two are
/// consecutive sub-axes ({"a":(1)2} + "a":(2)2 -> {"a":(1)4} or {"a"}).
void appendOrMerge(SmallVectorImpl<AxisRefAttr> &axes, AxisRefAttr axis,
                   MeshAttr mesh);

/// `axes` with consecutive sub-axes of one axis merged, as shardings and
/// collectives write them ({"y":(1)2, "y":(2)2} is {"y"}).
SmallVector<AxisRefAttr, 4> mergedAxes(ArrayRef<AxisRefAttr> axes,
                                       MeshAttr mesh);

/// The longest ref that is a prefix of both `a` and `b`, or null. With
/// `"a"=8`: ("a":(1)2, "a") -> "a":(1)2 ; ("a":(2)4, "a":(2)2) -> "a":(2)2 ;
/// ("a":(1)2, "a":(2)2) -> null ; ("a", "a") -> "a".
AxisRefAttr getGreatestCommonPrefix(AxisRefAttr a, AxisRefAttr b);

/// The longest prefix of `a` that doesn't overlap `b`, or null if there is
/// none. With `"a"=8`: ("a", "a":(4)2) -> "a":(1)4 ; ("a":(2)4, "a":(1)2) ->
/// "a":(2)4 (no overlap) ; ("a":(2)4, "a") -> null.
AxisRefAttr getPrefixWithoutOverlap(AxisRefAttr a, AxisRefAttr b);

/// Strict weak order of refs as they appear in `mesh`: by the position of
/// the axis in the mesh, then by pre-size, then by size. Unknown axes sort
/// last, by name. With `<["x"=4, "y"=2]>`:
///   "x":(1)2 < "x" < "x":(2)2 < "y"
bool lessInMesh(AxisRefAttr a, AxisRefAttr b, MeshAttr mesh);

/// lessInMesh bound to `mesh`, for llvm::sort and llvm::is_sorted.
std::function<bool(AxisRefAttr, AxisRefAttr)> getMeshComparator(MeshAttr mesh);

/// The product of the sizes of `axes` in `mesh` (1 for no axes).
///   With `<["a"=4, "b"=2]>`: {"a":(1)2, "b"} -> 4
int64_t getTotalSize(ArrayRef<AxisRefAttr> axes, MeshAttr mesh);

/// The per-device shape of a tensor of `globalShape` under `sharding` on
/// `mesh`: each dimension divided by the product of its axes, rounded up
/// (the last device is padded). Dynamic dimensions stay dynamic.
///   [8, 6] under [{"a"}, {"b"}] on <["a"=4, "b"=4]> -> [2, 2]
SmallVector<int64_t> getLocalShape(ArrayRef<int64_t> globalShape,
                                   TensorShardingAttr sharding, MeshAttr mesh);

/// The same for a tensor whose dimension `i` is split over `dimAxes[i]`
/// (dimensions past the end of `dimAxes` are not split).
///   [6, 5] over [{"a":(1)4}] on <["a"=8]> -> [2, 5]
SmallVector<int64_t> getLocalShape(ArrayRef<int64_t> globalShape,
                                   ArrayRef<ArrayRef<AxisRefAttr>> dimAxes,
                                   MeshAttr mesh);

/// Whether `a` and `b` shard a tensor in the same way: same mesh, same axes
/// per dimension and same unreduced axes. Open/closed, priorities and
/// explicitly vs implicitly replicated axes don't matter.
///   <@m, [{"a"}, {?}]> ~ <@m, [{"a"}p0, {}], replicated={"b"}>
bool areEquivalent(TensorShardingAttr a, TensorShardingAttr b);

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_IR_AXISREFS_H
