// RUN: mesh-opt %s -split-input-file -sdy-lift-inlined-meshes -verify-diagnostics

sdy.mesh @mesh = <["a"=2]>

func.func @different_device_count(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'arith.negf' op has an inlined mesh of 4 devices where the module's meshes have 2: it cannot become an sdy.mesh symbol}}
  %0 = arith.negf %x {sdy.sharding = #sdy.sharding_per_value<[<mesh<["b"=4]>, [{"b"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
