//===- MeshsdyModule.cpp - nanobind glue for meshsdy ----------------------===//
//
// Only the C API and NanobindAdaptors are used here, so that MLIR objects
// cross into Python as the host bindings' own capsules.
//
//===----------------------------------------------------------------------===//

#include "meshsdy-c/Dialects.h"
#include "meshsdy-c/SdyAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;
using namespace mlir::python::nanobind_adaptors;

namespace {

/// Collects the error diagnostics emitted on a context while alive, so that
/// an attribute builder can turn a rejected construction into a ValueError
/// that carries MLIR's message.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(MlirContext ctx) : ctx(ctx) {
    id = mlirContextAttachDiagnosticHandler(ctx, &handle, this, nullptr);
  }
  ~DiagnosticCapture() { mlirContextDetachDiagnosticHandler(ctx, id); }
  DiagnosticCapture(const DiagnosticCapture &) = delete;
  DiagnosticCapture &operator=(const DiagnosticCapture &) = delete;

  /// Returns `attr`, or raises ValueError with the collected messages.
  MlirAttribute check(MlirAttribute attr, const char *what) const {
    if (!mlirAttributeIsNull(attr))
      return attr;
    std::string msg = std::string("invalid ") + what;
    msg += messages.empty() ? std::string() : ": " + messages;
    throw nb::value_error(msg.c_str());
  }

private:
  static MlirLogicalResult handle(MlirDiagnostic diag, void *userData) {
    auto *self = static_cast<DiagnosticCapture *>(userData);
    if (mlirDiagnosticGetSeverity(diag) != MlirDiagnosticError)
      return mlirLogicalResultFailure(); // Let other handlers see it.
    if (!self->messages.empty())
      self->messages += "; ";
    mlirDiagnosticPrint(
        diag,
        [](MlirStringRef s, void *out) {
          static_cast<std::string *>(out)->append(s.data, s.length);
        },
        &self->messages);
    return mlirLogicalResultSuccess();
  }

  MlirContext ctx;
  MlirDiagnosticHandlerID id;
  std::string messages;
};

MlirStringRef toStringRef(const std::string &s) {
  return mlirStringRefCreate(s.data(), s.size());
}

std::string toString(MlirStringRef s) { return std::string(s.data, s.length); }

/// Accepts `{"a": 2, "b": 4}`, `[("a", 2), ("b", 4)]` or a list of
/// MeshAxisAttr, and returns MeshAxisAttr values.
std::vector<MlirAttribute> meshAxesFrom(nb::handle axes, MlirContext ctx) {
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
    auto [name, size] = nb::cast<std::pair<std::string, int64_t>>(item);
    result.push_back(mlirSdyMeshAxisAttrGet(ctx, toStringRef(name), size));
  }
  return result;
}

void populateSdy(nb::module_ &m) {
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

} // namespace

NB_MODULE(_meshsdy, m) {
  m.doc() = "meshsdy native extension: dialect registration and attributes";

  m.def(
      "register_dialects",
      [](MlirContext ctx, bool load) {
        for (MlirDialectHandle handle :
             {mlirGetDialectHandle__mesh__(), mlirGetDialectHandle__sdy__()}) {
          mlirDialectHandleRegisterDialect(handle, ctx);
          if (load)
            mlirDialectHandleLoadDialect(handle, ctx);
        }
      },
      nb::arg("context").none() = nb::none(), nb::arg("load") = true,
      "Registers (and by default loads) the mesh and sdy dialects in a "
      "context.");
  m.def(
      "insert_dialects",
      [](MlirDialectRegistry registry) {
        mlirMeshsdyRegisterAllDialects(registry);
      },
      nb::arg("registry"),
      "Inserts the mesh and sdy dialects into a DialectRegistry.");
  m.def("register_passes", &mlirMeshsdyRegisterAllPasses,
        "Registers the meshsdy passes with MLIR's global pass registry.");

  nb::module_ sdy = m.def_submodule("sdy", "sdy dialect attributes");
  populateSdy(sdy);
}
