//===- SdyAttributes.cpp - Python classes for sdy attributes --------------===//

#include "MeshsdyModule.h"

#include "meshsdy-c/SdyAttributes.h"
#include "mlir-c/BuiltinAttributes.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <utility>
#include <vector>

using namespace mlir::python::nanobind_adaptors;

namespace meshsdy::python {
namespace {

/// Raises TypeError if `items` is a string: a list of names or dimensions
/// was meant, and iterating a string would silently split it in letters.
void rejectString(nb::handle items, const char *what) {
  if (nb::isinstance<nb::str>(items))
    throw nb::type_error((std::string(what) +
                          " must be a list, not a string (did you mean ['" +
                          nb::cast<std::string>(items) + "']?)")
                             .c_str());
}

/// Accepts `{"a": 2, "b": 4}`, `[("a", 2), ("b", 4)]` or a list of
/// MeshAxisAttr, and returns MeshAxisAttr values.
std::vector<MlirAttribute> meshAxesFrom(nb::handle axes, MlirContext ctx) {
  rejectString(axes, "mesh axes");
  std::vector<MlirAttribute> result;
  nb::object items = nb::isinstance<nb::dict>(axes)
                         ? nb::borrow<nb::dict>(axes).items()
                         : nb::borrow(axes);
  for (nb::handle item : items) {
    MlirAttribute attr;
    if (nb::try_cast<MlirAttribute>(item, attr)) {
      if (!mlirAttributeIsASdyMeshAxisAttr(attr))
        throw nb::type_error("mesh axes must be MeshAxisAttr or (name, size)");
      result.push_back(attr);
      continue;
    }
    std::pair<std::string, int64_t> pair;
    if (!nb::try_cast(item, pair))
      throw nb::type_error(
          ("a mesh axis must be a MeshAxisAttr or a (name, size) pair, got " +
           nb::cast<std::string>(nb::repr(item)))
              .c_str());
    result.push_back(
        mlirSdyMeshAxisAttrGet(ctx, toStringRef(pair.first), pair.second));
  }
  return result;
}


/// The attribute list `field` of `attr` (see mlirSdyAttrGetListSize).
std::vector<MlirAttribute> attrList(MlirAttribute attr, int field = 0) {
  std::vector<MlirAttribute> result;
  for (intptr_t i = 0, e = mlirSdyAttrGetListSize(attr, field); i < e; ++i)
    result.push_back(mlirSdyAttrGetListElement(attr, field, i));
  return result;
}

/// The integer list `field` of `attr` (see mlirSdyAttrGetIntListSize).
std::vector<int64_t> intList(MlirAttribute attr, int field = 0) {
  std::vector<int64_t> result;
  for (intptr_t i = 0, e = mlirSdyAttrGetIntListSize(attr, field); i < e; ++i)
    result.push_back(mlirSdyAttrGetIntListElement(attr, field, i));
  return result;
}

/// Casts `item` to an attribute for which `isA` holds, or raises TypeError.
MlirAttribute expectAttr(nb::handle item, bool (*isA)(MlirAttribute),
                         const char *what) {
  MlirAttribute attr;
  if (!nb::try_cast<MlirAttribute>(item, attr) || !isA(attr))
    throw nb::type_error((std::string("expected ") + what).c_str());
  return attr;
}

/// An axis ref from an AxisRefAttr or a name.
MlirAttribute axisRefFrom(nb::handle item, MlirContext ctx) {
  if (nb::isinstance<nb::str>(item)) {
    std::string name = nb::cast<std::string>(item);
    return mlirSdyAxisRefAttrGet(ctx, toStringRef(name), MlirAttribute{});
  }
  return expectAttr(item, mlirAttributeIsASdyAxisRefAttr,
                    "an axis name or AxisRefAttr");
}

std::vector<MlirAttribute> axisRefsFrom(nb::handle items, MlirContext ctx) {
  rejectString(items, "axes");
  std::vector<MlirAttribute> result;
  for (nb::handle item : items)
    result.push_back(axisRefFrom(item, ctx));
  return result;
}

/// A closed dimension sharding from a list of axes, or a
/// DimensionShardingAttr as is.
MlirAttribute dimShardingFrom(nb::handle item, MlirContext ctx) {
  MlirAttribute attr;
  if (nb::try_cast<MlirAttribute>(item, attr)) {
    if (!mlirAttributeIsASdyDimensionShardingAttr(attr))
      throw nb::type_error("expected a DimensionShardingAttr or axes");
    return attr;
  }
  std::vector<MlirAttribute> axes = axisRefsFrom(item, ctx);
  return mlirSdyDimensionShardingAttrGet(ctx, axes.size(), axes.data(),
                                         /*isClosed=*/true,
                                         /*hasPriority=*/false, 0);
}

/// Attributes of one kind from a list.
std::vector<MlirAttribute> attrsFrom(nb::handle items,
                                     bool (*isA)(MlirAttribute),
                                     const char *what) {
  std::vector<MlirAttribute> result;
  for (nb::handle item : items)
    result.push_back(expectAttr(item, isA, what));
  return result;
}

/// A mesh reference from a symbol name, a FlatSymbolRefAttr or a MeshAttr.
MlirAttribute meshOrRefFrom(nb::handle item, MlirContext ctx) {
  if (nb::isinstance<nb::str>(item)) {
    std::string name = nb::cast<std::string>(item);
    return mlirFlatSymbolRefAttrGet(ctx, toStringRef(name));
  }
  MlirAttribute attr;
  if (nb::try_cast<MlirAttribute>(item, attr) &&
      (mlirAttributeIsASdyMeshAttr(attr) ||
       mlirAttributeIsAFlatSymbolRef(attr)))
    return attr;
  throw nb::type_error("expected a mesh name, FlatSymbolRefAttr or MeshAttr");
}

/// A dim mapping from a DimMappingAttr or a list of factor indices.
MlirAttribute dimMappingFrom(nb::handle item, MlirContext ctx) {
  MlirAttribute attr;
  if (nb::try_cast<MlirAttribute>(item, attr)) {
    if (!mlirAttributeIsASdyDimMappingAttr(attr))
      throw nb::type_error("expected a DimMappingAttr or factor indices");
    return attr;
  }
  auto factors = nb::cast<std::vector<int64_t>>(item);
  return mlirSdyDimMappingAttrGet(ctx, factors.size(), factors.data());
}

/// A tensor mapping from a TensorMappingAttr or a list of dim mappings.
MlirAttribute tensorMappingFrom(nb::handle item, MlirContext ctx) {
  MlirAttribute attr;
  if (nb::try_cast<MlirAttribute>(item, attr)) {
    if (!mlirAttributeIsASdyTensorMappingAttr(attr))
      throw nb::type_error("expected a TensorMappingAttr or dim mappings");
    return attr;
  }
  std::vector<MlirAttribute> dims;
  for (nb::handle dim : item)
    dims.push_back(dimMappingFrom(dim, ctx));
  return mlirSdyTensorMappingAttrGet(ctx, dims.size(), dims.data());
}

/// An edge value ref from an EdgeValueRefAttr or a (kind, index) pair.
MlirAttribute edgeRefFrom(nb::handle item, MlirContext ctx) {
  MlirAttribute attr;
  if (nb::try_cast<MlirAttribute>(item, attr)) {
    if (!mlirAttributeIsASdyEdgeValueRefAttr(attr))
      throw nb::type_error("expected an EdgeValueRefAttr");
    return attr;
  }
  auto [kind, index] = nb::cast<std::pair<std::string, int64_t>>(item);
  if (kind != "operand" && kind != "result")
    throw nb::value_error("edge kind must be 'operand' or 'result'");
  return mlirSdyEdgeValueRefAttrGet(ctx, kind == "result" ? 1 : 0, index);
}

// One binding function per class, in the order populateSdyAttributes adds
// them.

#define SDY_CLASS(NAME)                                                        \
  mlir_attribute_subclass(m, #NAME, mlirAttributeIsASdy##NAME,                 \
                          mlirSdy##NAME##GetTypeID)
#define CTX nb::arg("context").none() = nb::none()

/// `#sdy.mesh_axis<"name"=size>`.
void bindMeshAxisAttr(nb::module_ &m) {
  mlir_attribute_subclass(m, "MeshAxisAttr", mlirAttributeIsASdyMeshAxisAttr,
                          mlirSdyMeshAxisAttrGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::string &name, int64_t size,
             MlirContext ctx) {
            return cls(mlirSdyMeshAxisAttrGet(ctx, toStringRef(name), size));
          },
          nb::arg("cls"), nb::arg("name"), nb::arg("size"),
          nb::arg("context").none() = nb::none(),
          "Builds `#sdy.mesh_axis<\"name\"=size>`. The name and size are "
          "checked when the axis is put in a MeshAttr.")
      .def_property_readonly("name",
                             [](MlirAttribute self) {
                               return toString(
                                   mlirSdyMeshAxisAttrGetName(self));
                             })
      .def_property_readonly("size", [](MlirAttribute self) {
        return mlirSdyMeshAxisAttrGetSize(self);
      });
}

/// `#sdy.mesh<[...], device_ids=[...]>`.
void bindMeshAttr(nb::module_ &m) {
  mlir_attribute_subclass(m, "MeshAttr", mlirAttributeIsASdyMeshAttr,
                          mlirSdyMeshAttrGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle axes,
             std::optional<std::vector<int64_t>> deviceIds, MlirContext ctx) {
            DiagnosticCapture capture(ctx);
            std::vector<MlirAttribute> meshAxes =
                meshAxesFrom(axes, ctx);
            std::vector<int64_t> ids = deviceIds.value_or(std::vector<int64_t>{});
            return cls(capture.check(
                mlirSdyMeshAttrGet(ctx, meshAxes.size(), meshAxes.data(),
                                   ids.size(), ids.data()),
                "mesh"));
          },
          nb::arg("cls"), nb::arg("axes"),
          nb::arg("device_ids").none() = nb::none(),
          nb::arg("context").none() = nb::none(),
          "Builds `#sdy.mesh<[...], device_ids=[...]>` from a dict or list of "
          "(name, size) pairs or MeshAxisAttr values; raises ValueError when "
          "a constraint of the mesh is violated.")
      .def_property_readonly(
          "axes",
          [](MlirAttribute self) {
            std::vector<MlirAttribute> axes;
            for (intptr_t i = 0, e = mlirSdyMeshAttrGetNumAxes(self); i < e; ++i)
              axes.push_back(mlirSdyMeshAttrGetAxis(self, i));
            return axes;
          })
      .def_property_readonly(
          "device_ids",
          [](MlirAttribute self) {
            std::vector<int64_t> ids;
            for (intptr_t i = 0, e = mlirSdyMeshAttrGetNumDeviceIds(self);
                 i < e; ++i)
              ids.push_back(mlirSdyMeshAttrGetDeviceId(self, i));
            return ids;
          })
      .def_property_readonly("axis_sizes", [](MlirAttribute self) {
        std::vector<std::pair<std::string, int64_t>> sizes;
        for (intptr_t i = 0, e = mlirSdyMeshAttrGetNumAxes(self); i < e; ++i) {
          MlirAttribute axis = mlirSdyMeshAttrGetAxis(self, i);
          sizes.emplace_back(toString(mlirSdyMeshAxisAttrGetName(axis)),
                             mlirSdyMeshAxisAttrGetSize(axis));
        }
        return sizes;
      });
}

/// The sub-axis info `(pre_size)size`.
void bindSubAxisInfoAttr(nb::module_ &m) {
  SDY_CLASS(SubAxisInfoAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, int64_t preSize, int64_t size, MlirContext ctx) {
            return cls(mlirSdySubAxisInfoAttrGet(ctx, preSize, size));
          },
          nb::arg("cls"), nb::arg("pre_size"), nb::arg("size"), CTX,
          "Builds the sub-axis info `(pre_size)size`.")
      .def_property_readonly("pre_size", mlirSdySubAxisInfoAttrGetPreSize)
      .def_property_readonly("size", mlirSdySubAxisInfoAttrGetSize);
}

