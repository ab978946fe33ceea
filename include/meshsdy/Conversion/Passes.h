//===- Passes.h - conversions between meshsdy dialects ----------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_PASSES_H
#define MESHSDY_CONVERSION_PASSES_H

#include "meshsdy/Conversion/ForwardDeadCopySources/ForwardDeadCopySources.h"
#include "meshsdy/Conversion/FreeAfterLastUse/FreeAfterLastUse.h"
#include "meshsdy/Conversion/FuseElementwise/FuseElementwise.h"
#include "meshsdy/Conversion/MeshToMPI/MeshToMPI.h"
#include "meshsdy/Conversion/SdyToMesh/SdyToMesh.h"
#include "meshsdy/Conversion/ShardMesh/ShardMesh.h"
#include "meshsdy/Conversion/StablehloToMesh/StablehloToMesh.h"
#include "meshsdy/Conversion/StablehloToScf/StablehloToScf.h"
#include "meshsdy/Conversion/WidenI1/WidenI1.h"
#include "meshsdy/Conversion/WriteIntoDeadInputs/WriteIntoDeadInputs.h"

namespace mlir::meshsdy {
#define GEN_PASS_REGISTRATION
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

#endif // MESHSDY_CONVERSION_PASSES_H
