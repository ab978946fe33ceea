// RUN: mesh-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @permute_changes_size(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op out_sharding dim 0 is sharded 4 ways but the operand dim is sharded 2 ways}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"b"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
sdy.mesh @other_axes = <["x"=2, "y"=4]>

func.func @permute_other_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op operand and out_sharding meshes must have the same axes}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@other_axes, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @permute_without_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op collective on operand without sharding}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
sdy.mesh @same_order = <["a"=2, "b"=4]>

func.func @permute_meshes_same_device_order(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op operand and out_sharding are bound to different meshes with the same device order; use one mesh}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@same_order, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