/// An axis or sub-axis, `"a"` or `"a":(1)2`.
void bindAxisRefAttr(nb::module_ &m) {
  SDY_CLASS(AxisRefAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::string &name,
             std::optional<std::pair<int64_t, int64_t>> subAxis,
             MlirContext ctx) {
            MlirAttribute info{};
            if (subAxis)
              info = mlirSdySubAxisInfoAttrGet(ctx, subAxis->first,
                                               subAxis->second);
            return cls(mlirSdyAxisRefAttrGet(ctx, toStringRef(name), info));
          },
          nb::arg("cls"), nb::arg("name"),
          nb::arg("sub_axis_info").none() = nb::none(), CTX,
          "Builds `\"name\"` or, with sub_axis_info=(pre_size, size), the "
          "sub-axis `\"name\":(pre_size)size`.")
      .def_property_readonly("name",
                             [](MlirAttribute self) {
                               return toString(mlirSdyAxisRefAttrGetName(self));
                             })
      .def_property_readonly(
          "sub_axis_info", [](MlirAttribute self) -> std::optional<MlirAttribute> {
            MlirAttribute info = mlirSdyAxisRefAttrGetSubAxisInfo(self);
            if (mlirAttributeIsNull(info))
              return std::nullopt;
            return info;
          });
}

