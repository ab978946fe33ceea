// RUN: mesh-opt -allow-unregistered-dialect %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @in_shardings_count(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op in_shardings shardings don't match number of operands: 0 != 1}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[] out_shardings=[<@mesh, [{}]>] manual_axes={} (%arg1: tensor<16xf32>) {
    sdy.return %arg1 : tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @out_shardings_count(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op out_shardings shardings don't match number of results: 2 != 1}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>, <@mesh, [{}]>] manual_axes={} (%arg1: tensor<16xf32>) {
    sdy.return %arg1 : tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @block_arg_count(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op number of block arguments doesn't match the number of operands: 2 != 1}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={} (%arg1: tensor<16xf32>, %arg2: tensor<16xf32>) {
    sdy.return %arg1 : tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @returned_count(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op number of returned values doesn't match the number of results: 2 != 1}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={} (%arg1: tensor<16xf32>) {
    sdy.return %arg1, %arg1 : tensor<16xf32>, tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @in_sharding_invalid(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op in_shardings operand 0 - sharding doesn't match tensor rank: 2 != 1}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {}]>] out_shardings=[<@mesh, [{}]>] manual_axes={} (%arg1: tensor<16xf32>) {
    sdy.return %arg1 : tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @manual_after_free(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand 0 - manual axis "a" comes after free axis "b" in dim 0}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b", "a"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @manual_axes_padding(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand 0 - dim 0 of size 3 is not divisible by the size of its manual axes 2}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%arg1: tensor<1xf32>) {
    sdy.return %arg1 : tensor<1xf32>
  } : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @local_type_operand(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand 0 - expected local type 'tensor<8xf32>', got 'tensor<16xf32>'}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%arg1: tensor<16xf32>) {
    sdy.return %arg1 : tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @local_type_result(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op result 0 - expected local type 'tensor<16xf32>', got 'tensor<8xf32>'}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"b"}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @unknown_manual_axis(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op unknown manual axis "c"}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"c"} (%arg1: tensor<16xf32>) {
    sdy.return %arg1 : tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @manual_axes_not_ordered(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op manual axes are not ordered w.r.t. the mesh: "b" comes before "a"}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"b", "a"} (%arg1: tensor<16xf32>) {
    sdy.return %arg1 : tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @duplicate_manual_axis(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op duplicate manual axis "a"}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a", "a"} (%arg1: tensor<16xf32>) {
    sdy.return %arg1 : tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @mesh2 = <["a"=2, "b"=2]>

func.func @different_meshes(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op all in/out shardings must be bound to the same mesh: @mesh != @mesh2}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh2, [{}]>] manual_axes={} (%arg1: tensor<16xf32>) {
    sdy.return %arg1 : tensor<16xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @unranked_needs_same_local_type(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op operand 0 - expected local type 'tensor<*xf32>', got 'tensor<4xf32>'}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, []>] out_shardings=[<@mesh, []>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    %1 = tensor.cast %arg1 : tensor<4xf32> to tensor<*xf32>
    sdy.return %1 : tensor<*xf32>
  } : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @wrong_terminator(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'sdy.manual_computation' op expects regions to end with 'sdy.return', found 'test.end'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'sdy.return'}}
  %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<mesh<["a"=2]>, [{"a"}]>]>, out_shardings = #sdy.sharding_per_value<[<mesh<["a"=2]>, [{}]>]>, manual_axes = #sdy<manual_axes{"a"}>}> ({
  ^bb0(%a: tensor<4xf32>):
    "test.end"() : () -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @manual_axis_used_inside(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    // expected-error @+1 {{'sdy.sharding_constraint' op axis "a" is manual in an enclosing sdy.manual_computation}}
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{"a"}]> : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @manual_axis_in_nested_op_sharding(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    // expected-error @+1 {{'math.tanh' op 'sdy.sharding' result 0 - axis "a" is manual in an enclosing sdy.manual_computation}}
    %1 = math.tanh %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], replicated={"a"}>]>} : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
