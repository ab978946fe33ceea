// RUN: mesh-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization),canonicalize,cse)' | FileCheck %s

// A reduction split over mesh axes: each device reduces its piece and a
// mesh reduction of the combiner's kind completes it. The init must count
// once: a fill of the combiner's neutral element stays on every device;
// any other init only on the first device of each group, the others start
// from the neutral element (signed integer max/min: the type's minimum or
// maximum). Unsigned max/min are not split: mesh and MPI reductions compare
// integers as signed. test_reductions.py simulates each case.

mesh.mesh @mesh_4(shape = 4)

// CHECK-LABEL: func.func @maxsi_from_min
// CHECK-NOT:     arith.select
// CHECK:         %[[R:.*]] = linalg.reduce
// CHECK:         mesh.all_reduce %[[R]] on @mesh_4 mesh_axes = [0] reduction = <max> : tensor<8xi32> -> tensor<8xi32>
func.func @maxsi_from_min(%a: tensor<8x16xi32>) -> tensor<8xi32> {
  %s = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x16xi32>
  %min = arith.constant -2147483648 : i32
  %e = tensor.empty() : tensor<8xi32>
  %c = linalg.fill ins(%min : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %r = linalg.reduce ins(%a_s : tensor<8x16xi32>) outs(%c : tensor<8xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %m = arith.maxsi %in, %acc : i32
      linalg.yield %m : i32
    }
  return %r : tensor<8xi32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// CHECK-LABEL: func.func @minsi_any_init
// CHECK-SAME:    (%{{.*}}: tensor<8x4xi32>, %[[C:.*]]: tensor<8xi32>)
// CHECK-DAG:     %[[MAX:.*]] = arith.constant dense<2147483647> : tensor<8xi32>
// CHECK:         %[[K:.*]] = mesh.process_multi_index on @mesh_4 axes = [0] : index
// CHECK:         %[[INIT:.*]] = arith.select %{{.*}}, %[[C]], %[[MAX]] : tensor<8xi32>
// CHECK:         %[[R:.*]] = linalg.reduce ins(%{{.*}} : tensor<8x4xi32>) outs(%[[INIT]] : tensor<8xi32>)
// CHECK:         mesh.all_reduce %[[R]] on @mesh_4 mesh_axes = [0] reduction = <min>
func.func @minsi_any_init(%a: tensor<8x16xi32>, %c: tensor<8xi32>) -> tensor<8xi32> {
  %s = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x16xi32>
  %r = linalg.reduce ins(%a_s : tensor<8x16xi32>) outs(%c : tensor<8xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %m = arith.minsi %in, %acc : i32
      linalg.yield %m : i32
    }
  return %r : tensor<8xi32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// CHECK-LABEL: func.func @maxui_not_split
// CHECK:         %[[G:.*]] = mesh.all_gather %{{.*}} on @mesh_4 mesh_axes = [0] gather_axis = 1 : tensor<8x4xi32> -> tensor<8x16xi32>
// CHECK-NEXT:    linalg.reduce ins(%[[G]] : tensor<8x16xi32>)
// CHECK-NOT:     mesh.all_reduce
func.func @maxui_not_split(%a: tensor<8x16xi32>, %c: tensor<8xi32>) -> tensor<8xi32> {
  %s = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x16xi32>
  %r = linalg.reduce ins(%a_s : tensor<8x16xi32>) outs(%c : tensor<8xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %m = arith.maxui %in, %acc : i32
      linalg.yield %m : i32
    }
  return %r : tensor<8xi32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A float max from -inf needs no select either.
// CHECK-LABEL: func.func @maximumf_from_minus_inf
// CHECK-NOT:     arith.select
// CHECK:         mesh.all_reduce %{{.*}} reduction = <max>
func.func @maximumf_from_minus_inf(%a: tensor<8x16xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x16xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.reduce ins(%a_s : tensor<8x16xf32>) outs(%c : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<8xf32>
}

// -----

mesh.mesh @mesh_4x2(shape = 4x2)

// Rows in uneven pieces (6 over 4), the reduced columns over axis 1: the
// neutral init is a splat as large as each device's piece.
// CHECK-LABEL: func.func @uneven_init_of_split_reduction
// CHECK-SAME:    (%{{.*}}: tensor<?x4xf32>, %[[INIT:.*]]: tensor<?xf32>)
// CHECK-DAG:     %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[N:.*]] = tensor.dim %[[INIT]], %{{.*}} : tensor<?xf32>
// CHECK-NEXT:    %[[NEUTRAL:.*]] = tensor.splat %[[NINF]][%[[N]]] : tensor<?xf32>
// CHECK:         arith.select %{{.*}}, %[[INIT]], %[[NEUTRAL]] : tensor<?xf32>
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_4x2 mesh_axes = [1] reduction = <max>
func.func @uneven_init_of_split_reduction(%a: tensor<6x8xf32>, %init: tensor<6xf32>) -> tensor<6xf32> {
  %s = mesh.sharding @mesh_4x2 split_axes = [[0], [1]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<6x8xf32>
  %r = linalg.reduce ins(%a_s : tensor<6x8xf32>) outs(%init : tensor<6xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<6xf32>
}
