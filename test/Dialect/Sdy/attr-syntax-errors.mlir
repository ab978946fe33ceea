// RUN: mesh-opt %s -split-input-file -verify-diagnostics
// Every error path of the custom attribute parsers (AttrSyntax.cpp).

// expected-error @+1 {{expected an axis name (a quoted string)}}
func.func @axis_name_not_string() attributes {x = #sdy.sharding<@mesh, [{a}]>} {
  return
}

// -----

// expected-error @+1 {{expected '('}}
func.func @sub_axis_missing_paren() attributes {x = #sdy.sharding<@mesh, [{"a":1 2}]>} {
  return
}

// -----

// expected-error @+1 {{expected integer value}}
func.func @sub_axis_missing_pre_size() attributes {x = #sdy.sharding<@mesh, [{"a":()2}]>} {
  return
}

// -----

// expected-error @+1 {{expected ')'}}
func.func @sub_axis_missing_rparen() attributes {x = #sdy.sharding<@mesh, [{"a":(1 2)}]>} {
  return
}

// -----

// expected-error @+1 {{expected a mesh symbol name (@mesh) or an inlined mesh (mesh<[...]>)}}
func.func @mesh_or_ref() attributes {x = #sdy.sharding<"mesh", [{}]>} {
  return
}

// -----

// expected-error @+1 {{expected '='}}
func.func @inlined_mesh_body() attributes {x = #sdy.sharding<mesh<["a"]>, [{}]>} {
  return
}

// -----

// expected-error @+1 {{expected '}'}}
func.func @dim_sharding_missing_rbrace() attributes {x = #sdy.sharding<@mesh, [{"a" "b"}]>} {
  return
}

// -----

// expected-error @+1 {{expected '}'}}
func.func @dim_sharding_open_not_last() attributes {x = #sdy.sharding<@mesh, [{?, "a"}]>} {
  return
}

// -----

// expected-error @+1 {{expected '{'}}
func.func @dim_sharding_not_braced() attributes {x = #sdy.sharding<@mesh, ["a"]>} {
  return
}

// -----

// expected-error @+1 {{expected a priority 'p<N>', got 'q1'}}
func.func @priority_keyword() attributes {x = #sdy.sharding<@mesh, [{"a"}q1]>} {
  return
}

// -----

// expected-error @+1 {{expected a priority 'p<N>', got 'px'}}
func.func @priority_not_a_number() attributes {x = #sdy.sharding<@mesh, [{"a"}px]>} {
  return
}

// -----

// expected-error @+1 {{expected integer value}}
func.func @priority_missing_number() attributes {x = #sdy.sharding<@mesh, [{"a"}p]>} {
  return
}

// -----

// expected-error @+1 {{expected 'replicated' or 'unreduced'}}
func.func @replicated_keyword() attributes {x = #sdy.sharding<@mesh, [{}], replica={"a"}>} {
  return
}

// -----

// expected-error @+1 {{expected 'unreduced'}}
func.func @unreduced_after_replicated() attributes {x = #sdy.sharding<@mesh, [{}], replicated={"a"}, replicated={"b"}>} {
  return
}

// -----

// expected-error @+1 {{expected '='}}
func.func @replicated_missing_equal() attributes {x = #sdy.sharding<@mesh, [{}], replicated{"a"}>} {
  return
}

// -----

// expected-error @+1 {{expected a mesh symbol name (@mesh) or an inlined mesh (mesh<[...]>)}}
func.func @per_value_element() attributes {x = #sdy.sharding_per_value<[<@mesh, [{}]>, <"m", []>]>} {
  return
}

// -----

// expected-error @+1 {{expected factor names ('i' to 'z', then 'z_1', 'z_2', ...), got 'a'}}
func.func @factor_name() attributes {x = #sdy.op_sharding_rule<([a])->([a]) {a=2}>} {
  return
}

// -----

// expected-error @+1 {{expected factor names ('i' to 'z', then 'z_1', 'z_2', ...), got 'z_'}}
func.func @factor_name_z_without_number() attributes {x = #sdy.op_sharding_rule<([z_])->([i]) {i=2}>} {
  return
}

// -----

// expected-error @+1 {{expected factor names ('i' to 'z', then 'z_1', 'z_2', ...), got 'z_0'}}
func.func @factor_name_z_0() attributes {x = #sdy.op_sharding_rule<([z_0])->([i]) {i=2}>} {
  return
}

// -----

// expected-error @+1 {{expected a factor name or '*'}}
func.func @dim_mapping_not_a_name() attributes {x = #sdy.op_sharding_rule<([1])->([i]) {i=2}>} {
  return
}

// -----

// expected-error @+1 {{expected '->'}}
func.func @mapping_missing_arrow() attributes {x = #sdy.op_sharding_rule<([i]) ([i]) {i=2}>} {
  return
}

// -----

