//===- AxesBindings.cpp - Python access to the sdy axis algebra -----------===//
//
// `_meshsdy.axes`: the axis algebra of AxisRefs.h on plain Python values, for
// meshsdy.dialects.sdy's AxisRef and Sharding. An axis ref is a tuple
// `(name, pre_size, size)`, with `pre_size` and `size` None for a full axis;
// a mesh is a list of `(name, size)` pairs; a sharding is a tuple
// `(mesh_symbol, dims, open_dims, replicated, unreduced)` with `dims` a list
// of lists of refs. Each function builds the attributes in the given context
// and asks C++ (SdyAttributes.h, Axes.h). C API only; arguments that do not
// fit raise ValueError with one line.
//
//===----------------------------------------------------------------------===//

#include "MeshsdyModule.h"

#include "meshsdy-c/Axes.h"
#include "meshsdy-c/SdyAttributes.h"
#include "mlir-c/BuiltinAttributes.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace mlir::python::nanobind_adaptors;

namespace meshsdy::python {
namespace {

using Ref = std::tuple<std::string, std::optional<int64_t>,
                       std::optional<int64_t>>;
using Mesh = std::vector<std::pair<std::string, int64_t>>;
using Dims = std::vector<std::vector<Ref>>;
using Sharding = std::tuple<std::string, Dims, std::vector<bool>,
                            std::vector<Ref>, std::vector<Ref>>;

std::string refText(const Ref &ref) {
  auto &[name, preSize, size] = ref;
  std::string text = "\"" + name + "\"";
  if (preSize || size)
    text += ":(" + (preSize ? std::to_string(*preSize) : "None") + ")" +
            (size ? std::to_string(*size) : "None");
  return text;
}

/// The AxisRefAttr of `ref`; ValueError for a sub-axis whose pre-size or
/// size is missing or not in [1, 2^31).
MlirAttribute refAttr(const Ref &ref, MlirContext ctx) {
  auto &[name, preSize, size] = ref;
  MlirAttribute info{nullptr};
  if (preSize || size) {
    // Sizes past 2^31 would overflow the products C++ forms (m * k).
    constexpr int64_t kLimit = int64_t(1) << 31;
    if (!preSize || !size || *preSize < 1 || *size < 1 ||
        *preSize >= kLimit || *size >= kLimit)
      throw nb::value_error(("invalid axis ref " + refText(ref) +
                             ": a sub-axis needs a pre-size and size in "
                             "[1, 2^31)")
                                .c_str());
    info = mlirSdySubAxisInfoAttrGet(ctx, *preSize, *size);
  }
  return mlirSdyAxisRefAttrGet(ctx, toStringRef(name), info);
}

std::vector<MlirAttribute> refAttrs(const std::vector<Ref> &refs,
                                    MlirContext ctx) {
  std::vector<MlirAttribute> attrs;
  for (const Ref &ref : refs)
    attrs.push_back(refAttr(ref, ctx));
  return attrs;
}

/// `(name, pre_size, size)` of an AxisRefAttr; None for a null attribute.
std::optional<Ref> refOf(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return std::nullopt;
  std::string name = toString(mlirSdyAxisRefAttrGetName(attr));
  MlirAttribute info = mlirSdyAxisRefAttrGetSubAxisInfo(attr);
  if (mlirAttributeIsNull(info))
    return Ref(name, std::nullopt, std::nullopt);
  return Ref(name, mlirSdySubAxisInfoAttrGetPreSize(info),
             mlirSdySubAxisInfoAttrGetSize(info));
}

/// The MeshAttr of `mesh`; ValueError if sdy rejects it.
MlirAttribute meshAttr(const Mesh &mesh, MlirContext ctx) {
  std::vector<MlirAttribute> axes;
  for (auto &[name, size] : mesh)
    axes.push_back(mlirSdyMeshAxisAttrGet(ctx, toStringRef(name), size));
  DiagnosticCapture capture(ctx);
  return capture.check(
      mlirSdyMeshAttrGet(ctx, axes.size(), axes.data(), 0, nullptr), "mesh");
}

/// The TensorShardingAttr of `sharding`, bound to its mesh symbol.
MlirAttribute shardingAttr(const Sharding &sharding, MlirContext ctx) {
  auto &[meshSymbol, dims, openDims, replicated, unreduced] = sharding;
  std::vector<MlirAttribute> dimAttrs;
  for (size_t dim = 0; dim < dims.size(); ++dim) {
    std::vector<MlirAttribute> axes = refAttrs(dims[dim], ctx);
    bool open = dim < openDims.size() && openDims[dim];
    dimAttrs.push_back(mlirSdyDimensionShardingAttrGet(
        ctx, axes.size(), axes.data(), /*isClosed=*/!open,
        /*hasPriority=*/false, 0));
  }
  std::vector<MlirAttribute> rep = refAttrs(replicated, ctx);
  std::vector<MlirAttribute> unred = refAttrs(unreduced, ctx);
  DiagnosticCapture capture(ctx);
  return capture.check(
      mlirSdyTensorShardingAttrGet(
          ctx, mlirFlatSymbolRefAttrGet(ctx, toStringRef(meshSymbol)),
          dimAttrs.size(), dimAttrs.data(), rep.size(), rep.data(),
          unred.size(), unred.data()),
      "sharding");
}

/// Binds a predicate on two refs.
template <bool (*Predicate)(MlirAttribute, MlirAttribute)>
bool onRefs(const Ref &a, const Ref &b, MlirContext ctx) {
  return Predicate(refAttr(a, ctx), refAttr(b, ctx));
}

/// Binds an operation on two refs that may have no result.
template <MlirAttribute (*Operation)(MlirAttribute, MlirAttribute)>
std::optional<Ref> ofRefs(const Ref &a, const Ref &b, MlirContext ctx) {
  return refOf(Operation(refAttr(a, ctx), refAttr(b, ctx)));
}

std::vector<int64_t> localShape(const std::vector<int64_t> &globalShape,
                                const Dims &dims, const Mesh &mesh,
                                MlirContext ctx) {
  std::vector<intptr_t> sizes;
  std::vector<MlirAttribute> axes;
  for (const std::vector<Ref> &dim : dims) {
    sizes.push_back(dim.size());
    for (const Ref &ref : dim)
      axes.push_back(refAttr(ref, ctx));
  }
  std::vector<int64_t> local(globalShape.size());
  if (!mlirSdyGetLocalShapeOfAxes(globalShape.size(), globalShape.data(),
                                  sizes.size(), sizes.data(), axes.data(),
                                  meshAttr(mesh, ctx), local.data()))
    throw nb::value_error("local_shape: invalid axes or mesh");
  return local;
}

} // namespace

void populateAxes(nb::module_ &m) {
  auto ctxArg = [] { return nb::arg("context"); };
  m.def("overlaps", &onRefs<mlirSdyAxisRefsOverlap>, nb::arg("a"),
        nb::arg("b"), ctxArg(), "C++ overlaps(a, b).");
  m.def("contains", &onRefs<mlirSdyAxisRefContains>, nb::arg("a"),
        nb::arg("b"), ctxArg(), "C++ contains(a, b).");
  m.def("is_prefix_of", &onRefs<mlirSdyAxisRefIsPrefixOf>, nb::arg("a"),
        nb::arg("b"), ctxArg(), "C++ isPrefixOf(a, b).");
  m.def("can_merge", &onRefs<mlirSdyAxisRefsCanMerge>, nb::arg("a"),
        nb::arg("b"), ctxArg(), "C++ canMerge(a, b).");
  m.def(
      "merge",
      [](const Ref &a, const Ref &b, const Mesh &mesh, MlirContext ctx) {
        return refOf(mlirSdyAxisRefsMerge(refAttr(a, ctx), refAttr(b, ctx),
                                          meshAttr(mesh, ctx)));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("mesh"), ctxArg(),
      "C++ merge(a, b, mesh); None unless canMerge(a, b).");
  m.def("greatest_common_prefix",
        &ofRefs<mlirSdyAxisRefsGreatestCommonPrefix>, nb::arg("a"),
        nb::arg("b"), ctxArg(), "C++ getGreatestCommonPrefix; None if none.");
  m.def("prefix_without_overlap", &ofRefs<mlirSdyAxisRefPrefixWithoutOverlap>,
        nb::arg("a"), nb::arg("b"), ctxArg(),
        "C++ getPrefixWithoutOverlap; None if none.");
  m.def(
      "less_in_mesh",
      [](const Ref &a, const Ref &b, const Mesh &mesh, MlirContext ctx) {
        return mlirSdyAxisRefLessInMesh(refAttr(a, ctx), refAttr(b, ctx),
                                        meshAttr(mesh, ctx));
      },
      nb::arg("a"), nb::arg("b"), nb::arg("mesh"), ctxArg(),
      "C++ lessInMesh(a, b, mesh).");
  m.def(
      "total_size",
      [](const std::vector<Ref> &refs, const Mesh &mesh, MlirContext ctx) {
        std::vector<MlirAttribute> attrs = refAttrs(refs, ctx);
        return mlirSdyAxisRefsTotalSize(attrs.size(), attrs.data(),
                                        meshAttr(mesh, ctx));
      },
      nb::arg("axes"), nb::arg("mesh"), ctxArg(), "C++ getTotalSize.");
  m.def("local_shape", &localShape, nb::arg("global_shape"), nb::arg("dims"),
        nb::arg("mesh"), ctxArg(), "C++ getLocalShape over per-dim axes.");
  m.def(
      "are_equivalent",
      [](const Sharding &a, const Sharding &b, MlirContext ctx) {
        return mlirSdyTensorShardingsAreEquivalent(shardingAttr(a, ctx),
                                                   shardingAttr(b, ctx));
      },
      nb::arg("a"), nb::arg("b"), ctxArg(), "C++ areEquivalent(a, b).");
}

} // namespace meshsdy::python