/// A list of axes `{"a", "b"}`.
void bindAxisRefListAttr(nb::module_ &m) {
  SDY_CLASS(AxisRefListAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle axes, MlirContext ctx) {
            std::vector<MlirAttribute> refs = axisRefsFrom(axes, ctx);
            return cls(mlirSdyAxisRefListAttrGet(ctx, refs.size(), refs.data()));
          },
          nb::arg("cls"), nb::arg("axes"), CTX,
          "Builds `{...}` from axis names or AxisRefAttr values.")
      .def_property_readonly("value",
                             [](MlirAttribute self) { return attrList(self); });
}

/// A list of axis lists `[{"a"}, {}]`.
void bindListOfAxisRefListsAttr(nb::module_ &m) {
  SDY_CLASS(ListOfAxisRefListsAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle lists, MlirContext ctx) {
            std::vector<MlirAttribute> result;
            for (nb::handle list : lists) {
              MlirAttribute attr;
              if (nb::try_cast<MlirAttribute>(list, attr) &&
                  mlirAttributeIsASdyAxisRefListAttr(attr)) {
                result.push_back(attr);
                continue;
              }
              std::vector<MlirAttribute> refs = axisRefsFrom(list, ctx);
              result.push_back(
                  mlirSdyAxisRefListAttrGet(ctx, refs.size(), refs.data()));
            }
            return cls(mlirSdyListOfAxisRefListsAttrGet(ctx, result.size(),
                                                        result.data()));
          },
          nb::arg("cls"), nb::arg("lists"), CTX,
          "Builds `[{...}, ...]` from lists of axes or AxisRefListAttr.")
      .def_property_readonly("value",
                             [](MlirAttribute self) { return attrList(self); });
}

