// RUN: mesh-opt %s -split-input-file -convert-sdy-to-mesh -verify-diagnostics | FileCheck %s

// CHECK-LABEL: module @two_meshes
// CHECK-NEXT: mesh.mesh @mesh_a_2_b_4(shape = 2x4)
// CHECK-NEXT: mesh.mesh @mesh_x_8(shape = 8)
// CHECK-NOT: sdy.
module @two_meshes {
  sdy.mesh @mesh_a_2_b_4 = <["a"=2, "b"=4]>
  sdy.mesh @mesh_x_8 = <["x"=8]>
}

// -----

// CHECK-LABEL: module @no_sdy
// CHECK: mesh.mesh @mesh0(shape = 2)
module @no_sdy {
  mesh.mesh @mesh0(shape = 2)
}

// -----

// A maximal mesh names the one device it runs on, which a mesh.mesh
// cannot say.
module @maximal_mesh {
  // expected-error @+1 {{'sdy.mesh' op unsupported by convert-sdy-to-mesh: explicit device_ids}}
  sdy.mesh @mesh = <[], device_ids=[3]>
}

// -----

// Meshes of one device (no axes, or only axes of size 1) become a mesh of
// shape 1; a size-1 axis shards nothing.
// CHECK-LABEL: module @one_device
// CHECK-NEXT:    mesh.mesh @empty(shape = 1)
// CHECK-NEXT:    mesh.mesh @x_1(shape = 1)
// CHECK:         func.func @f(%{{.*}}: tensor<8xf32>)
// CHECK:           mesh.sharding @x_1 split_axes = [[]] : !mesh.sharding
module @one_device {
  sdy.mesh @empty = <[]>
  sdy.mesh @x_1 = <["x"=1]>
  func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@x_1, [{"x"}]>}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// -----

// CHECK-LABEL: module @size_one_axis
// CHECK-NEXT:    mesh.mesh @x_1_y_2(shape = 2)
// CHECK:           mesh.sharding @x_1_y_2 split_axes = [[0]] : !mesh.sharding
module @size_one_axis {
  sdy.mesh @x_1_y_2 = <["x"=1, "y"=2]>
  func.func @f(%b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@x_1_y_2, [{"x", "y"}]>}) -> tensor<8xf32> {
    return %b : tensor<8xf32>
  }
}

// -----

module @device_order {
  // expected-error @+1 {{'sdy.mesh' op unsupported by convert-sdy-to-mesh: explicit device_ids}}
  sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
}

// -----

module @sdy_attribute_left {
  sdy.mesh @mesh = <["a"=2]>
  // expected-error @+1 {{'func.func' op unsupported by convert-sdy-to-mesh: sdy attribute 'mesh'}}
  func.func @f() attributes {mesh = #sdy.mesh<["x"=4]>} {
    return
  }
}

// -----

// Argument, op and result shardings become mesh.shard annotations; an
// unannotated argument, value or result is replicated, as Shardy reads it.
// CHECK-LABEL: module @shardings
// CHECK: mesh.mesh @mesh(shape = 2x4)
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>, %[[Y:.*]]: tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-DAG: %[[ROWS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-DAG: %[[REP:.*]] = mesh.sharding @mesh split_axes = {{\[\[\]\]}} : !mesh.sharding
// CHECK-DAG: %[[BOTH:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0], [1]] : !mesh.sharding
// CHECK-DAG: %[[XS:.*]] = mesh.shard %[[X]] to %[[ROWS]] : tensor<8x16xf32>
// CHECK-DAG: %[[YS:.*]] = mesh.shard %[[Y]] to %[[REP]] : tensor<8x16xf32>
// CHECK: %[[ADD:.*]] = arith.addf %[[XS]], %[[YS]] : tensor<8x16xf32>
// CHECK: %[[ADDS:.*]] = mesh.shard %[[ADD]] to %[[BOTH]] : tensor<8x16xf32>
// CHECK: %[[EXP:.*]] = math.exp %[[ADDS]] : tensor<8x16xf32>
// CHECK: %[[EXPS:.*]] = mesh.shard %[[EXP]] to %[[REP]] : tensor<8x16xf32>
// CHECK: %[[RES:.*]] = mesh.shard %[[EXPS]] to %[[ROWS]] : tensor<8x16xf32>
// CHECK: return %[[RES]]
// CHECK-NOT: sdy
module @shardings {
  sdy.mesh @mesh = <["a"=2, "b"=4]>
  func.func @f(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %y: tensor<8x16xf32>)
      -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
    %0 = arith.addf %x, %y {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>} : tensor<8x16xf32>
    %1 = math.exp %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=16}>} : tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}

