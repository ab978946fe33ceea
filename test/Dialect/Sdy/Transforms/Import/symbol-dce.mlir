// RUN: mesh-opt %s -split-input-file -sdy-symbol-dce | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

// A private function nothing calls goes; a called one and public ones stay.
// CHECK: sdy.mesh @mesh
// CHECK-LABEL: func @main
// CHECK: func private @used
// CHECK-NOT: @unused
func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = func.call @used(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @used(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
func.func private @unused(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// Only public symbols: nothing can be dead, the module stays as it is.
// CHECK: sdy.mesh @mesh
// CHECK-LABEL: func @main
// CHECK-LABEL: func @other
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
func.func @other(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// A nested symbol table is cleaned too, even without a private symbol at
// the top.
// CHECK-LABEL: module @inner
// CHECK-NOT: @dead
// CHECK: func @main
module @outer {
  module @inner {
    func.func private @dead() {
      return
    }
  }
  func.func @main() {
    return
  }
}