/// The sharding of one dimension, `{"a", ?}p1`.
void bindDimensionShardingAttr(nb::module_ &m) {
  SDY_CLASS(DimensionShardingAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle axes, bool isClosed,
             std::optional<int64_t> priority, MlirContext ctx) {
            std::vector<MlirAttribute> refs = axisRefsFrom(axes, ctx);
            return cls(mlirSdyDimensionShardingAttrGet(
                ctx, refs.size(), refs.data(), isClosed, priority.has_value(),
                priority.value_or(0)));
          },
          nb::arg("cls"), nb::arg("axes"), nb::arg("is_closed") = true,
          nb::arg("priority").none() = nb::none(), CTX,
          "Builds `{\"a\", ...}` (closed), `{\"a\", ?}` (open) with an "
          "optional priority `pN`.")
      .def_property_readonly("axes",
                             [](MlirAttribute self) { return attrList(self); })
      .def_property_readonly("is_closed",
                             mlirSdyDimensionShardingAttrGetIsClosed)
      .def_property_readonly(
          "priority", [](MlirAttribute self) -> std::optional<int64_t> {
            if (!mlirSdyDimensionShardingAttrHasPriority(self))
              return std::nullopt;
            return mlirSdyDimensionShardingAttrGetPriority(self);
          });
}

