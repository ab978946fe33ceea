//===- MeshsdyModule.h - shared pieces of the nanobind glue -----*- C++ -*-===//
//
// The extension is one module (`_meshsdy`) built from one file per dialect
// or model; this header holds what they share. C API and NanobindAdaptors only.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_PYTHON_MESHSDYMODULE_H
#define MESHSDY_PYTHON_MESHSDYMODULE_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

#include <string>

namespace meshsdy::python {
namespace nb = nanobind;

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

inline MlirStringRef toStringRef(const std::string &s) {
  return mlirStringRefCreate(s.data(), s.size());
}

inline std::string toString(MlirStringRef s) {
  return std::string(s.data, s.length);
}

/// Adds the mesh dialect's attribute classes to `m` (MeshAttributes.cpp).
void populateMeshAttributes(nb::module_ &m);
/// Adds the sdy dialect's attribute classes to `m` (SdyAttributes.cpp).
void populateSdyAttributes(nb::module_ &m);
/// Adds the mesh device-group arithmetic to `m` (GroupsBindings.cpp).
void populateGroups(nb::module_ &m);
/// Adds the sdy axis algebra on plain values to `m` (AxesBindings.cpp).
void populateAxes(nb::module_ &m);
/// Adds the cost model to `m` (CostBindings.cpp).
void populateCost(nb::module_ &m);
/// Adds `resource_key` and `resource_blob` to `m` (Resources.cpp).
void populateResources(nb::module_ &m);

} // namespace meshsdy::python

#endif // MESHSDY_PYTHON_MESHSDYMODULE_H
