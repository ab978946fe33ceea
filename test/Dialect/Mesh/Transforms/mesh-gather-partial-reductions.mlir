// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-gather-partial-reductions))' | FileCheck %s
// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-gather-partial-reductions),mesh-module-sharding-propagation,func.func(mesh-spmdization),canonicalize,cse)' | FileCheck %s --check-prefix=SPMD

// An argmax over a vocabulary split over axis 1 (a value and its index read
// from an iota): each device reduces its 16 columns, the (max, index) pairs
// of both devices are gathered, then reduced again in device order.
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[PIECE:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG:   #[[PART:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @argmax_of_iota
// CHECK-DAG:     %[[V0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK-DAG:     %[[I0:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<4xi32>)
// CHECK:         %[[XE:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [4, 2, 16] : tensor<4x32xf32> into tensor<4x2x16xf32>
// CHECK:         %[[XS:.*]] = mesh.sharding @mesh split_axes = {{\[}}[0], [1]]
// CHECK-NEXT:    %[[X:.*]] = mesh.shard %[[XE]] to %[[XS]] : tensor<4x2x16xf32>
// CHECK:         %[[IDS:.*]] = mesh.shard %{{.*}} : tensor<4x2x16xi32>
// CHECK:         %[[P:.*]]:2 = linalg.generic {indexing_maps = [#[[PIECE]], #[[PIECE]], #[[PART]], #[[PART]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]], %[[IDS]] : {{.*}}) outs({{.*}} : tensor<4x2xf32>, tensor<4x2xi32>)
// CHECK:         %[[PV:.*]] = mesh.shard %[[P]]#0 to %{{.*}} : tensor<4x2xf32>
// CHECK:         %[[PI:.*]] = mesh.shard %[[P]]#1 to %{{.*}} : tensor<4x2xi32>
// CHECK:         %[[R:.*]]:2 = linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]], #[[ROW]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[PV]], %[[PI]] : tensor<4x2xf32>, tensor<4x2xi32>) outs(%[[V0]], %[[I0]] : tensor<4xf32>, tensor<4xi32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[ID:.*]]: i32, %[[ACC:.*]]: f32, %[[ACCID:.*]]: i32):
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[ACC]], %[[IN]] : f32
// CHECK-NEXT:      %[[EQ:.*]] = arith.cmpf oeq, %[[ACC]], %[[IN]] : f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[ACCID]], %[[ID]] : i32
// CHECK-NEXT:      %[[TIE:.*]] = arith.andi %[[EQ]], %[[LT]] : i1
// CHECK-NEXT:      %[[KEEP:.*]] = arith.ori %[[GT]], %[[TIE]] : i1
// CHECK-NEXT:      %[[V:.*]] = arith.select %[[GT]], %[[ACC]], %[[IN]] : f32
// CHECK-NEXT:      %[[I:.*]] = arith.select %[[KEEP]], %[[ACCID]], %[[ID]] : i32
// CHECK-NEXT:      linalg.yield %[[V]], %[[I]] : f32, i32
// CHECK:         mesh.shard %[[R]]#0
// CHECK:         mesh.shard %[[R]]#1
// Partitioned: the pieces are not moved, the partials are gathered.
// SPMD-LABEL:  func.func @argmax_of_iota
// SPMD-NOT:      mesh.all_gather {{.*}}x16x
// SPMD:          linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x1x16xf32>, tensor<2x1x16xi32>) outs(%{{.*}}, %{{.*}} : tensor<2x1xf32>, tensor<2x1xi32>)
// SPMD:          mesh.all_gather %{{.*}} on @mesh mesh_axes = [1] gather_axis = 1 : tensor<2x1xf32> -> tensor<2x2xf32>
// SPMD:          mesh.all_gather %{{.*}} on @mesh mesh_axes = [1] gather_axis = 1 : tensor<2x1xi32> -> tensor<2x2xi32>
// SPMD:          linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x2xf32>, tensor<2x2xi32>) outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi32>)
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
mesh.mesh @mesh(shape = 2x2)
func.func @argmax_of_iota(%x: tensor<4x32xf32>, %ids: tensor<4x32xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %sx = mesh.shard %x to %cols : tensor<4x32xf32>
  %sids = mesh.shard %ids to %cols : tensor<4x32xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xi32>
  %v0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %i0 = linalg.fill ins(%zero : i32) outs(%e1 : tensor<4xi32>) -> tensor<4xi32>
  %r:2 = linalg.generic {indexing_maps = [#in, #in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%sx, %sids : tensor<4x32xf32>, tensor<4x32xi32>) outs(%v0, %i0 : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %id: i32, %acc: f32, %accid: i32):
    %gt = arith.cmpf ogt, %acc, %in : f32
    %eq = arith.cmpf oeq, %acc, %in : f32
    %lt = arith.cmpi slt, %accid, %id : i32
    %tie = arith.andi %eq, %lt : i1
    %keep = arith.ori %gt, %tie : i1
    %v = arith.select %gt, %acc, %in : f32
    %i = arith.select %keep, %accid, %id : i32
    linalg.yield %v, %i : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  %a = mesh.shard %r#0 to %rows : tensor<4xf32>
  %b = mesh.shard %r#1 to %rows : tensor<4xi32>
  return %a, %b : tensor<4xf32>, tensor<4xi32>
}

// -----

// An argmin whose index is the loop position (linalg.index), the columns
// split over both mesh axes: the first reduction reads position
// piece * 8 + local index; the second meets the partials' indices as
// elements.
// CHECK-LABEL: func.func @argmin_of_position
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%{{.*}} : tensor<2x4x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x4xindex>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32, %[[ACCID:.*]]: index):
// CHECK-NEXT:      %[[LOCAL:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[PIECE:.*]] = linalg.index 2 : index
// CHECK-NEXT:      %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[START:.*]] = arith.muli %[[PIECE]], %[[C8]] : index
// CHECK-NEXT:      %[[POS:.*]] = arith.addi %[[LOCAL]], %[[START]] : index
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[IN]], %[[ACC]] : f32
// CHECK-NEXT:      arith.minimumf %[[IN]], %[[ACC]] : f32
// CHECK-NEXT:      arith.select %[[LT]], %[[POS]], %[[ACCID]] : index
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x4xindex>) outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xindex>)
// CHECK-NEXT:    ^bb0(%[[PV:.*]]: f32, %[[PI:.*]]: index, %[[ACC2:.*]]: f32, %[[ACCID2:.*]]: index):
// CHECK-NEXT:      %[[LT2:.*]] = arith.cmpf olt, %[[PV]], %[[ACC2]] : f32
// CHECK-NEXT:      %[[V2:.*]] = arith.minimumf %[[PV]], %[[ACC2]] : f32
// CHECK-NEXT:      %[[I2:.*]] = arith.select %[[LT2]], %[[PI]], %[[ACCID2]] : index
// CHECK-NEXT:      linalg.yield %[[V2]], %[[I2]] : f32, index
// SPMD-LABEL:  func.func @argmin_of_position
// SPMD:          mesh.all_gather %{{.*}} on @mesh mesh_axes = [0, 1] gather_axis = 1 : tensor<2x1xf32> -> tensor<2x4xf32>
// SPMD:          mesh.all_gather %{{.*}} on @mesh mesh_axes = [0, 1] gather_axis = 1 : tensor<2x1xindex> -> tensor<2x4xindex>
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
mesh.mesh @mesh(shape = 2x2)
func.func @argmin_of_position(%x: tensor<2x32xf32>, %v0: tensor<2xf32>, %i0: tensor<2xindex>) -> (tensor<2xf32>, tensor<2xindex>) {
  %cols = mesh.sharding @mesh split_axes = [[], [0, 1]] : !mesh.sharding
  %sx = mesh.shard %x to %cols : tensor<2x32xf32>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%sx : tensor<2x32xf32>) outs(%v0, %i0 : tensor<2xf32>, tensor<2xindex>) {
  ^bb0(%in: f32, %acc: f32, %accid: index):
    %pos = linalg.index 1 : index
    %lt = arith.cmpf olt, %in, %acc : f32
    %v = arith.minimumf %in, %acc : f32
    %i = arith.select %lt, %pos, %accid : index
    linalg.yield %v, %i : f32, index
  } -> (tensor<2xf32>, tensor<2xindex>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xindex>
}