/// `#sdy.sharding<@mesh, [...], replicated=..., unreduced=...>`.
void bindTensorShardingAttr(nb::module_ &m) {
  SDY_CLASS(TensorShardingAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle meshOrRef, nb::handle dims,
             nb::handle replicated, nb::handle unreduced, MlirContext ctx) {
            DiagnosticCapture capture(ctx);
            MlirAttribute mesh = meshOrRefFrom(meshOrRef, ctx);
            rejectString(dims, "dimension_shardings");
            std::vector<MlirAttribute> dimAttrs;
            for (nb::handle dim : dims)
              dimAttrs.push_back(dimShardingFrom(dim, ctx));
            std::vector<MlirAttribute> rep = axisRefsFrom(replicated, ctx);
            std::vector<MlirAttribute> unred = axisRefsFrom(unreduced, ctx);
            return cls(capture.check(
                mlirSdyTensorShardingAttrGet(ctx, mesh, dimAttrs.size(),
                                             dimAttrs.data(), rep.size(),
                                             rep.data(), unred.size(),
                                             unred.data()),
                "sharding"));
          },
          nb::arg("cls"), nb::arg("mesh_or_ref"),
          nb::arg("dimension_shardings"), nb::arg("replicated") = nb::tuple(),
          nb::arg("unreduced") = nb::tuple(), CTX,
          "Builds `#sdy.sharding<@mesh, [...], replicated={...}, "
          "unreduced={...}>`. mesh_or_ref is a mesh symbol name, a "
          "FlatSymbolRefAttr or a MeshAttr; each dimension is a list of axes "
          "(closed) or a DimensionShardingAttr.")
      .def_property_readonly("mesh_or_ref",
                             mlirSdyTensorShardingAttrGetMeshOrRef)
      .def_property_readonly(
          "dimension_shardings",
          [](MlirAttribute self) { return attrList(self, 0); })
      .def_property_readonly("replicated_axes",
                             [](MlirAttribute self) { return attrList(self, 1); })
      .def_property_readonly("unreduced_axes", [](MlirAttribute self) {
        return attrList(self, 2);
      });
}

/// `#sdy.sharding_per_value<[...]>`.
void bindTensorShardingPerValueAttr(nb::module_ &m) {
  SDY_CLASS(TensorShardingPerValueAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle shardings, MlirContext ctx) {
            std::vector<MlirAttribute> list =
                attrsFrom(shardings, mlirAttributeIsASdyTensorShardingAttr,
                          "TensorShardingAttr values");
            return cls(mlirSdyTensorShardingPerValueAttrGet(ctx, list.size(),
                                                            list.data()));
          },
          nb::arg("cls"), nb::arg("shardings"), CTX,
          "Builds `#sdy.sharding_per_value<[...]>`.")
      .def_property_readonly("shardings",
                             [](MlirAttribute self) { return attrList(self); });
}

/// The manual axes of a manual computation.
void bindManualAxesAttr(nb::module_ &m) {
  SDY_CLASS(ManualAxesAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, std::vector<std::string> names, MlirContext ctx) {
            std::vector<MlirStringRef> refs;
            for (const std::string &name : names)
              refs.push_back(toStringRef(name));
            return cls(mlirSdyManualAxesAttrGet(ctx, refs.size(), refs.data()));
          },
          nb::arg("cls"), nb::arg("names"), CTX,
          "Builds the manual axes `{\"a\", ...}`.")
      .def_property_readonly("value", [](MlirAttribute self) {
        std::vector<std::string> names;
        for (MlirAttribute name : attrList(self))
          names.push_back(toString(mlirStringAttrGetValue(name)));
        return names;
      });
}

/// The factors of one dimension in a sharding rule.
void bindDimMappingAttr(nb::module_ &m) {
  SDY_CLASS(DimMappingAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, std::vector<int64_t> factors, MlirContext ctx) {
            return cls(
                mlirSdyDimMappingAttrGet(ctx, factors.size(), factors.data()));
          },
          nb::arg("cls"), nb::arg("factor_indices"), CTX,
          "Builds a dim mapping; [] is the null mapping `*`.")
      .def_property_readonly("factor_indices",
                             [](MlirAttribute self) { return intList(self); });
}

