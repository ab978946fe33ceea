//===- CostBindings.cpp - Python access to meshsdy's cost model ----------===//
//
// `_meshsdy.cost`: the cost model of CostModel.h (bytes a collective sends,
// peak live tensor bytes), for meshsdy.pipeline's SpmdReport and
// meshsdy.explain. C API (meshsdy-c/Cost.h) only.
//
//===----------------------------------------------------------------------===//

#include "MeshsdyModule.h"

#include "meshsdy-c/Cost.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

using namespace mlir::python::nanobind_adaptors;

namespace meshsdy::python {

void populateCost(nb::module_ &m) {
  m.def("is_priced_collective", &mlirMeshCostIsPricedCollective,
        nb::arg("op"),
        "Whether the cost model prices `op` (a mesh collective or "
        "mesh.update_halo).");
  m.def(
      "ring_factor",
      [](const std::string &name, int64_t groupSize) -> std::optional<double> {
        if (groupSize < 1)
          throw nb::value_error(("group size must be positive, got " +
                                 std::to_string(groupSize))
                                    .c_str());
        double factor;
        if (!mlirMeshCostRingFactor(toStringRef(name), groupSize, &factor))
          return std::nullopt;
        return factor;
      },
      nb::arg("name"), nb::arg("group_size"),
      "What one device sends per operand byte in the collective `name` on "
      "`group_size` devices (ring algorithms); None for another op.");
  m.def(
      "collective_bytes_sent",
      [](MlirOperation op, std::optional<std::vector<int64_t>> operandShape)
          -> std::optional<double> {
        double bytes;
        bool sized =
            operandShape
                ? mlirMeshCostCollectiveBytesSent(op, operandShape->size(),
                                                  operandShape->data(), &bytes)
                : mlirMeshCostCollectiveBytesSent(op, 0, nullptr, &bytes);
        if (!sized)
          return std::nullopt;
        return bytes;
      },
      nb::arg("op"), nb::arg("operand_shape").none() = nb::none(),
      "Bytes one device sends in the collective `op`, its first operand of "
      "`operand_shape` (default: its type's); None where a size is unknown.");
  m.def(
      "tensor_bytes",
      [](MlirType type) -> std::optional<int64_t> {
        int64_t bytes = mlirMeshCostTensorBytes(type);
        if (bytes < 0)
          return std::nullopt;
        return bytes;
      },
      nb::arg("type"),
      "Bytes of a statically shaped tensor type; None for another type.");
  m.def(
      "peak_live_tensor_bytes",
      [](MlirOperation op) {
        int64_t peak = mlirMeshCostPeakLiveTensorBytes(op);
        if (peak < 0)
          throw nb::value_error("peak_live_tensor_bytes needs a func.func");
        return peak;
      },
      nb::arg("func"),
      "The per-device peak of live tensor bytes of a func.func.");
}

} // namespace meshsdy::python
