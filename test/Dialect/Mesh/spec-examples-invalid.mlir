// Seed 000 examples that cannot be accepted exactly as printed in the seed.
// Each case below is the verbatim snippet (plus the mesh it names) and the
// diagnostic it gets; the corrected forms are in ops.mlir.
//
// RUN: mesh-opt %s -split-input-file -verify-diagnostics

// mesh.sharding: `%sharding2` has a stray `split_axes =` inside the array.
mesh.mesh @mesh0(shape = 2x2x4)
func.func @sharding2_typo() {
  // expected-error @+1 {{expected ']'}}
  %sharding2 = mesh.sharding @mesh0 split_axes = [[0] split_axes = []] partial = sum[1] : !mesh.sharding
  return
}

// -----

// mesh.sharding: the examples omit the result type that the syntax requires.
mesh.mesh @mesh0(shape = 2x2x4)
func.func @sharding_without_type() {
  %sharding1 = mesh.sharding @mesh0 split_axes = [[0]]
  // expected-error @-1 {{expected ':'}}
  return
}

// -----

// mesh.shift: the example has no input operand (`mesh.shift on @mesh0`).
mesh.mesh @mesh0(shape = 2x4)
func.func @shift_without_input(%0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{expected SSA operand}}
  %1 = mesh.shift on @mesh0 mesh_axes = [1]
    shift_axis = 1 offset = 2 rotate
    : tensor<2xi8> -> tensor<2xi8>
  return %1 : tensor<2xi8>
}

// -----

// mesh.neighbors_linear_indices: the op has two results, the example lists
// one type.
mesh.mesh @mesh(shape = 10x20x30)
func.func @neighbors_one_type() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'mesh.neighbors_linear_indices' op expected 2 results}}
  %idx = mesh.neighbors_linear_indices on @mesh[%c1, %c2, %c3] split_axes = [1] : index
  return
}

// -----

// mesh.reduce_scatter: on the example's own 2x2 mesh, a group along mesh
// axis 1 has 2 devices, which does not divide tensor axis 0 of size 3.
mesh.mesh @mesh0(shape = 2x2)
func.func @reduce_scatter_example(%0 : tensor<3x4xf32>) -> tensor<1x4xf64> {
  // expected-error @+1 {{'mesh.reduce_scatter' op input dimension 0 size 3 is not divisible by group size 2}}
  %1 = mesh.reduce_scatter %0 on @mesh0 mesh_axes = [1]
    reduction = <max> scatter_axis = 0
    : tensor<3x4xf32> -> tensor<1x4xf64>
  return %1 : tensor<1x4xf64>
}

// -----

// mesh.shard, first undefined usage: `$sharding1` is not an SSA name.
mesh.mesh @mesh0(shape = 2x2)
func.func @annotate_on_same_result_with_different_sharding(
    %arg0 : tensor<4x8xf32>) -> () {
  %sharding1 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %sharding2 = mesh.sharding @mesh0 split_axes = [[1]] : !mesh.sharding
  // expected-error @+1 {{unexpected character}}
  %0 = mesh.shard %arg0 to $sharding1 : tensor<4x8xf32>
  return
}

// -----

// Not from the seed: malformed split_axes.
// split_axes sub-arrays hold mesh axes (i16).
mesh.mesh @mesh0(shape = 2x2)
func.func @split_axes_not_integer() {
  // expected-error @+1 {{expected integer value}}
  %0 = mesh.sharding @mesh0 split_axes = [[0], [x]] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @split_axes_too_large() {
  // expected-error @+1 {{integer value too large}}
  %0 = mesh.sharding @mesh0 split_axes = [[70000]] : !mesh.sharding
  return
}
