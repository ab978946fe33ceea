// meshsdy-one-pass runs its pipeline as one pass, verified after it (not
// after each pass inside): the output is the passes' own, given as the
// passes of a module or a whole `builtin.module(...)` pipeline.
// RUN: mesh-opt %s -split-input-file -pass-pipeline='builtin.module(canonicalize,cse)' | FileCheck %s
// RUN: mesh-opt %s -split-input-file -pass-pipeline='builtin.module(meshsdy-one-pass{pipeline=builtin.module(canonicalize,cse)})' | FileCheck %s
// RUN: mesh-opt %s -split-input-file -pass-pipeline='builtin.module(meshsdy-one-pass{pipeline=func.func(canonicalize),cse})' | FileCheck %s
//
// The pass manager sees one pass: -mlir-timing lists no pass inside it.
// RUN: mesh-opt %s -split-input-file -mlir-timing -o /dev/null \
// RUN:   -pass-pipeline='builtin.module(meshsdy-one-pass{pipeline=builtin.module(canonicalize,cse)})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TIMING
// TIMING: Parser
// TIMING-NEXT: MeshsdyOnePass
// TIMING-NEXT: Output
//
// A diagnostic of a pass inside reaches the user, and fails the pipeline.
// RUN: mesh-opt %s -split-input-file -verify-diagnostics \
// RUN:   -pass-pipeline='builtin.module(meshsdy-one-pass{pipeline=builtin.module(convert-sdy-to-mesh)})'
//
// Its pipeline must be given, and must parse.
// RUN: not mesh-opt %s -split-input-file -pass-pipeline='builtin.module(meshsdy-one-pass)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY
// EMPTY: meshsdy-one-pass needs its passes: meshsdy-one-pass{pipeline=...}
// RUN: not mesh-opt %s -split-input-file -pass-pipeline='builtin.module(meshsdy-one-pass{pipeline=func.func(no-such-pass)})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: meshsdy-one-pass: cannot parse the pipeline 'func.func(no-such-pass)': MLIR Textual PassPipeline Parser:1:11: error: 'no-such-pass' does not refer to a registered pass or pass pipeline

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[T:.*]] = math.tanh %{{.*}}
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[T]], %[[T]]
// CHECK-NEXT: return %[[S]]
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %x = math.tanh %a : tensor<4xf32>
  %y = math.tanh %a : tensor<4xf32>
  %dead = math.exp %a : tensor<4xf32>
  %s = arith.addf %x, %y : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// CHECK-LABEL: module @refused
module @refused {
  // expected-error @+1 {{'sdy.mesh' op unsupported by convert-sdy-to-mesh: explicit device_ids}}
  sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
}
