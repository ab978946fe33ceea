// RUN: mesh-opt %s -split-input-file -sdy-op-priority-propagate | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Elementwise ops propagate first: "a" on dim 1 reaches the matmul from its
// users before the matmul can move "a" on dim 0 to its result.
// CHECK-LABEL: func @elementwise_before_matmul(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} ins(%arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%[[V0]] : tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V2:.*]] = arith.addf %[[V1]], %[[V1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V3:.*]] = arith.addf %[[V2]], %[[V2]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V3]] : tensor<8x8xf32>
func.func @elementwise_before_matmul(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) {
  %0 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.matmul {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j], [i, j])->([i, j]) {i=8, j=8, k=8} reduction={k}>}
         ins(%arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = arith.addf %1, %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %3 = arith.addf %2, %2 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A transpose (all factors pass-through and in every tensor) is a
// pass-through op: it propagates with the elementwise ops, before the
// matmul.
// CHECK-LABEL: func @transpose_before_matmul(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} ins(%arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%[[V0]] : tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V2:.*]] = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[TRANSPOSED:.*]] = linalg.transpose ins(%[[V1]] : tensor<8x8xf32>) outs(%[[V2]] : tensor<8x8xf32>) permutation = [1, 0]  {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
// CHECK-NEXT: return %[[TRANSPOSED]] : tensor<8x8xf32>
func.func @transpose_before_matmul(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
  %0 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.matmul {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j], [i, j])->([i, j]) {i=8, j=8, k=8} reduction={k}>}
         ins(%arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = tensor.empty() : tensor<8x8xf32>
  %3 = linalg.transpose {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [j, i])->([j, i]) {i=8, j=8}>}
         ins(%1 : tensor<8x8xf32>) outs(%2 : tensor<8x8xf32>) permutation = [1, 0]
  return %3 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Broadcasts propagate backward before they propagate forward: the result's
// "a" on dim 1 reaches the first broadcast before the argument's "a" on dim 0
// can move forward, and then takes its place.
// CHECK-LABEL: func @broadcast_backward_first(
// CHECK-SAME:    %arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<32x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}, {}]>})
// CHECK-NEXT: %[[V0:.*]] = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : tensor<32x16xf32>
// CHECK-NEXT: %[[BROADCASTED:.*]] = linalg.broadcast ins(%arg0 : tensor<32xf32>) outs(%[[V0]] : tensor<32x16xf32>) dimensions = [1]  {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>}
// CHECK-NEXT: %[[V1:.*]] = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}, {?}]>]>} : tensor<32x16x8xf32>
// CHECK-NEXT: %[[BROADCASTED_0:.*]] = linalg.broadcast ins(%[[BROADCASTED]] : tensor<32x16xf32>) outs(%[[V1]] : tensor<32x16x8xf32>) dimensions = [2]  {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}, {?}]>]>}
// CHECK-NEXT: return %[[BROADCASTED_0]] : tensor<32x16x8xf32>
func.func @broadcast_backward_first(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})
    -> (tensor<32x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}, {}]>}) {
  %0 = tensor.empty() : tensor<32x16xf32>
  %1 = linalg.broadcast {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i, j])->([i, j]) {i=32, j=16}>}
         ins(%arg0 : tensor<32xf32>) outs(%0 : tensor<32x16xf32>) dimensions = [1]
  %2 = tensor.empty() : tensor<32x16x8xf32>
  %3 = linalg.broadcast {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j, k])->([i, j, k]) {i=32, j=16, k=8}>}
         ins(%1 : tensor<32x16xf32>) outs(%2 : tensor<32x16x8xf32>) dimensions = [2]
  return %3 : tensor<32x16x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An elementwise op whose operand has other uses waits until the second
// iteration; by then the other user has sharded the operand.
// CHECK-LABEL: func @multi_use_deferred(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} ins(%arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%[[V0]] : tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V2:.*]] = math.exp %[[V1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V3:.*]] = math.exp %[[V1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V2]], %[[V3]] : tensor<8x8xf32>, tensor<8x8xf32>
func.func @multi_use_deferred(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) {
  %0 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.matmul {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j], [i, j])->([i, j]) {i=8, j=8, k=8} reduction={k}>}
         ins(%arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = math.exp %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %3 = math.exp %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A slice keeping every element has a reshape's rule ([i, j])->([i, j]), but
// it is neither elementwise nor a reshape (Shardy's schedule names reshapes
// and transposes, never slices): the constraint reaches the slice's result
// (a pass-through op, with multiple uses allowed) before the slice moves
// "a" forward (pass-through factors of any op), as in Shardy.
// CHECK-LABEL: func @full_slice_is_not_a_reshape(
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %arg0[0, 0] [8, 8] [1, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>}
// CHECK-NEXT: sdy.sharding_constraint %[[S]] <@mesh, [{"b", ?}, {?}]>
// CHECK-NEXT: math.tanh %[[S]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>}
func.func @full_slice_is_not_a_reshape(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>})
    -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = tensor.extract_slice %arg0[0, 0] [8, 8] [1, 1] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>}
         : tensor<8x8xf32> to tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"b", ?}, {?}]> : tensor<8x8xf32>
  %2 = math.tanh %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The last priority lets both broadcasts go forward. As in Shardy's driver
// (every op queued in program order, an op queued again before its turn
// keeps its place), the second broadcast gets its own sharding at its turn
// before the concat, which the first one's change queued, is visited; the
// concat then takes "a" from the second and "b" from the first.
// CHECK-LABEL: func @queued_op_keeps_its_turn(
// CHECK: linalg.broadcast {{.*}} dimensions = [0] {{.*}}<@mesh, [{?}, {"a", ?}, {"b", ?}]>
// CHECK: linalg.broadcast {{.*}} dimensions = [2] {{.*}}<@mesh, [{"a", ?}, {"b", ?}, {?}]>
// CHECK: tensor.concat {{.*}}<@mesh, [{"a", ?}, {?}, {"b", ?}]>
func.func @queued_op_keeps_its_turn(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>})
    -> tensor<8x16x8xf32> {
  %e0 = tensor.empty() : tensor<8x8x8xf32>
  %0 = linalg.broadcast {sdy.sharding_rule = #sdy.op_sharding_rule<([j, k], [i, j, k])->([i, j, k]) {i=8, j=8, k=8}>}
         ins(%arg0 : tensor<8x8xf32>) outs(%e0 : tensor<8x8x8xf32>) dimensions = [0]
  %e1 = tensor.empty() : tensor<8x8x8xf32>
  %1 = linalg.broadcast {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j, k])->([i, j, k]) {i=8, j=8, k=8}>}
         ins(%arg0 : tensor<8x8xf32>) outs(%e1 : tensor<8x8x8xf32>) dimensions = [2]
  %2 = tensor.concat dim(1) %0, %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=8, j=16, k=8} need_replication={j}>}
         : (tensor<8x8x8xf32>, tensor<8x8x8xf32>) -> tensor<8x16x8xf32>
  return %2 : tensor<8x16x8xf32>
}
