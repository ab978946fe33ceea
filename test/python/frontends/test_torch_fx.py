"""`frontends/_torch_fx.insert_call`, the node insertion the torch.export
rewrites share: a new node keeps the source metadata of the node it is
inserted for, but gets its own fake value (given or computed), never that
node's `val` or `tensor_meta` (torch-mlir types a node from `tensor_meta`
first)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from meshsdy.frontends._torch_fx import insert_call  # noqa: E402


class _Fmod(torch.nn.Module):
    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return torch.fmod(x, y)


def _program() -> tuple[object, object, object]:
    """An exported fmod of a 3x4 f32 by a 4-vector: its graph, the fmod node and y."""
    program = torch.export.export(_Fmod(), (torch.ones(3, 4), torch.ones(4))).run_decompositions({})
    graph = program.graph_module.graph
    fmod = next(n for n in graph.nodes if n.op == "call_function")
    y = next(n for n in graph.nodes if n.op == "placeholder" and n.name == "y")
    return graph, fmod, y


def test_the_fake_value_is_the_calls_own() -> None:
    graph, fmod, y = _program()
    assert "tensor_meta" in fmod.meta and tuple(fmod.meta["val"].shape) == (3, 4)
    node = insert_call(graph, fmod, torch.ops.aten.abs.default, (y,))
    assert tuple(node.meta["val"].shape) == (4,)
    assert "tensor_meta" not in node.meta
    # The source metadata stays: the inserted node reads as the user's line.
    assert node.meta.get("stack_trace") == fmod.meta.get("stack_trace")
    assert node.meta.get("nn_module_stack") == fmod.meta.get("nn_module_stack")
    assert list(graph.nodes).index(node) < list(graph.nodes).index(fmod)


def test_a_given_fake_value_and_keyword_arguments() -> None:
    graph, fmod, y = _program()
    wide = fmod.meta["val"].to(torch.float64)
    node = insert_call(graph, fmod, torch.ops.aten._to_copy.default, (fmod.args[0],), {"dtype": torch.float64},
                       val=wide)
    assert node.meta["val"] is wide and node.kwargs == {"dtype": torch.float64}
    # A call with no tensor argument takes the fake mode of the node it is inserted for.
    full = insert_call(graph, fmod, torch.ops.aten.full.default, ([], 0.5), {"dtype": torch.float64})
    assert full.meta["val"].dtype == torch.float64 and full.meta["val"].shape == ()
    assert type(full.meta["val"]).__name__ == "FakeTensor"
