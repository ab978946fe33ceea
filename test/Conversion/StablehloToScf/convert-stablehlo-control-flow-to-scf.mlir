// RUN: mesh-opt %s -allow-unregistered-dialect -split-input-file -convert-stablehlo-control-flow-to-scf | FileCheck %s

// The ops come as jaxlib's legalization leaves them, in generic form
// (unregistered here); what their regions compute is already linalg.

// CHECK-LABEL: func @while_loop
// CHECK-SAME:    (%[[N:.*]]: tensor<i32>, %[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0> : tensor<i32>
// CHECK:         %[[LOOP:.*]]:3 = scf.while (%[[I:.*]] = %[[ZERO]], %[[M:.*]] = %[[N]], %[[C:.*]] = %[[X]]) : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<i32>, tensor<4xf32>) {
// CHECK:           %[[LESS:.*]] = "test.less"(%[[I]], %[[M]])
// CHECK:           %[[P:.*]] = tensor.extract %[[LESS]][] : tensor<i1>
// CHECK:           scf.condition(%[[P]]) %[[I]], %[[M]], %[[C]] : tensor<i32>, tensor<i32>, tensor<4xf32>
// CHECK:         } do {
// CHECK:         ^bb0(%[[I2:.*]]: tensor<i32>, %[[M2:.*]]: tensor<i32>, %[[C2:.*]]: tensor<4xf32>):
// CHECK:           %[[NEXT:.*]] = "test.increment"(%[[I2]])
// CHECK:           %[[DOUBLE:.*]] = "test.double"(%[[C2]])
// CHECK:           scf.yield %[[NEXT]], %[[M2]], %[[DOUBLE]] : tensor<i32>, tensor<i32>, tensor<4xf32>
// CHECK:         }
// CHECK:         return %[[LOOP]]#2
// CHECK-NOT:     stablehlo.
func.func @while_loop(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = arith.constant dense<0> : tensor<i32>
  %0:3 = "stablehlo.while"(%zero, %n, %x) ({
  ^bb0(%i: tensor<i32>, %m: tensor<i32>, %c: tensor<4xf32>):
    %less = "test.less"(%i, %m) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%less) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %m: tensor<i32>, %c: tensor<4xf32>):
    %next = "test.increment"(%i) : (tensor<i32>) -> tensor<i32>
    %double = "test.double"(%c) : (tensor<4xf32>) -> tensor<4xf32>
    "stablehlo.return"(%next, %m, %double) : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> ()
  }) : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<i32>, tensor<4xf32>)
  return %0#2 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @if_else
// CHECK-SAME:    (%[[PRED:.*]]: tensor<i1>, %[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[P:.*]] = tensor.extract %[[PRED]][] : tensor<i1>
// CHECK:         %[[R:.*]] = scf.if %[[P]] -> (tensor<4xf32>) {
// CHECK:           %[[T:.*]] = "test.then"(%[[X]])
// CHECK:           scf.yield %[[T]] : tensor<4xf32>
// CHECK:         } else {
// CHECK:           scf.yield %[[X]] : tensor<4xf32>
// CHECK:         }
// CHECK:         return %[[R]]
func.func @if_else(%pred: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.if"(%pred) ({
    %t = "test.then"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "stablehlo.return"(%t) : (tensor<4xf32>) -> ()
  }, {
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The last branch is the default: StableHLO runs it for any index out of
// range, negative ones included.
// CHECK-LABEL: func @case_three_branches
// CHECK-SAME:    (%[[INDEX:.*]]: tensor<i32>, %[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[E:.*]] = tensor.extract %[[INDEX]][] : tensor<i32>
// CHECK:         %[[I:.*]] = arith.index_cast %[[E]] : i32 to index
// CHECK:         %[[R:.*]] = scf.index_switch %[[I]] -> tensor<4xf32>
// CHECK:         case 0 {
// CHECK:           scf.yield %[[X]] : tensor<4xf32>
// CHECK:         }
// CHECK:         case 1 {
// CHECK:           %[[ONE:.*]] = "test.one"(%[[X]])
// CHECK:           scf.yield %[[ONE]] : tensor<4xf32>
// CHECK:         }
// CHECK:         default {
// CHECK:           %[[TWO:.*]] = "test.two"(%[[X]])
// CHECK:           scf.yield %[[TWO]] : tensor<4xf32>
// CHECK:         }
// CHECK:         return %[[R]]
func.func @case_three_branches(%index: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%index) ({
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }, {
    %one = "test.one"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "stablehlo.return"(%one) : (tensor<4xf32>) -> ()
  }, {
    %two = "test.two"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "stablehlo.return"(%two) : (tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Two branches (jax.lax.cond): an scf.if on index == 0; any other index,
// out of range included, takes the last branch.
// CHECK-LABEL: func @case_two_branches
// CHECK-SAME:    (%[[INDEX:.*]]: tensor<i32>, %[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[E:.*]] = tensor.extract %[[INDEX]][] : tensor<i32>
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[E]], %[[ZERO]] : i32
// CHECK:         %[[R:.*]] = scf.if %[[FIRST]] -> (tensor<4xf32>) {
// CHECK:           scf.yield %[[X]] : tensor<4xf32>
// CHECK:         } else {
// CHECK:           %[[ONE:.*]] = "test.one"(%[[X]])
// CHECK:           scf.yield %[[ONE]] : tensor<4xf32>
// CHECK:         }
// CHECK:         return %[[R]]
func.func @case_two_branches(%index: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%index) ({
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }, {
    %one = "test.one"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "stablehlo.return"(%one) : (tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// One branch: only a default.
// CHECK-LABEL: func @case_one_branch
// CHECK:         scf.index_switch %{{.*}} -> tensor<4xf32>
// CHECK-NOT:     case
// CHECK:         default {
func.func @case_one_branch(%index: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%index) ({
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Nested control flow, and a case with no results (side effects only).
// CHECK-LABEL: func @nested
// CHECK:         scf.while
// CHECK:           scf.condition
// CHECK:         } do {
// CHECK:           scf.if
// CHECK:             scf.index_switch
// CHECK:             case 0 {
// CHECK-NEXT:          "test.effect"
// CHECK-NEXT:          scf.yield
// CHECK:             case 1 {
// CHECK:           scf.yield
// CHECK-NOT:     stablehlo.
func.func @nested(%p: tensor<i1>, %k: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%c: tensor<4xf32>):
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%c: tensor<4xf32>):
    %1 = "stablehlo.if"(%p) ({
      "stablehlo.case"(%k) ({
        "test.effect"() : () -> ()
        "stablehlo.return"() : () -> ()
      }, {
        "stablehlo.return"() : () -> ()
      }, {
        "stablehlo.return"() : () -> ()
      }) : (tensor<i32>) -> ()
      "stablehlo.return"(%c) : (tensor<4xf32>) -> ()
    }, {
      "stablehlo.return"(%c) : (tensor<4xf32>) -> ()
    }) : (tensor<i1>) -> tensor<4xf32>
    "stablehlo.return"(%1) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Other StableHLO ops, the terminators of their regions included, are left
// for the other conversions (and the front door's check).
// CHECK-LABEL: func @others_left
// CHECK:         "stablehlo.all_reduce"
// CHECK:           "stablehlo.return"
// CHECK:         "stablehlo.custom_call"
func.func @others_left(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.custom_call"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