/// The dim mappings of one tensor in a sharding rule.
void bindTensorMappingAttr(nb::module_ &m) {
  SDY_CLASS(TensorMappingAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle dims, MlirContext ctx) {
            return cls(tensorMappingFrom(dims, ctx));
          },
          nb::arg("cls"), nb::arg("dim_mappings"), CTX,
          "Builds `[ij, *, k]` from DimMappingAttr values or lists of "
          "factor indices.")
      .def_property_readonly("dim_mappings",
                             [](MlirAttribute self) { return attrList(self); });
}

/// `#sdy.op_sharding_rule<...>`.
void bindOpShardingRuleAttr(nb::module_ &m) {
  SDY_CLASS(OpShardingRuleAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, std::vector<int64_t> factorSizes,
             nb::handle operandMappings, nb::handle resultMappings,
             std::vector<int64_t> reduction, std::vector<int64_t> needRepl,
             std::vector<int64_t> permutation, std::vector<int64_t> blocked,
             bool isCustom, MlirContext ctx) {
            DiagnosticCapture capture(ctx);
            std::vector<MlirAttribute> operands, results;
            for (nb::handle mapping : operandMappings)
              operands.push_back(tensorMappingFrom(mapping, ctx));
            for (nb::handle mapping : resultMappings)
              results.push_back(tensorMappingFrom(mapping, ctx));
            return cls(capture.check(
                mlirSdyOpShardingRuleAttrGet(
                    ctx, factorSizes.size(), factorSizes.data(),
                    operands.size(), operands.data(), results.size(),
                    results.data(), reduction.size(), reduction.data(),
                    needRepl.size(), needRepl.data(), permutation.size(),
                    permutation.data(), blocked.size(), blocked.data(),
                    isCustom),
                "sharding rule"));
          },
          nb::arg("cls"), nb::arg("factor_sizes"), nb::arg("operand_mappings"),
          nb::arg("result_mappings"),
          nb::arg("reduction_factors") = std::vector<int64_t>{},
          nb::arg("need_replication_factors") = std::vector<int64_t>{},
          nb::arg("permutation_factors") = std::vector<int64_t>{},
          nb::arg("blocked_propagation_factors") = std::vector<int64_t>{},
          nb::arg("is_custom") = false, CTX,
          "Builds `#sdy.op_sharding_rule<(...)->(...) {i=.., ...} ...>`; "
          "raises ValueError when a constraint of the rule is violated.")
      .def_property_readonly("factor_sizes",
                             [](MlirAttribute self) { return intList(self, 0); })
      .def_property_readonly("operand_mappings",
                             [](MlirAttribute self) { return attrList(self, 0); })
      .def_property_readonly("result_mappings",
                             [](MlirAttribute self) { return attrList(self, 1); })
      .def_property_readonly("reduction_factors",
                             [](MlirAttribute self) { return intList(self, 1); })
      .def_property_readonly("need_replication_factors",
                             [](MlirAttribute self) { return intList(self, 2); })
      .def_property_readonly("permutation_factors",
                             [](MlirAttribute self) { return intList(self, 3); })
      .def_property_readonly("blocked_propagation_factors",
                             [](MlirAttribute self) { return intList(self, 4); })
      .def_property_readonly("is_custom", mlirSdyOpShardingRuleAttrIsCustom);
}

/// One axis move of an all_to_all, `{"a"}: 0->1`.
void bindAllToAllParamAttr(nb::module_ &m) {
  SDY_CLASS(AllToAllParamAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle axes, int64_t src, int64_t tgt,
             MlirContext ctx) {
            std::vector<MlirAttribute> refs = axisRefsFrom(axes, ctx);
            return cls(mlirSdyAllToAllParamAttrGet(ctx, refs.size(),
                                                   refs.data(), src, tgt));
          },
          nb::arg("cls"), nb::arg("axes"), nb::arg("src_dim"),
          nb::arg("tgt_dim"), CTX, "Builds `{\"a\"}: src->tgt`.")
      .def_property_readonly("axes",
                             [](MlirAttribute self) { return attrList(self); })
      .def_property_readonly("src_dim", mlirSdyAllToAllParamAttrGetSrcDim)
      .def_property_readonly("tgt_dim", mlirSdyAllToAllParamAttrGetTgtDim);
}

