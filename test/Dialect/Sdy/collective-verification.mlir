// RUN: mesh-opt %s -split-input-file -verify-diagnostics
// Rules shared by all collectives (CollectiveOpInterface::verify and
// verifyCollectiveSymbolUses).

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @operand_without_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op collective on operand without sharding}}
  %0 = sdy.all_gather [{}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @other = <["a"=2, "b"=2]>

func.func @different_meshes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op operand sharding and out_sharding must be bound to the same mesh: @mesh != @other}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@other, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @rank_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op operand sharding and out_sharding have different ranks: 1 != 2}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @out_sharding_invalid(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op out_sharding - sharding doesn't match tensor rank: 1 != 2}}
  %0 = sdy.all_slice [{"a"}] %arg0 out_sharding=<@mesh, [{"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @out_sharding_unknown_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op out_sharding - unknown mesh: @missing}}
  %0 = sdy.all_reduce {} %arg0 out_sharding=<@missing, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
