"""sdy attributes from Python: build every kind, inspect it, round-trip it."""

from __future__ import annotations

import pytest
from mlir import ir

from meshsdy.dialects import sdy


def reparse(attr: ir.Attribute) -> ir.Attribute:
    """Parses the printed form of `attr` back (must give the same attribute)."""
    again = ir.Attribute.parse(str(attr))
    assert again == attr
    return again


def test_sub_axis_and_axis_ref(ctx: ir.Context) -> None:
    info = sdy.SubAxisInfoAttr.get(2, 4)
    assert (info.pre_size, info.size) == (2, 4)
    assert str(info) == "#sdy<sub_axis_info(2)4>"
    full = sdy.AxisRefAttr.get("a")
    assert full.name == "a" and full.sub_axis_info is None
    sub = sdy.AxisRefAttr.get("c", sub_axis_info=(1, 2))
    assert sub.name == "c"
    assert isinstance(sub.sub_axis_info, sdy.SubAxisInfoAttr)
    assert (sub.sub_axis_info.pre_size, sub.sub_axis_info.size) == (1, 2)
    reparse(sub)


def test_axis_ref_lists(ctx: ir.Context) -> None:
    refs = sdy.AxisRefListAttr.get(["a", sdy.AxisRefAttr.get("b", sub_axis_info=(1, 2))])
    assert str(refs) == '#sdy<axis_ref_list{"a", "b":(1)2}>'
    assert [r.name for r in refs.value] == ["a", "b"]
    lists = sdy.ListOfAxisRefListsAttr.get([["a"], [], refs])
    assert str(lists) == '#sdy<list_of_axis_ref_lists[{"a"}, {}, {"a", "b":(1)2}]>'
    assert len(lists.value) == 3 and lists.value[2] == refs
    reparse(lists)


def test_dimension_sharding(ctx: ir.Context) -> None:
    dim = sdy.DimensionShardingAttr.get(["a"], is_closed=False, priority=1)
    assert str(dim) == '#sdy.dimension_sharding<{"a", ?}p1>'
    assert not dim.is_closed and dim.priority == 1
    assert [a.name for a in dim.axes] == ["a"]
    closed = sdy.DimensionShardingAttr.get([])
    assert closed.is_closed and closed.priority is None
    assert str(closed) == "#sdy.dimension_sharding<{}>"
    reparse(dim)


def test_tensor_sharding_issue_example(ctx: ir.Context) -> None:
    sharding = sdy.TensorShardingAttr.get("mesh", [["a"], []], replicated=["c"])
    assert str(sharding) == '#sdy.sharding<@mesh, [{"a"}, {}], replicated={"c"}>'
    assert str(sharding.mesh_or_ref) == "@mesh"
    assert [len(d.axes) for d in sharding.dimension_shardings] == [1, 0]
    assert [a.name for a in sharding.replicated_axes] == ["c"]
    assert sharding.unreduced_axes == []
    reparse(sharding)


def test_tensor_sharding_all_parts(ctx: ir.Context) -> None:
    open_dim = sdy.DimensionShardingAttr.get(["a"], is_closed=False, priority=1)
    sharding = sdy.TensorShardingAttr.get(
        "mesh", [open_dim, []], replicated=["c"], unreduced=["d"]
    )
    assert str(sharding) == (
        '#sdy.sharding<@mesh, [{"a", ?}p1, {}], replicated={"c"}, unreduced={"d"}>'
    )
    assert [a.name for a in sharding.unreduced_axes] == ["d"]
    reparse(sharding)


def test_tensor_sharding_inline_mesh(ctx: ir.Context) -> None:
    mesh = sdy.MeshAttr.get({"x": 2})
    sharding = sdy.TensorShardingAttr.get(mesh, [["x"]])
    assert str(sharding) == '#sdy.sharding<mesh<["x"=2]>, [{"x"}]>'
    assert sharding.mesh_or_ref == mesh
    maximal = sdy.TensorShardingAttr.get(sdy.MeshAttr.get([], device_ids=[3]), [])
    assert str(maximal) == "#sdy.sharding<mesh<[], device_ids=[3]>, []>"


def test_tensor_sharding_invalid(ctx: ir.Context) -> None:
    bad = sdy.DimensionShardingAttr.get([], priority=2)
    with pytest.raises(ValueError, match="dim 0 is closed and has no axes but has a priority"):
        sdy.TensorShardingAttr.get("mesh", [bad])
    with pytest.raises(TypeError):
        sdy.TensorShardingAttr.get(3, [])
    with pytest.raises(TypeError):
        sdy.TensorShardingAttr.get("mesh", [[1]])


def test_sharding_per_value_and_manual_axes(ctx: ir.Context) -> None:
    a = sdy.TensorShardingAttr.get("mesh", [["a"]])
    b = sdy.TensorShardingAttr.get("mesh", [])
    per_value = sdy.TensorShardingPerValueAttr.get([a, b])
    assert str(per_value) == '#sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, []>]>'
    assert per_value.shardings == [a, b]
    reparse(per_value)
    with pytest.raises(TypeError):
        sdy.TensorShardingPerValueAttr.get([ir.UnitAttr.get()])
    manual = sdy.ManualAxesAttr.get(["a", "b"])
    assert str(manual) == '#sdy<manual_axes{"a", "b"}>'
    assert manual.value == ["a", "b"]
    reparse(manual)


