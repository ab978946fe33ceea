// RUN: mesh-opt %s --sdy-spmdize-pipeline | FileCheck %s
// RUN: mesh-opt %s --sdy-spmdize-pipeline=lower-to=mpi | FileCheck %s --check-prefix=MPI

// A partially manual computation: manual on "x", free on "y". Its body is
// per-device code along "x" and is partitioned along "y" like any code: the
// rows of %a (split over "x" then "y") reach the body's matmul as 2 of its
// 4 rows, and the constraint moving "y" to the columns is an all_to_all.
// The function's own ops after the region run on the pieces it returns.

// CHECK: mesh.mesh @mesh(shape = 2x2)
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[A:.*]]: tensor<2x16xf32>, %[[B:.*]]: tensor<16x8xf32>) -> tensor<4x4xf32>
// CHECK-NOT: unrealized_conversion_cast
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x16xf32>, tensor<16x8xf32>)
// CHECK-NEXT: %[[T:.*]] = mesh.all_to_all %[[M]] on @mesh mesh_axes = [1] split_axis = 1 concat_axis = 0 : tensor<2x8xf32> -> tensor<4x4xf32>
// CHECK-NEXT: %[[H:.*]] = math.tanh %[[T]] : tensor<4x4xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[H]], %[[H]] : tensor<4x4xf32>
// CHECK-NEXT: return %[[S]]

// MPI-NOT: unrealized_conversion_cast
// MPI-NOT: sdy.
// MPI: mpi.comm_split

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>},
                %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %r = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"x", "y"}, {}]>, <@mesh, [{}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"}
      (%la: tensor<4x16xf32>, %lb: tensor<16x8xf32>) {
    %e = tensor.empty() : tensor<4x8xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %m = linalg.matmul ins(%la, %lb : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
    %c = sdy.sharding_constraint %m <@mesh, [{}, {"y"}]> : tensor<4x8xf32>
    %t = math.tanh %c : tensor<4x8xf32>
    sdy.return %t : tensor<4x8xf32>
  } : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %s = arith.addf %r, %r : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}
