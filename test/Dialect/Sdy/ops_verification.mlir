// RUN: mesh-opt %s -split-input-file -verify-diagnostics
// sharding_constraint, reshard, data_flow_edge, propagation_barrier,
// sharding_group and constant.

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @sharding_constraint_rank(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op sharding doesn't match tensor rank: 2 != 1}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reshard_unknown_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reshard' op dim 0 - unknown axis name: "c"}}
  %0 = sdy.reshard %arg0 <@mesh, [{"c"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @reshard_types_differ(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.reshard' op requires the same type for all operands and results}}
  %0 = "sdy.reshard"(%arg0) {sharding = #sdy.sharding<mesh<["a"=2]>, [{}]>} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @data_flow_edge_input_from_sdy_op(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op expected input of sdy.data_flow_edge to not be defined by an SdyDialect op, got 'sdy.propagation_barrier'}}
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

func.func @data_flow_edge_input_with_other_uses(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = math.tanh %arg0 : tensor<8xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op expected input of sdy.data_flow_edge to have a single user}}
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  %2 = arith.addf %0, %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @data_flow_edge_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = math.tanh %arg0 : tensor<8xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op sharding doesn't match tensor rank: 0 != 1}}
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, []> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

func.func @barrier_both(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.propagation_barrier' op allowed_direction can't be BOTH: the barrier would be redundant}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @barrier_unknown_direction(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{custom op 'sdy.propagation_barrier' expected string or keyword containing one of the following enum values for attribute 'allowed_direction' [NONE, FORWARD, BACKWARD, BOTH]}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=SIDEWAYS : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

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

// -----

func.func @constant_not_elements() {
  // expected-error @+1 {{expected a constant vector/tensor attribute, got 1 : i32}}
  %0 = sdy.constant 1 : i32
  return
}

// -----

func.func @constant_vector() {
  // expected-error @+1 {{'sdy.constant' op result #0 must be statically shaped tensor of any type values, but got 'vector<2xf32>'}}
  %0 = sdy.constant dense<1.0> : vector<2xf32>
  return
}

// -----

func.func @constant_generic_missing_value() {
  // expected-error @+1 {{'sdy.constant' op requires attribute 'value'}}
  %0 = "sdy.constant"() : () -> tensor<2xf32>
  return
}