// -----

// Reshards, constraints and collectives are resharding annotations (a
// mesh.shard of an annotated value); unreduced axes are partial sums.
// CHECK-LABEL: module @reshards
// CHECK-DAG: %[[P:.*]] = mesh.sharding @mesh split_axes = {{\[\[\]\]}} partial = <sum> [1] : !mesh.sharding
// CHECK-DAG: %[[ROWS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-DAG: %[[REP:.*]] = mesh.sharding @mesh split_axes = {{\[\[\]\]}} : !mesh.sharding
// CHECK: %[[XS:.*]] = mesh.shard %arg0 to %[[P]]
// CHECK: %[[R:.*]] = mesh.shard %[[XS]] to %[[REP]]
// CHECK: %[[C:.*]] = mesh.shard %[[R]] to %[[ROWS]]
// CHECK: %[[G:.*]] = mesh.shard %[[C]] to %[[REP]]
// CHECK: %[[CST:.*]] = arith.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK: %[[CSTS:.*]] = mesh.shard %[[CST]] to %[[ROWS]]
// CHECK: arith.addf %[[G]], %[[CSTS]]
module @reshards {
  sdy.mesh @mesh = <["a"=2, "b"=4]>
  func.func @f(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"b"}>}) -> tensor<8xf32> {
    %r = sdy.all_reduce {"b"} %x out_sharding=<@mesh, [{}]> : tensor<8xf32>
    %c = sdy.sharding_constraint %r <@mesh, [{"a"}]> : tensor<8xf32>
    %g = sdy.reshard %c <@mesh, [{}]> : tensor<8xf32>
    %k = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} dense<1.0> : tensor<8xf32>
    %s = arith.addf %g, %k : tensor<8xf32>
    return %s : tensor<8xf32>
  }
}

// -----

// An axis used through sub-axes is cut into several mesh axes, major to
// minor, so that the devices keep their linear ids.
// CHECK-LABEL: module @sub_axes
// CHECK: mesh.mesh @mesh(shape = 2x2x2x3)
// CHECK-DAG: mesh.sharding @mesh split_axes = {{\[\[}}0], [1, 2]] : !mesh.sharding
// CHECK-DAG: mesh.sharding @mesh split_axes = {{\[\[}}0, 1], [3]] : !mesh.sharding
module @sub_axes {
  sdy.mesh @mesh = <["x"=8, "y"=3]>
  func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)4}]>})
      -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)4}, {"y"}]>}) {
    %0 = tensor.extract_slice %a[0, 0] [8, 6] [1, 1] : tensor<8x8xf32> to tensor<8x6xf32>
    return %0 : tensor<8x6xf32>
  }
}

// -----

// Data-flow edges and barriers pass their input on; groups go away; a named
// computation is inlined with its in and out shardings.
// CHECK-LABEL: module @helpers
// CHECK-NOT: sdy.
// CHECK: %[[XS:.*]] = mesh.shard %arg0
// CHECK: %[[IN:.*]] = mesh.shard %[[XS]] to %[[ROWS:.*]] : tensor<8xf32>
// CHECK: %[[NEG:.*]] = arith.negf %[[IN]]
// CHECK: %[[OUT:.*]] = mesh.shard %{{.*}} to %[[ROWS]] : tensor<8xf32>
// CHECK: return
module @helpers {
  sdy.mesh @mesh = <["a"=2]>
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %e = sdy.data_flow_edge %x : tensor<8xf32>
    %b = sdy.propagation_barrier %e allowed_direction=NONE : tensor<8xf32>
    sdy.sharding_group %b group_id=0 : tensor<8xf32>
    %n = sdy.named_computation<"g">(%b) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] (%arg1: tensor<8xf32>) {
      %0 = arith.negf %arg1 : tensor<8xf32>
      sdy.return %0 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %n : tensor<8xf32>
  }
}