// -----

// Left alone: a sum is an all_reduce kind; a maximum over an unsplit
// dimension; a split of one element per piece (gathering the partials is
// no cheaper); a combiner that adds (it is not a pick, so the init would
// count once per device).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.expand_shape
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
mesh.mesh @mesh(shape = 2x2)
func.func @left_alone(%x: tensor<4x32xf32>, %y: tensor<4x2xf32>, %v0: tensor<4xf32>, %i0: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) {
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %sx = mesh.shard %x to %cols : tensor<4x32xf32>
  %sy = mesh.shard %y to %cols : tensor<4x2xf32>
  %sum = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%sx : tensor<4x32xf32>) outs(%v0 : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %m:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x32xf32>) outs(%v0, %i0 : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %accid: i32):
    %pos = linalg.index 1 : index
    %p = arith.index_cast %pos : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %v = arith.select %gt, %in, %acc : f32
    %i = arith.select %gt, %p, %accid : i32
    linalg.yield %v, %i : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  %short:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%sy : tensor<4x2xf32>) outs(%v0, %i0 : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %acc: f32, %accid: i32):
    %pos = linalg.index 1 : index
    %p = arith.index_cast %pos : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %v = arith.select %gt, %in, %acc : f32
    %i = arith.select %gt, %p, %accid : i32
    linalg.yield %v, %i : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  %add:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%sx : tensor<4x32xf32>) outs(%v0, %v0 : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32, %acc2: f32):
    %mx = arith.maximumf %in, %acc : f32
    %s = arith.addf %in, %acc2 : f32
    linalg.yield %mx, %s : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %sum, %m#0, %m#1, %short#0, %add#1 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Into 0-d results: the repeated init and the final reduction read the init
