// RUN: mesh-opt %s -split-input-file -verify-diagnostics

func.func @operand_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'arith.addf' op sharding rule has 1 operand mappings but the op has 2 operands}}
  %0 = arith.addf %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @result_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'math.tanh' op sharding rule has 2 result mappings but the op has 1 results}}
  %0 = math.tanh %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i], [i]) {i=8}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @rank(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'math.tanh' op sharding rule operand 0 - mapping rank doesn't match tensor rank: 2 != 1}}
  %0 = math.tanh %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=8, j=1}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @wrong_kind(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'math.tanh' op 'sdy.sharding_rule' must be a #sdy.op_sharding_rule, got unit}}
  %0 = math.tanh %arg0 {sdy.sharding_rule} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{a sharding rule needs at least one operand or result mapping}}
func.func @no_mappings() attributes {rule = #sdy.op_sharding_rule<()->() {}>} {
  return
}

// -----

// expected-error @+1 {{operand 0 dim 0 - factor index 1 is out of range [0, 1)}}
func.func @factor_without_size() attributes {rule = #sdy.op_sharding_rule<([j])->([i]) {i=8}>} {
  return
}

// -----

// expected-error @+1 {{operand 0 dim 0 - compound mapping 'ij' has factor 'j' of size 1}}
func.func @compound_with_size_one() attributes {rule = #sdy.op_sharding_rule<([ij])->([ij]) {i=8, j=1}>} {
  return
}

// -----

// expected-error @+1 {{operand 0 - factor 'i' is mapped to dims 0 and 0}}
func.func @duplicate_factor_in_dim() attributes {rule = #sdy.op_sharding_rule<([ii])->([i]) {i=8}>} {
  return
}

// -----

// expected-error @+1 {{result 0 - factor 'i' is mapped to dims 0 and 1}}
func.func @duplicate_factor_across_dims() attributes {rule = #sdy.op_sharding_rule<([i, j])->([i, i]) {i=8, j=8}>} {
  return
}

// -----

// expected-error @+1 {{reduction factor index 2 is out of range [0, 2)}}
func.func @reduction_out_of_range() attributes {rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8} reduction={k}>} {
  return
}

// -----

// expected-error @+1 {{duplicate need_replication factor 'j'}}
func.func @duplicate_in_group() attributes {rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8} need_replication={j, j}>} {
  return
}

// -----

// expected-error @+1 {{factor 'j' is both reduction and permutation}}
func.func @factor_in_two_groups() attributes {rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8} reduction={j} permutation={j}>} {
  return
}

// -----

// expected-error @+1 {{blocked_propagation factor index 18 is out of range [0, 2)}}
func.func @blocked_out_of_range() attributes {rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8} blocked_propagation={z_1}>} {
  return
}

// -----

// expected-error @+1 {{factor 'i' has a negative size -2}}
func.func @negative_size() attributes {rule = #sdy.op_sharding_rule<([i])->([i]) {i=-2}>} {
  return
}

// -----

// Without a size list the rule has no factors, so naming one is out of range.
func.func @factors_without_size_list(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{operand 0 dim 0 - factor index 0 is out of range [0, 0)}}
  %0 = arith.addf %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i])>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
