// RUN: mesh-opt %s -split-input-file -sdy-sharding-group-import | FileCheck %s

// Groups sharing a value merge; ids become 0..N-1 in order of their
// smallest id; a value keeps one group op.
// CHECK-LABEL: func @merge
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=1
// CHECK-NEXT: sdy.sharding_group %arg1 group_id=1
// CHECK-NEXT: sdy.sharding_group %arg2 group_id=0
// CHECK-NEXT: sdy.sharding_group %arg3 group_id=1
// CHECK-NEXT: return
func.func @merge(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>, %d: tensor<8xf32>) {
  sdy.sharding_group %a group_id=7 : tensor<8xf32>
  sdy.sharding_group %b group_id=9 : tensor<8xf32>
  sdy.sharding_group %c group_id=3 : tensor<8xf32>
  sdy.sharding_group %b group_id=7 : tensor<8xf32>
  sdy.sharding_group %d group_id=9 : tensor<8xf32>
  sdy.sharding_group %a group_id=9 : tensor<8xf32>
  return
}
