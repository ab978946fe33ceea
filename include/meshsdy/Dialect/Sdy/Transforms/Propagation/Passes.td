//===- Passes.td - sdy propagation passes -------------------------*- tablegen -*-===//
//
// The propagation stage of Shardy's pipeline, with Shardy's pass flags.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PASSES_TD
#define MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PASSES_TD
