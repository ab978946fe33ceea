//===- MeshsdyModule.cpp - nanobind glue for meshsdy ----------------------===//
//
// Only the C API and NanobindAdaptors are used here, so that MLIR objects
// cross into Python as the host bindings' own capsules.
//
//===----------------------------------------------------------------------===//

#include "MeshsdyModule.h"

#include "meshsdy-c/Dialects.h"
#include "meshsdy-c/Pipelines.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <utility>
#include <vector>

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
  m.def(
      "pipeline_stages",
      [](const std::string &name, const std::string &options) {
        struct Collected {
          std::vector<std::pair<std::string, std::vector<std::string>>> stages;
          std::string error;
        } collected;
        auto onStage = [](MlirStringRef stage, MlirStringRef pass, void *data) {
          auto &stages = static_cast<Collected *>(data)->stages;
          if (pass.length == 0)
            stages.emplace_back(std::string(stage.data, stage.length),
                                std::vector<std::string>());
          else
            stages.back().second.emplace_back(pass.data, pass.length);
        };
        auto onError = [](MlirStringRef message, void *data) {
          static_cast<Collected *>(data)->error.assign(message.data,
                                                       message.length);
        };
        if (mlirLogicalResultIsFailure(mlirMeshsdyGetPipelineStages(
                mlirStringRefCreate(name.data(), name.size()),
                mlirStringRefCreate(options.data(), options.size()), onStage,
                onError, &collected)))
          throw nb::value_error(collected.error.c_str());
        return collected.stages;
      },
      nb::arg("name"), nb::arg("options") = "",
      "The stages of a meshsdy pipeline (mesh-spmdize-pipeline, "
      "sdy-spmdize-pipeline, sdy-propagation-pipeline) for textual options, "
      "as [(stage, [pass text, ...]), ...]: the pipeline's one definition, in "
      "C++.");

  nb::module_ mesh = m.def_submodule("mesh", "mesh dialect attributes");
  populateMeshAttributes(mesh);
  nb::module_ sdy = m.def_submodule("sdy", "sdy dialect attributes");
  populateSdyAttributes(sdy);
  nb::module_ groups = m.def_submodule(
      "groups", "mesh device-group arithmetic (MeshGroups.h)");
  populateGroups(groups);
  nb::module_ axes = m.def_submodule(
      "axes", "sdy axis algebra on plain values (AxisRefs.h)");
  populateAxes(axes);
  nb::module_ cost =
      m.def_submodule("cost", "the cost model (CostModel.h)");
  populateCost(cost);
  populateResources(m);
}
