// RUN: mesh-opt %s -split-input-file -sdy-sharding-group-import -verify-diagnostics

sdy.mesh @mesh = <["a"=2]>

func.func @crosses_manual_computation(%x: tensor<8xf32>, %y: tensor<4xf32>) -> tensor<8xf32> {
  sdy.sharding_group %y group_id=0 : tensor<4xf32>
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<4xf32>) {
    // expected-error @+1 {{'sdy.sharding_group' op sharding group 0 crosses a manual computation boundary: all members must be defined in the same manual computation body or outside any}}
    sdy.sharding_group %l group_id=0 : tensor<4xf32>
    sdy.return %l : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
