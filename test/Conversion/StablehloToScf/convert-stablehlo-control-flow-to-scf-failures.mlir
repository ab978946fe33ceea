// RUN: mesh-opt %s -allow-unregistered-dialect -split-input-file -convert-stablehlo-control-flow-to-scf -verify-diagnostics

func.func @predicate_not_i1(%p: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.if' op unsupported: the predicate must be one tensor<i1>}}
  %0 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }, {
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @predicate_not_rank_0(%p: tensor<2xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.if' op unsupported: the predicate must be one tensor<i1>}}
  %0 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }, {
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<2xi1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @if_one_region(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.if' op expected 2 regions (true, false), got 1}}
  %0 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @index_unsigned(%k: tensor<ui32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.case' op unsupported: the index must be one rank-0 tensor of a signless integer}}
  %0 = "stablehlo.case"(%k) ({
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<ui32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @case_no_branch(%k: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.case' op expected at least one branch}}
  "stablehlo.case"(%k) : (tensor<i32>) -> ()
  return
}

// -----

func.func @branch_returns_wrong_type(%k: tensor<i32>, %x: tensor<4xf32>, %y: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.case' op region 1 - 'stablehlo.return' must return the op's result types}}
  %0 = "stablehlo.case"(%k) ({
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }, {
    "stablehlo.return"(%y) : (tensor<4xf16>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @branch_not_returning(%k: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.case' op region 0 - does not end in 'stablehlo.return'}}
  %0 = "stablehlo.case"(%k) ({
    "test.other"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @branch_of_two_blocks(%k: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.case' op unsupported: region 0 has 2 blocks, expected 1}}
  %0 = "stablehlo.case"(%k) ({
    "test.br"()[^bb1] : () -> ()
  ^bb1:
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cond_not_a_predicate(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.while' op region 0 - 'stablehlo.return' must return one tensor<i1>}}
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%c: tensor<4xf32>):
    "stablehlo.return"(%c) : (tensor<4xf32>) -> ()
  }, {
  ^bb0(%c: tensor<4xf32>):
    "stablehlo.return"(%c) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @body_arguments_differ(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.while' op region 1 - block argument types do not match the operands}}
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%c: tensor<4xf32>):
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%c: tensor<8xf32>):
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @while_results_differ(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.while' op operand and result types differ}}
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%c: tensor<4xf32>):
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%c: tensor<4xf32>):
    "stablehlo.return"(%c) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A bad op anywhere leaves every op unchanged, the good ones too.
func.func @all_or_nothing(%p: tensor<i1>, %q: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }, {
    "stablehlo.return"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<4xf32>
  // expected-error @+1 {{'stablehlo.if' op unsupported: the predicate must be one tensor<i1>}}
  %1 = "stablehlo.if"(%q) ({
    "stablehlo.return"(%0) : (tensor<4xf32>) -> ()
  }, {
    "stablehlo.return"(%0) : (tensor<4xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @while_one_region(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.while' op expected 2 regions (cond, do), got 1}}
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%c: tensor<4xf32>):
    "stablehlo.return"(%c) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