// -----

module @overlapping_sub_axes {
  // expected-error @+1 {{'sdy.mesh' op unsupported by convert-sdy-to-mesh: the sub-axes of axis 'x' overlap without nesting}}
  sdy.mesh @mesh = <["x"=6]>
  func.func @f(%a: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}]>},
               %b: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)3}]>}) {
    return
  }
}

// -----

// A manual computation is inlined between its two boundaries: the operand
// is resharded to the in sharding, enters as its piece along the manual axis
// "a" (still sharded along the free axis "b"), and the body result, sharded
// along "b", leaves as the pieces of the global result.
// CHECK-LABEL: module @manual
// CHECK-DAG: %[[FREE:.*]] = mesh.sharding @mesh split_axes = {{\[}}[1]] : !mesh.sharding
// CHECK-DAG: %[[FULL:.*]] = mesh.sharding @mesh split_axes = {{\[}}[0, 1]] : !mesh.sharding
// CHECK-DAG: %[[MANUAL:.*]] = mesh.sharding @mesh split_axes = {{\[}}[0]] : !mesh.sharding
// CHECK: %[[IN:.*]] = mesh.shard %{{.*}} to %[[FULL]] : tensor<16xf32>
// CHECK-NEXT: %[[ENTER:.*]] = builtin.unrealized_conversion_cast %[[IN]], %[[MANUAL]] : tensor<16xf32>, !mesh.sharding to tensor<8xf32> {mesh.manual_boundary = "enter"}
// CHECK-NEXT: %[[PIECE:.*]] = mesh.shard %[[ENTER]] to %[[FREE]] : tensor<8xf32>
// CHECK: %[[EXP:.*]] = math.exp %[[PIECE]] : tensor<8xf32>
// CHECK-NEXT: mesh.shard %[[EXP]] to %[[FREE]] : tensor<8xf32>
// CHECK-NEXT: %[[OUT:.*]] = mesh.shard %{{.*}} to %[[FREE]] : tensor<8xf32>
// CHECK-NEXT: %[[EXIT:.*]] = builtin.unrealized_conversion_cast %[[OUT]], %[[MANUAL]] : tensor<8xf32>, !mesh.sharding to tensor<16xf32> {mesh.manual_boundary = "exit"}
// CHECK-NEXT: mesh.shard %[[EXIT]] to %[[FULL]] : tensor<16xf32>
// CHECK-NOT: sdy.
module @manual {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {
    %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", "b"}]>] out_shardings=[<@mesh, [{"a", "b"}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
      %1 = math.exp %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}]>]>} : tensor<8xf32>
      sdy.return %1 : tensor<8xf32>
    } : (tensor<16xf32>) -> tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}

// -----

module @manual_unreduced {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{'sdy.manual_computation' op unsupported by convert-sdy-to-mesh: unreduced axes on a manual computation's boundary}}
    %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}], unreduced={"b"}>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
      sdy.return %arg1 : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

module @inlined_mesh {
  // expected-error @+1 {{'func.func' op unsupported by convert-sdy-to-mesh: a sharding on an inlined or unknown mesh (run sdy-lift-inlined-meshes first)}}
  func.func @f(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2]>, [{"a"}]>}) -> tensor<8xf32> {
    return %x : tensor<8xf32>
  }
}

// -----

// A dimension its axes do not divide (Shardy pads the last pieces) keeps the
// longest prefix of its mesh axes that does: 6 rows over "a" (2), not over
// "a" and "b" (4).
// CHECK-LABEL: module @uneven_dimension
// CHECK: %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[}}[0]] : !mesh.sharding
// CHECK: mesh.shard %arg0 to %[[S]] : tensor<6xf32>
module @uneven_dimension {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @f(%x: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) -> tensor<6xf32> {
    return %x : tensor<6xf32>
  }
}
