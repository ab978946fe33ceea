// RUN: mesh-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(mesh-module-sharding-propagation,func.func(mesh-spmdization))'

func.func private @self(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' op unsupported by mesh-module-sharding-propagation: a recursive call (the callee's shardings depend on its own callers)}}
  %y = func.call @self(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @ping(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @pong(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func private @pong(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' op unsupported by mesh-module-sharding-propagation: a recursive call (the callee's shardings depend on its own callers)}}
  %y = func.call @ping(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func private @split(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<8xf32>
  return %x_s : tensor<8xf32>
}

func.func @operand_conflict(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = mesh.sharding @mesh_4 split_axes = [[]] : !mesh.sharding
  %a_r = mesh.shard %a to %r annotate_for_users : tensor<8xf32>
  // expected-error @+1 {{'func.call' op operand #0 is annotated for users with a sharding other than that of the callee's argument}}
  %y = func.call @split(%a_r) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func private @split(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<8xf32>
  return %x_s : tensor<8xf32>
}

func.func @result_conflict(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'func.call' op result #0 is annotated with a sharding other than that of the value the callee returns}}
  %y = func.call @split(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %r = mesh.sharding @mesh_4 split_axes = [[]] : !mesh.sharding
  %y_r = mesh.shard %y to %r : tensor<8xf32>
  return %y_r : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op unsupported by mesh-module-sharding-propagation: a function body with several blocks}}
func.func @uses_two_blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^next
^next:
  return %x : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func private @split(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<8xf32>
  return %x_s : tensor<8xf32>
}

// An op without a model runs on whole tensors, but the call in it would
// reach a partitioned callee.
func.func @call_in_replicated_region(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'scf.execute_region' op unsupported by mesh-spmdization: a call with tensor operands or results inside an op that runs on whole tensors}}
  %r = scf.execute_region -> tensor<8xf32> {
    %y = func.call @split(%a) : (tensor<8xf32>) -> tensor<8xf32>
    scf.yield %y : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
