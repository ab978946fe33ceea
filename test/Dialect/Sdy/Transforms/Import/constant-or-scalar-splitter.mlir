// RUN: mesh-opt %s -split-input-file -sdy-constant-or-scalar-splitter | FileCheck %s

// A constant used by two ops gets a copy per op; the copies keep a
// constant sub-computation whole.
// CHECK-LABEL: func @constant_sub_computation
// CHECK-NEXT: %[[C0:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT: %[[C1:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT: %[[E1:.*]] = math.exp %[[C1]]
// CHECK-NEXT: %[[E0:.*]] = math.exp %[[C0]]
// CHECK-NEXT: %[[A:.*]] = arith.addf %arg0, %[[E0]]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %arg1, %[[E1]]
// CHECK-NEXT: return %[[A]], %[[M]]
func.func @constant_sub_computation(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  %e = math.exp %c : tensor<8xf32>
  %a = arith.addf %x, %e : tensor<8xf32>
  %m = arith.mulf %y, %e : tensor<8xf32>
  return %a, %m : tensor<8xf32>, tensor<8xf32>
}

// -----

// Scalar expansions (a fill of an empty tensor, a splat) are split too; two
// uses by one op share one copy; a scalar constant is not split, and the
// users of an expansion of a non-constant scalar are not constant.
// CHECK-LABEL: func @scalar_expansion
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK-NOT: arith.constant
// CHECK: %[[F1:.*]] = linalg.fill
// CHECK-NEXT: %[[F0:.*]] = linalg.fill
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[F0]], %[[F0]]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[F1]]
// CHECK-NEXT: %[[S1:.*]] = tensor.splat %arg0
// CHECK-NEXT: %[[S0:.*]] = tensor.splat %arg0
// CHECK-NEXT: %[[B:.*]] = arith.addf %[[M]], %[[S0]]
// CHECK-NEXT: arith.subf %[[B]], %[[S1]]
func.func @scalar_expansion(%s: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  %a = arith.addf %fill, %fill : tensor<4xf32>
  %m = arith.mulf %a, %fill : tensor<4xf32>
  %splat = tensor.splat %s : tensor<4xf32>
  %b = arith.addf %m, %splat : tensor<4xf32>
  %c = arith.subf %b, %splat : tensor<4xf32>
  return %b, %c : tensor<4xf32>, tensor<4xf32>
}

// -----

// Ops that read a non-constant tensor are no constant sub-computation.
// CHECK-LABEL: func @not_constant
// CHECK-COUNT-1: math.exp
// CHECK-NOT: math.exp
func.func @not_constant(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = math.exp %x : tensor<8xf32>
  %a = arith.addf %e, %x : tensor<8xf32>
  %m = arith.mulf %e, %x : tensor<8xf32>
  return %a, %m : tensor<8xf32>, tensor<8xf32>
}

// -----

// An scf.if on a scalar condition is not a scalar expansion when its
// regions read a tensor from above; and an op with data-flow edges is never
// split, even when its regions read only constants (each copy would get an
// edge, and the merger would put both on one result).
// CHECK-LABEL: func @region_ops_not_split
// CHECK-COUNT-2: scf.if
// CHECK-NOT:     scf.if
func.func @region_ops_not_split(%a: tensor<8xf32>, %p: i1) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %r = scf.if %p -> (tensor<8xf32>) {
    %n = math.absf %a : tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  } else {
    scf.yield %a : tensor<8xf32>
  }
  %c = scf.if %p -> (tensor<8xf32>) {
    %one = arith.constant dense<1.0> : tensor<8xf32>
    scf.yield %one : tensor<8xf32>
  } else {
    %two = arith.constant dense<2.0> : tensor<8xf32>
    scf.yield %two : tensor<8xf32>
  }
  %t = math.tanh %r : tensor<8xf32>
  %u = math.exp %r : tensor<8xf32>
  %v = math.tanh %c : tensor<8xf32>
  %w = math.exp %c : tensor<8xf32>
  return %t, %u, %v, %w : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// A constant read from above by a linalg body (a gather's table) gets its
// copy before the op holding the body, not inside it: bodies compute on
// elements.
// CHECK-LABEL: func @user_in_a_body
// CHECK-COUNT-2: arith.constant dense<{{.*}}> : tensor<4xf32>
// CHECK-COUNT-2: math.exp
// CHECK:         linalg.generic
// CHECK-NOT:     math.exp
// CHECK:         tensor.extract
// CHECK:         } -> tensor<8xf32>
func.func @user_in_a_body(%ids: tensor<8xi64>) -> (tensor<8xf32>, tensor<4xf32>) {
  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %table = math.exp %t : tensor<4xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e : tensor<8xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %v = tensor.extract %table[%i] : tensor<4xf32>
      linalg.yield %v : f32
  } -> tensor<8xf32>
  %twice = arith.addf %table, %table : tensor<4xf32>
  return %r, %twice : tensor<8xf32>, tensor<4xf32>
}