// expected-error @+1 {{expected factor 'i' next in the factor sizes, got 'j'}}
func.func @factor_sizes_order() attributes {x = #sdy.op_sharding_rule<([i, j])->([i, j]) {j=2, i=2}>} {
  return
}

// -----

// expected-error @+1 {{expected a single factor name, got 'ij'}}
func.func @factor_size_compound() attributes {x = #sdy.op_sharding_rule<([ij])->([ij]) {ij=2}>} {
  return
}

// -----

// expected-error @+1 {{expected a factor name}}
func.func @factor_size_missing_name() attributes {x = #sdy.op_sharding_rule<([i])->([i]) {=2}>} {
  return
}

// -----

// expected-error @+1 {{expected integer value}}
func.func @factor_size_missing_value() attributes {x = #sdy.op_sharding_rule<([i])->([i]) {i=}>} {
  return
}

// -----

// expected-error @+1 {{expected a single factor name, got 'ij'}}
func.func @reduction_compound() attributes {x = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=2} reduction={ij}>} {
  return
}

// -----

// expected-error @+1 {{expected '='}}
func.func @reduction_missing_equal() attributes {x = #sdy.op_sharding_rule<([i])->([i]) {i=2} reduction{i}>} {
  return
}

// -----

// expected-error @+1 {{expected 'custom'}}
func.func @custom_keyword() attributes {x = #sdy.op_sharding_rule<([i])->([i]) {i=2}, user>} {
  return
}

// -----

// expected-error @+1 {{expected '>'}}
func.func @groups_out_of_order() attributes {x = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=2} permutation={i} reduction={j}>} {
  return
}

// -----

// expected-error @+1 {{expected ':'}}
func.func @all_to_all_missing_colon() attributes {x = #sdy<all_to_all_param_list[{"a"} 0->1]>} {
  return
}

// -----

// expected-error @+1 {{expected '->'}}
func.func @all_to_all_missing_arrow() attributes {x = #sdy<all_to_all_param_list[{"a"}: 0 1]>} {
  return
}

// -----

// expected-error @+1 {{expected an axis name (a quoted string)}}
func.func @manual_axes_not_strings() attributes {x = #sdy<manual_axes{a}>} {
  return
}

// -----

// expected-error @+1 {{expected '{'}}
func.func @axis_ref_list_not_braced() attributes {x = #sdy<axis_ref_list["a"]>} {
  return
}

// -----

// expected-error @+1 {{expected 'operand-<N>' or 'result-<N>'}}
func.func @edge_value_ref() attributes {x = #sdy.propagation_edges<[{step-0 = [{"a" = input-0 -> []}]}]>} {
  return
}

// -----

// expected-error @+1 {{expected '-'}}
func.func @edge_value_ref_missing_minus() attributes {x = #sdy.propagation_edges<[{step-0 = [{"a" = operand 0 -> []}]}]>} {
  return
}

// -----

// expected-error @+1 {{expected 'operand-<N>' or 'result-<N>'}}
func.func @edge_targets() attributes {x = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [output-1]}]}]>} {
  return
}

// -----

// expected-error @+1 {{expected factor names ('i' to 'z', then 'z_1', 'z_2', ...), got 'a'}}
func.func @dim_mapping_standalone() attributes {x = #sdy.dim_mapping<a>} {
  return
}

// -----

// expected-error @+1 {{expected '>'}}
func.func @dimension_sharding_standalone() attributes {x = #sdy.dimension_sharding<{"a"}, 1>} {
  return
}

// -----

// expected-error @+1 {{expected integer value}}
func.func @mesh_axis_size() attributes {x = #sdy.mesh<["a"=x]>} {
  return
}

// -----

// expected-error @+1 {{expected an axis name (a quoted string)}}
func.func @mesh_axis_name() attributes {x = #sdy.mesh<[a=2]>} {
  return
}

// -----

// expected-error @+1 {{expected integer value}}
func.func @mesh_device_ids() attributes {x = #sdy.mesh<["a"=2], device_ids=[x]>} {
  return
}

// -----

// expected-error @+1 {{expected 'device_ids'}}
func.func @mesh_device_ids_keyword() attributes {x = #sdy.mesh<["a"=2], devices=[0]>} {
  return
}

// -----

// expected-error @+1 {{expected integer value}}
func.func @sub_axis_info_standalone() attributes {x = #sdy<sub_axis_info(x)2>} {
  return
}

// -----

// expected-error @+1 {{expected integer value}}
func.func @edge_value_ref_index() attributes {x = #sdy<edge_value_ref operand-x>} {
  return
}

// -----

// expected-error @+1 {{expected 'operand-<N>' or 'result-<N>'}}
func.func @edge_value_ref_kind() attributes {x = #sdy<edge_value_ref foo-1>} {
  return
}

// -----

// expected-error @+1 {{expected integer value}}
func.func @step_index() attributes {x = #sdy<propagation_one_step{step-x = []}>} {
  return
}
