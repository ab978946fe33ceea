//===- MeshsdyModule.cpp - nanobind glue for meshsdy ----------------------===//
//
// Only the C API and NanobindAdaptors are used here, so that MLIR objects
// cross into Python as the host bindings' own capsules.
//
//===----------------------------------------------------------------------===//

#include "MeshsdyModule.h"

#include "meshsdy-c/Dialects.h"

using namespace meshsdy::python;

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

  nb::module_ mesh = m.def_submodule("mesh", "mesh dialect attributes");
  populateMeshAttributes(mesh);
  nb::module_ sdy = m.def_submodule("sdy", "sdy dialect attributes");
  populateSdyAttributes(sdy);
  populateResources(m);
}
