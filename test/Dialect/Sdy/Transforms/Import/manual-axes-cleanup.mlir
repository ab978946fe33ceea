// RUN: mesh-opt %s -split-input-file -sdy-manual-axes-cleanup | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// A manual axis a sharding doesn't use
// becomes replicated in it.
// CHECK-LABEL: func @cleanup
// CHECK: sdy.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"a"}], replicated={"c"}>] out_shardings=[<@mesh, [{"a"}], replicated={"c"}>] manual_axes={"a", "c"}
func.func @cleanup(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a", "c"} (%l: tensor<4xf32>) {
    sdy.return %l : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
