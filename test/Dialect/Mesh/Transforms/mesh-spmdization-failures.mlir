// RUN: mesh-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization))'

mesh.mesh @mesh_4(shape = 4)

// expected-error @+1 {{'func.func' op unsupported by mesh-spmdization: a function body with several blocks}}
func.func @several_blocks(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8xf32>
  cf.br ^bb1
^bb1:
  return %a_s : tensor<8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A sum of `index` elements: no neutral element is known for the type, so
// an init that may not be one cannot be kept to one device of each group.
func.func @index_sum_init(%a: tensor<8x16xindex>, %c: tensor<8xindex>) -> tensor<8xindex> {
  %s = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x16xindex>
  // expected-error @+1 {{'linalg.reduce' op unsupported by mesh-spmdization: a reduction split over mesh axes with an init that is not its neutral element, for a reduction without a known neutral element of this type}}
  %r = linalg.reduce ins(%a_s : tensor<8x16xindex>) outs(%c : tensor<8xindex>) dimensions = [1]
    (%in: index, %acc: index) {
      %m = arith.addi %in, %acc : index
      linalg.yield %m : index
    }
  return %r : tensor<8xindex>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @sharding_from_argument(%a: tensor<8xf32>, %s: !mesh.sharding) -> tensor<8xf32> {
  // expected-error @+1 {{'mesh.shard' op unsupported by mesh-sharding-propagation: the sharding must be defined by a mesh.sharding op}}
  %a_s = mesh.shard %a to %s : tensor<8xf32>
  return %a_s : tensor<8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func private @split(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<8xf32>
  return %x_s : tensor<8xf32>
}

// The per-function pass cannot see the callee's boundary: it says so,
// rather than leave mesh-spmdization to retype @split without its call.
func.func @call_to_defined_function(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'func.call' op unsupported by mesh-sharding-propagation: a call to @split, a function with a body (the call site and the callee must agree on shardings, which a per-function pass cannot see); run mesh-module-sharding-propagation instead}}
  %y = func.call @split(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

func.func private @neg(%x: tensor<8xf32>) -> tensor<8xf32>

func.func @indirect_call(%a: tensor<8xf32>) -> tensor<8xf32> {
  %f = func.constant @neg : (tensor<8xf32>) -> tensor<8xf32>
  // expected-error @+1 {{'func.call_indirect' op unsupported by mesh-spmdization: an indirect call with tensor operands or results}}
  %y = func.call_indirect %f(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @uneven_with_halos(%a: tensor<6xf32>) -> tensor<6xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<6xf32>
  %h = mesh.sharding @mesh_4 split_axes = [[0]] halo_sizes = [1, 1] : !mesh.sharding
  // expected-error @+1 {{unsupported by mesh-spmdization: halos on shards of different sizes}}
  %a_h = mesh.shard %a_s to %h annotate_for_users : tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %y = linalg.negf ins(%a_h : tensor<6xf32>) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Offsets whose pieces add up to 9 elements describe no 6-element tensor.
// expected-error @+1 {{unsupported: dimension 0 of 'tensor<6xf32>' has no single per-device size under this sharding (uneven split, offsets or dynamic sizes)}}
func.func @offsets_past_the_end(%a: tensor<6xf32>) -> tensor<6xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] sharded_dims_offsets = [0, 1, 2, 3, 9] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<6xf32>
  return %a_s : tensor<6xf32>
}

// -----

mesh.mesh @mesh_4x2(shape = 4x2)

// Pieces of 1, 1, 1 and 3 rows add up to 6, but start at row 1: the offsets
// describe no 6-row tensor.
// expected-error @+1 {{unsupported: dimension 0 of 'tensor<6x3xf32>' has no single per-device size under this sharding (uneven split, offsets or dynamic sizes)}}
func.func @offsets_not_from_zero(%a: tensor<6x3xf32>) -> tensor<6x3xf32> {
  %s = mesh.sharding @mesh_4x2 split_axes = [[0]] sharded_dims_offsets = [1, 2, 3, 4, 7] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<6x3xf32>
  return %a_s : tensor<6x3xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Gathering uneven pieces pads each to the largest; complex numbers have no
// zero constant to pad with.
func.func @uneven_complex(%a: tensor<6xcomplex<f32>>) -> tensor<6xcomplex<f32>> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<6xcomplex<f32>>
  %r = mesh.sharding @mesh_4 split_axes = [[]] : !mesh.sharding
  // expected-error @+1 {{unsupported by mesh-spmdization: padding a tensor of 'complex<f32>', which has no zero constant}}
  %a_r = mesh.shard %a_s to %r annotate_for_users : tensor<6xcomplex<f32>>
  return %a_r : tensor<6xcomplex<f32>>
}

// -----

mesh.mesh @mesh_2x4(shape = 2x4)
mesh.mesh @mesh_8(shape = 8)

// An empty tensor is not resharded, but a move between meshes is still
// unsupported, empty or not.
func.func @empty_between_meshes() -> tensor<8x8xf32> {
  %sa = mesh.sharding @mesh_2x4 split_axes = [[0]] : !mesh.sharding
  %sb = mesh.sharding @mesh_8 split_axes = [[0]] : !mesh.sharding
  %e = tensor.empty() : tensor<8x8xf32>
  %e1 = mesh.shard %e to %sa : tensor<8x8xf32>
  // expected-error @+1 {{unsupported by mesh-spmdization: resharding between meshes}}
  %e2 = mesh.shard %e1 to %sb annotate_for_users : tensor<8x8xf32>
  return %e2 : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A fill is rebuilt in another sharding rather than resharded, but not as a
// partial value: a partial piece is a summand, not the fill's value.
func.func @fill_into_partial(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sx = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %x_s = mesh.shard %x to %sx annotate_for_users : tensor<8x8xf32>
  %sy = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %y_s = mesh.shard %y to %sy annotate_for_users : tensor<8x8xf32>
  %sp = mesh.sharding @mesh_4 split_axes = [[]] partial = sum [0] : !mesh.sharding
  // expected-error @+1 {{unsupported by mesh-spmdization: making a value partial over mesh axis 0}}
  %f_p = mesh.shard %f to %sp annotate_for_users : tensor<8x8xf32>
  %m = linalg.matmul ins(%x_s, %y_s : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f_p : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

// A contraction split on K makes partial sums: an annotation saying max
// would combine them with max (issue 13 item 1).
func.func @partial_sum_annotated_max(%x: tensor<2x4xf32>, %w: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %sx = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %sx : tensor<2x4xf32>
  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %sw : tensor<4x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%xs, %ws : tensor<2x4xf32>, tensor<4x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %sp = mesh.sharding @mesh split_axes = [[]] partial = max [0] : !mesh.sharding
  // expected-error @+1 {{unsupported by mesh-spmdization: a value partial <sum> over mesh axis 0 annotated partial <max>: its partial results are not combined that way}}
  %mp = mesh.shard %m to %sp : tensor<2x2xf32>
  %a = math.absf %mp : tensor<2x2xf32>
  %sr = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %ar = mesh.shard %a to %sr : tensor<2x2xf32>
  return %ar : tensor<2x2xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

// The reverse: a max-reduction annotated as partial sums.
func.func @partial_max_annotated_sum(%a: tensor<2x4xf32>, %c: tensor<2xf32>) -> tensor<2xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<2x4xf32>
  %r = linalg.reduce ins(%a_s : tensor<2x4xf32>) outs(%c : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %sp = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  // expected-error @+1 {{unsupported by mesh-spmdization: a value partial <max> over mesh axis 0 annotated partial <sum>: its partial results are not combined that way}}
  %rp = mesh.shard %r to %sp : tensor<2xf32>
  %n = arith.negf %rp : tensor<2xf32>
  %sr = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %nr = mesh.shard %n to %sr : tensor<2xf32>
  return %nr : tensor<2xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

// Uneven pieces of the source of a collapse (3 rows over 2 devices) cannot
// become even pieces of the result: a diagnostic, not `?x6 -> 9` IR that
// fails verification (issue 13 item 2).
func.func @collapse_uneven_source(%a: tensor<3x6xf32>) -> tensor<18xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<3x6xf32>
  // expected-error @+1 {{unsupported: dimension 0 of 'tensor<3x6xf32>' has no single per-device size under this sharding (uneven split, offsets or dynamic sizes)}}
  %c = tensor.collapse_shape %as [[0, 1]] : tensor<3x6xf32> into tensor<18xf32>
  return %c : tensor<18xf32>
}

// -----

mesh.mesh @mesh(shape = 2x2)

func.func @manual_operand_split_free_first(%a: tensor<16xf32>) -> tensor<16xf32> {
  %full = mesh.sharding @mesh split_axes = [[1, 0]] : !mesh.sharding
  %manual = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %full : tensor<16xf32>
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' op unsupported by mesh-spmdization: a manual region's operand is not split along its manual axes first}}
  %in = builtin.unrealized_conversion_cast %a0, %manual : tensor<16xf32>, !mesh.sharding to tensor<8xf32> {mesh.manual_boundary = "enter"}
  %out = builtin.unrealized_conversion_cast %in, %manual : tensor<8xf32>, !mesh.sharding to tensor<16xf32> {mesh.manual_boundary = "exit"}
  return %out : tensor<16xf32>
}

// -----

mesh.mesh @mesh(shape = 2x2)

func.func @manual_piece_of_the_wrong_size(%a: tensor<16xf32>) -> tensor<16xf32> {
  %manual = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %manual : tensor<16xf32>
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' op unsupported by mesh-spmdization: the per-device pieces of a manual region's boundary are 'tensor<8xf32>', its body expects 'tensor<4xf32>'}}
  %in = builtin.unrealized_conversion_cast %a0, %manual : tensor<16xf32>, !mesh.sharding to tensor<4xf32> {mesh.manual_boundary = "enter"}
  %out = builtin.unrealized_conversion_cast %in, %manual : tensor<4xf32>, !mesh.sharding to tensor<8xf32> {mesh.manual_boundary = "exit"}
  return %a : tensor<16xf32>
}

// -----

mesh.mesh @mesh(shape = 2x2)

func.func @manual_boundary_malformed(%a: tensor<16xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' op malformed manual region boundary: expected a tensor and a mesh.sharding to one tensor, with mesh.manual_boundary = "enter" or "exit"}}
  %in = builtin.unrealized_conversion_cast %a : tensor<16xf32> to tensor<8xf32> {mesh.manual_boundary = "enter"}
  return %in : tensor<8xf32>
}

// -----

mesh.mesh @mesh(shape = 2x2)

func.func @manual_result_split_along_a_manual_axis(%a: tensor<16xf32>) -> tensor<16xf32> {
  %manual = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %manual : tensor<16xf32>
  %in = builtin.unrealized_conversion_cast %a0, %manual : tensor<16xf32>, !mesh.sharding to tensor<8xf32> {mesh.manual_boundary = "enter"}
  %in_s = mesh.shard %in to %manual : tensor<8xf32>
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' op unsupported by mesh-spmdization: a manual region's result is split along a manual axis}}
  %out = builtin.unrealized_conversion_cast %in_s, %manual : tensor<8xf32>, !mesh.sharding to tensor<16xf32> {mesh.manual_boundary = "exit"}
  return %out : tensor<16xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// A user's all_reduce over an axis its operand is split over: the devices
// of a group hold different pieces, which must not be summed.
func.func @all_reduce_over_a_split_axis(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x4xf32>
  // expected-error @+1 {{'mesh.all_reduce' op unsupported by mesh-spmdization: its operand split over mesh axis 0, which it reduces over}}
  %r = mesh.all_reduce %a_s on @mesh_2x2 mesh_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %r_s = mesh.shard %r to %s : tensor<8x4xf32>
  return %r_s : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh_2(shape = 2)

// A split dynamic dimension has no per-device size this pass can give.
// expected-error @+1 {{unsupported: dimension 1 of 'tensor<6x?xf32>' has no single per-device size under this sharding (uneven split, offsets or dynamic sizes)}}
func.func @dynamic_dimension_split(%x: tensor<6x?xf32>) -> tensor<6x?xf32> {
  %s = mesh.sharding @mesh_2 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<6x?xf32>
  %n = arith.negf %xs : tensor<6x?xf32>
  return %n : tensor<6x?xf32>
}