// through a map with no results, (d0) -> ().
// CHECK-DAG:   #[[NONE:.*]] = affine_map<(d0) -> ()>
// CHECK-DAG:   #[[ALL:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @argmax_to_scalar
// CHECK:         linalg.generic {indexing_maps = [#[[NONE]], #[[ALL]]], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[ALL]], #[[ALL]], #[[NONE]], #[[NONE]]], iterator_types = ["reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi32>) outs(%{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>)
// SPMD-LABEL:  func.func @argmax_to_scalar
// SPMD:          mesh.all_gather %{{.*}} on @mesh mesh_axes = [0] gather_axis = 0 : tensor<1xf32> -> tensor<2xf32>
// SPMD:          mesh.all_gather %{{.*}} on @mesh mesh_axes = [0] gather_axis = 0 : tensor<1xi32> -> tensor<2xi32>
// SPMD:          linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi32>) outs(%{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>)
#in = affine_map<(d0) -> (d0)>
#out = affine_map<(d0) -> ()>
mesh.mesh @mesh(shape = 2)
func.func @argmax_to_scalar(%x: tensor<32xf32>, %ids: tensor<32xi32>) -> (tensor<f32>, tensor<i32>) {
  %split = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sx = mesh.shard %x to %split : tensor<32xf32>
  %sids = mesh.shard %ids to %split : tensor<32xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<f32>
  %e1 = tensor.empty() : tensor<i32>
  %v0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %i0 = linalg.fill ins(%zero : i32) outs(%e1 : tensor<i32>) -> tensor<i32>
  %r:2 = linalg.generic {indexing_maps = [#in, #in, #out, #out], iterator_types = ["reduction"]} ins(%sx, %sids : tensor<32xf32>, tensor<32xi32>) outs(%v0, %i0 : tensor<f32>, tensor<i32>) {
  ^bb0(%in: f32, %id: i32, %acc: f32, %accid: i32):
    %gt = arith.cmpf ogt, %acc, %in : f32
    %eq = arith.cmpf oeq, %acc, %in : f32
    %lt = arith.cmpi slt, %accid, %id : i32
    %tie = arith.andi %eq, %lt : i1
    %keep = arith.ori %gt, %tie : i1
    %v = arith.select %gt, %acc, %in : f32
    %i = arith.select %keep, %accid, %id : i32
    linalg.yield %v, %i : f32, i32
  } -> (tensor<f32>, tensor<i32>)
  return %r#0, %r#1 : tensor<f32>, tensor<i32>
}

// -----

// Left alone: two outputs picking from one element (max and min of the same
// value; the final reduction could bind an element to one partial only),
// and two outputs indexed differently (transposed; the final reduction reads
// every partial through one map).
// CHECK-LABEL: func.func @left_alone_outputs
// CHECK-NOT:     tensor.expand_shape
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
#in3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d2)>
#cols = affine_map<(d0, d1, d2) -> (d2, d0)>
mesh.mesh @mesh(shape = 2x2)
func.func @left_alone_outputs(%x: tensor<4x32xf32>, %z: tensor<4x32x4xf32>, %v0: tensor<4xf32>, %w0: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %sx = mesh.shard %x to %cols : tensor<4x32xf32>
  %sz = mesh.shard %z to %cols : tensor<4x32x4xf32>
  %mm:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%sx : tensor<4x32xf32>) outs(%v0, %v0 : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %a: f32, %b: f32):
    %mx = arith.maxnumf %a, %in : f32
    %mn = arith.minnumf %b, %in : f32
    linalg.yield %mx, %mn : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  %t:2 = linalg.generic {indexing_maps = [#in3, #in3, #rows, #cols], iterator_types = ["parallel", "reduction", "parallel"]} ins(%sz, %sz : tensor<4x32x4xf32>, tensor<4x32x4xf32>) outs(%w0, %w0 : tensor<4x4xf32>, tensor<4x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %a: f32, %b: f32):
    %mx = arith.maxnumf %a, %in : f32
    %mn = arith.minnumf %b, %in2 : f32
    linalg.yield %mx, %mn : f32, f32
  } -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return %mm#0, %mm#1, %t#0, %t#1 : tensor<4xf32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