/// The moves of an all_to_all.
void bindAllToAllParamListAttr(nb::module_ &m) {
  SDY_CLASS(AllToAllParamListAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle params, MlirContext ctx) {
            std::vector<MlirAttribute> list =
                attrsFrom(params, mlirAttributeIsASdyAllToAllParamAttr,
                          "AllToAllParamAttr values");
            return cls(mlirSdyAllToAllParamListAttrGet(ctx, list.size(),
                                                       list.data()));
          },
          nb::arg("cls"), nb::arg("params"), CTX,
          "Builds `[{\"b\"}: 0->2, ...]`.")
      .def_property_readonly("value",
                             [](MlirAttribute self) { return attrList(self); });
}

/// `operand-N` or `result-N` in propagation debug info.
void bindEdgeValueRefAttr(nb::module_ &m) {
  SDY_CLASS(EdgeValueRefAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::string &kind, int64_t index,
             MlirContext ctx) {
            return cls(edgeRefFrom(nb::make_tuple(kind, index), ctx));
          },
          nb::arg("cls"), nb::arg("node_type"), nb::arg("index"), CTX,
          "Builds `operand-N` or `result-N` (node_type is 'operand' or "
          "'result').")
      // `type` is the attribute's MLIR type (ir.Attribute.type).
      .def_property_readonly("node_type",
                             [](MlirAttribute self) {
                               return std::string(
                                   mlirSdyEdgeValueRefAttrGetType(self) == 1
                                       ? "result"
                                       : "operand");
                             })
      .def_property_readonly("index", mlirSdyEdgeValueRefAttrGetIndex);
}

/// Where an axis propagated from and to.
void bindAxisToPropagationDetailsAttr(nb::module_ &m) {
  SDY_CLASS(AxisToPropagationDetailsAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle axis, nb::handle source,
             nb::handle targets, MlirContext ctx) {
            std::vector<MlirAttribute> refs;
            for (nb::handle target : targets)
              refs.push_back(edgeRefFrom(target, ctx));
            return cls(mlirSdyAxisToPropagationDetailsAttrGet(
                ctx, axisRefFrom(axis, ctx), edgeRefFrom(source, ctx),
                refs.size(), refs.data()));
          },
          nb::arg("cls"), nb::arg("axis_name"), nb::arg("source"),
          nb::arg("targets"), CTX,
          "Builds `{\"a\" = operand-0 -> [result-0]}`; edge refs are "
          "EdgeValueRefAttr values or (type, index) pairs.")
      .def_property_readonly("axis_name",
                             mlirSdyAxisToPropagationDetailsAttrGetAxis)
      .def_property_readonly("source",
                             mlirSdyAxisToPropagationDetailsAttrGetSource)
      .def_property_readonly("targets",
                             [](MlirAttribute self) { return attrList(self); });
}

/// The axes one propagation step moved.
void bindPropagationOneStepAttr(nb::module_ &m) {
  SDY_CLASS(PropagationOneStepAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, int64_t step, nb::handle entries,
             MlirContext ctx) {
            std::vector<MlirAttribute> list = attrsFrom(
                entries, mlirAttributeIsASdyAxisToPropagationDetailsAttr,
                "AxisToPropagationDetailsAttr values");
            return cls(mlirSdyPropagationOneStepAttrGet(ctx, step, list.size(),
                                                        list.data()));
          },
          nb::arg("cls"), nb::arg("step_index"), nb::arg("axis_entries"), CTX,
          "Builds `{step-N = [...]}`.")
      .def_property_readonly("step_index",
                             mlirSdyPropagationOneStepAttrGetStepIndex)
      .def_property_readonly("axis_entries",
                             [](MlirAttribute self) { return attrList(self); });
}

