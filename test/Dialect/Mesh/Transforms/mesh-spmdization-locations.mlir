// RUN: mesh-opt %s --mesh-spmdize-pipeline --mlir-print-debuginfo | FileCheck %s

// Every collective partitioning inserts carries a location naming the value
// it reshards and the two shardings, fused with the location of the
// annotation that asked for the new sharding and that of the value, so a
// collective in the output leads back to both source lines.

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @gather_for_a_user
// CHECK:         mesh.all_gather {{.*}} loc(#[[RESHARD:loc[0-9]+]])
func.func @gather_for_a_user(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x8xf32>
  %e = math.exp %a_s : tensor<8x8xf32>
  %e_r = mesh.shard %e to %r annotate_for_users : tensor<8x8xf32>
  %t = math.tanh %e_r : tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}
// The annotation (line 17) and the value (line 16, math.exp).
// CHECK-DAG:   #[[ANNOTATION:loc[0-9]+]] = loc("{{.*}}mesh-spmdization-locations.mlir":17:10)
// CHECK-DAG:   #[[VALUE:loc[0-9]+]] = loc("{{.*}}mesh-spmdization-locations.mlir":16:8)
// CHECK-DAG:   #[[RESHARD]] = loc(fused<"reshard result 0 of math.exp: split_axes = [[0]] -> split_axes = []">[#[[ANNOTATION]], #[[VALUE]]])
