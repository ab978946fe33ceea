//===- mesh-opt.cpp - mlir-opt plus the meshsdy dialects and passes -------===//
//
// Knows every upstream dialect, extension and pass (it is `mlir-opt`) and
// everything meshsdy adds, so upstream passes run on mesh/sdy IR unchanged.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/InitMeshsdy.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::meshsdy::registerAllDialects(registry);

  mlir::registerAllPasses();
  mlir::meshsdy::registerAllPasses();

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "meshsdy optimizer driver (mlir-opt + mesh + sdy)\n",
      registry));
}