/// `#sdy.propagation_edges<[...]>`.
void bindPropagationEdgesAttr(nb::module_ &m) {
  SDY_CLASS(PropagationEdgesAttr)
      .def_classmethod(
          "get",
          [](nb::object cls, nb::handle steps, MlirContext ctx) {
            std::vector<MlirAttribute> list =
                attrsFrom(steps, mlirAttributeIsASdyPropagationOneStepAttr,
                          "PropagationOneStepAttr values");
            return cls(mlirSdyPropagationEdgesAttrGet(ctx, list.size(),
                                                      list.data()));
          },
          nb::arg("cls"), nb::arg("steps"), CTX,
          "Builds `#sdy.propagation_edges<[...]>`.")
      .def_property_readonly("value",
                             [](MlirAttribute self) { return attrList(self); });
}

#undef CTX
#undef SDY_CLASS

/// Where a value's sharding lives, and data flow edges.
void bindValueQueries(nb::module_ &m) {
  auto optionalValue = [](MlirValue value) -> std::optional<MlirValue> {
    if (mlirValueIsNull(value))
      return std::nullopt;
    return value;
  };
  m.def(
      "get_sharding",
      [](MlirValue value) -> std::optional<MlirAttribute> {
        MlirAttribute sharding = mlirSdyValueGetSharding(value);
        if (mlirAttributeIsNull(sharding))
          return std::nullopt;
        return sharding;
      },
      nb::arg("value"),
      "The TensorShardingAttr of `value` (from `sdy.sharding`, an sdy op, a "
      "region op's in/out shardings or a function argument), or None.");
  m.def("is_shardable_data_flow_op", mlirSdyOpIsShardableDataFlowOp,
        nb::arg("op"),
        "Whether `op` implements ShardableDataFlowOpInterface.");
  m.def(
      "edge_owner_from_target",
      [=](MlirOperation op, MlirValue target) {
        return optionalValue(mlirSdyDataFlowEdgeOwnerFromTarget(op, target));
      },
      nb::arg("op"), nb::arg("target"),
      "The owner of the data flow edge of `op` that `target` belongs to.");
  m.def(
      "edge_owner_from_source",
      [=](MlirOperation op, MlirOperation user, intptr_t operandNumber) {
        return optionalValue(
            mlirSdyDataFlowEdgeOwnerFromSource(op, user, operandNumber));
      },
      nb::arg("op"), nb::arg("user"), nb::arg("operand_number"),
      "The owner of the edge that operand `operand_number` of `user` is a "
      "source of.");
  m.def(
      "edge_sources",
      [](MlirOperation op, MlirValue owner) {
        std::vector<MlirValue> sources;
        for (intptr_t i = 0, e = mlirSdyDataFlowEdgeNumSources(op, owner);
             i < e; ++i)
          sources.push_back(mlirSdyDataFlowEdgeGetSource(op, owner, i));
        return sources;
      },
      nb::arg("op"), nb::arg("owner"),
      "The values flowing into the data flow edge owned by `owner`.");
}

} // namespace

void populateSdyAttributes(nb::module_ &m) {
  // Meshes.
  bindMeshAxisAttr(m);
  bindMeshAttr(m);
  // Axis references.
  bindSubAxisInfoAttr(m);
  bindAxisRefAttr(m);
  bindAxisRefListAttr(m);
  bindListOfAxisRefListsAttr(m);
  // Shardings.
  bindDimensionShardingAttr(m);
  bindTensorShardingAttr(m);
  bindTensorShardingPerValueAttr(m);
  bindManualAxesAttr(m);
  // Sharding rules.
  bindDimMappingAttr(m);
  bindTensorMappingAttr(m);
  bindOpShardingRuleAttr(m);
  // Collectives.
  bindAllToAllParamAttr(m);
  bindAllToAllParamListAttr(m);
  // Propagation debug info.
  bindEdgeValueRefAttr(m);
  bindAxisToPropagationDetailsAttr(m);
  bindPropagationOneStepAttr(m);
  bindPropagationEdgesAttr(m);
  // Functions: the shardings and edges of values (the axis algebra is
  // `_meshsdy.axes`, AxesBindings.cpp).
  bindValueQueries(m);
}

} // namespace meshsdy::python
