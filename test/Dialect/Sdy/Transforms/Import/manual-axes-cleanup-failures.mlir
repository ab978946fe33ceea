// RUN: mesh-opt %s -split-input-file -sdy-manual-axes-cleanup -verify-diagnostics

sdy.mesh @mesh = <["a"=2]>

func.func @no_inputs_or_outputs() {
  // expected-error @+1 {{'sdy.manual_computation' op has no inputs or outputs but a non-empty body: nothing tells its devices apart}}
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    %c = arith.constant 1.0 : f32
    sdy.return
  } : () -> ()
  return
}
