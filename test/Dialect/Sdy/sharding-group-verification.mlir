// RUN: mesh-opt %s -split-input-file -verify-diagnostics

func.func @sharding_group_shapes(%arg0: tensor<8xf32>, %arg1: tensor<4xf32>) {
  // expected-note @+1 {{first value of the group}}
  sdy.sharding_group %arg0 group_id=3 : tensor<8xf32>
  // expected-error @+1 {{'sdy.sharding_group' op values in sharding group 3 must have the same shape, got 'tensor<4xf32>' and 'tensor<8xf32>'}}
  sdy.sharding_group %arg1 group_id=3 : tensor<4xf32>
  return
}

// -----

func.func @sharding_group_negative_id(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{'sdy.sharding_group' op group_id must be non-negative, got -1}}
  sdy.sharding_group %arg0 group_id=-1 : tensor<8xf32>
  return
}

// -----

func.func @sharding_group_unranked(%arg0: tensor<*xf32>) {
  // expected-error @+1 {{custom op 'sdy.sharding_group' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  sdy.sharding_group %arg0 group_id=0 : tensor<*xf32>
  return
}