def test_op_sharding_rule(ctx: ir.Context) -> None:
    rule = sdy.OpShardingRuleAttr.get(
        [8, 4, 16], [[[0], [1]], [[1], [2]]], [[[0], [2]]], reduction_factors=[1]
    )
    assert str(rule) == (
        "#sdy.op_sharding_rule<([i, j],[j, k])->([i, k]) {i=8, j=4, k=16} reduction={j}>"
    )
    assert rule.factor_sizes == [8, 4, 16]
    assert rule.reduction_factors == [1]
    assert rule.need_replication_factors == [] and not rule.is_custom
    assert [m.dim_mappings[0].factor_indices for m in rule.operand_mappings] == [[0], [1]]
    assert len(rule.result_mappings) == 1
    reparse(rule)


def test_op_sharding_rule_every_group(ctx: ir.Context) -> None:
    null = sdy.DimMappingAttr.get([])
    compound = sdy.DimMappingAttr.get([0, 1])
    assert str(null) == "#sdy.dim_mapping<*>" and str(compound) == "#sdy.dim_mapping<ij>"
    mapping = sdy.TensorMappingAttr.get([compound, [2], null])
    assert str(mapping) == "#sdy<tensor_mapping[ij, k, *]>"
    rule = sdy.OpShardingRuleAttr.get(
        [2, 4, 8, 1],
        [mapping],
        [[[0], [1], [2], [3]]],
        reduction_factors=[3],
        need_replication_factors=[2],
        permutation_factors=[1],
        blocked_propagation_factors=[0, 2],
        is_custom=True,
    )
    assert str(rule) == (
        "#sdy.op_sharding_rule<([ij, k, *])->([i, j, k, l]) {i=2, j=4, k=8, l=1} "
        "reduction={l} need_replication={k} permutation={j} blocked_propagation={i, k}, custom>"
    )
    assert rule.is_custom and rule.blocked_propagation_factors == [0, 2]
    assert rule.permutation_factors == [1]
    reparse(rule)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(factor_sizes=[8], operand_mappings=[], result_mappings=[]), "at least one operand or result mapping"),
        (dict(factor_sizes=[8], operand_mappings=[[[1]]], result_mappings=[]), "factor index 1 is out of range"),
        (
            dict(factor_sizes=[8, 8], operand_mappings=[[[0], [1]]], result_mappings=[], reduction_factors=[1], permutation_factors=[1]),
            "factor 'j' is both reduction and permutation",
        ),
    ],
)
def test_op_sharding_rule_invalid(ctx: ir.Context, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sdy.OpShardingRuleAttr.get(**kwargs)


def test_all_to_all_params(ctx: ir.Context) -> None:
    first = sdy.AllToAllParamAttr.get(["b"], 0, 2)
    second = sdy.AllToAllParamAttr.get(["c"], 1, 3)
    assert (first.src_dim, first.tgt_dim) == (0, 2)
    assert [a.name for a in first.axes] == ["b"]
    params = sdy.AllToAllParamListAttr.get([first, second])
    assert str(params) == '#sdy<all_to_all_param_list[{"b"}: 0->2, {"c"}: 1->3]>'
    assert params.value == [first, second]
    reparse(params)


def test_propagation_edges(ctx: ir.Context) -> None:
    source = sdy.EdgeValueRefAttr.get("operand", 0)
    assert (source.node_type, source.index) == ("operand", 0)
    assert str(source) == "#sdy<edge_value_ref operand-0>"
    details = sdy.AxisToPropagationDetailsAttr.get("a", source, [("result", 0), ("result", 1)])
    assert details.axis_name.name == "a" and details.source == source
    assert [t.node_type for t in details.targets] == ["result", "result"]
    step = sdy.PropagationOneStepAttr.get(0, [details])
    assert step.step_index == 0 and step.axis_entries == [details]
    edges = sdy.PropagationEdgesAttr.get([step])
    assert str(edges) == (
        '#sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0, result-1]}]}]>'
    )
    assert edges.value == [step]
    reparse(edges)
    with pytest.raises(ValueError):
        sdy.EdgeValueRefAttr.get("input", 0)


def test_parsed_attributes_are_downcast(ctx: ir.Context) -> None:
    attr = ir.Attribute.parse('#sdy.sharding<@m, [{"a"}], unreduced={"b"}>')
    assert isinstance(attr, sdy.TensorShardingAttr)
    assert isinstance(attr.dimension_shardings[0], sdy.DimensionShardingAttr)
    assert isinstance(attr.dimension_shardings[0].axes[0], sdy.AxisRefAttr)
    assert not sdy.TensorShardingAttr.isinstance(ir.UnitAttr.get())


def test_enums(ctx: ir.Context) -> None:
    assert [d.name for d in sdy.PropagationDirection] == ["NONE", "FORWARD", "BACKWARD", "BOTH"]
    assert int(sdy.EdgeNodeType.RESULT) == 1
