// RUN: not mesh-opt %s -split-input-file -allow-unregistered-dialect 2>&1 | FileCheck %s

// The bodies of sdy.named_computation and sdy.manual_computation are name
// scopes of their own (both ops are IsolatedFromAbove): a %1 defined inside
// does not answer a forward reference to %1 outside. When it did, the parse
// error after the body destroyed the inner op while the outer one still
// used it ("operation destroyed but still has uses", an abort).

// CHECK: error: expected 'x' in dimension list
// CHECK-NOT: destroyed
"test.use"(%1) : (tensor<8xf32>) -> ()
func.func @named(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"f">(%arg0) (%a: tensor<8xf32>) {
    %1 = tensor.empty() : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8"x"32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK: error: expected 'x' in dimension list
// CHECK-NOT: destroyed
sdy.mesh @mesh = <["a"=2]>
"test.use"(%1) : (tensor<8xf32>) -> ()
func.func @manual(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    %1 = tensor.empty() : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<16"x"32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A body still sees only its arguments: an outer value is undeclared there.
// CHECK: error: use of undeclared SSA value name
func.func @outer_value(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"f">(%arg0) (%a: tensor<8xf32>) {
    sdy.return %arg0 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
