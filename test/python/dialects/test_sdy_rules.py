"""The sharding rules of random linalg.generic ops describe the op: every
factor has its loop's size, every tensor dimension the size of its factor,
reduction factors are exactly the reduction loops, and the rule verifies."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401

LETTERS = "ijklmnopqrstuvwxyz"


@st.composite
def generics(draw: st.DrawFn) -> tuple[str, list[int], list[str], list[list[int]], int]:
    """A linalg.generic with 1-4 loops, 1-2 inputs (each a random subset of
    the loops, in random order) and one output over the parallel loops."""
    loops = draw(st.lists(st.integers(1, 6), min_size=1, max_size=4))
    n = len(loops)
    iterators = [draw(st.sampled_from(["parallel", "reduction"])) for _ in loops]
    if "parallel" not in iterators:
        iterators[0] = "parallel"
    parallel = [d for d in range(n) if iterators[d] == "parallel"]
    inputs = []
    for _ in range(draw(st.integers(1, 2))):
        dims = draw(st.permutations(range(n)))
        keep = draw(st.integers(0, n))
        inputs.append(list(dims[:keep]))
    # Every reduction loop must be read by some input.
    for d in range(n):
        if iterators[d] == "reduction" and not any(d in dims for dims in inputs):
            inputs[0].append(d)
    maps = inputs + [parallel]
    t = lambda dims: f"tensor<{'x'.join(str(loops[d]) for d in dims)}{'x' if dims else ''}f32>"  # noqa: E731
    amap = lambda dims: f"affine_map<({', '.join(f'd{d}' for d in range(n))}) -> ({', '.join(f'd{d}' for d in dims)})>"  # noqa: E731
    args = ", ".join(f"%a{i}: {t(dims)}" for i, dims in enumerate(inputs))
    source = f"""
func.func @f({args}, %out: {t(parallel)}) -> {t(parallel)} {{
  %0 = linalg.generic {{indexing_maps = [{', '.join(amap(m) for m in maps)}],
      iterator_types = [{', '.join(f'"{it}"' for it in iterators)}]}}
      ins({', '.join(f'%a{i}' for i in range(len(inputs)))} : {', '.join(t(d) for d in inputs)})
      outs(%out : {t(parallel)}) {{
  ^bb0({', '.join(f'%x{i}: f32' for i in range(len(inputs)))}, %o: f32):
    linalg.yield %o : f32
  }} -> {t(parallel)}
  return %0 : {t(parallel)}
}}"""
    return source, loops, iterators, maps, len(inputs)


@settings(max_examples=60, deadline=None)
@given(generics())
def test_generic_rule_matches_loops(case: tuple[str, list[int], list[str], list[list[int]], int]) -> None:
    source, loops, iterators, maps, num_inputs = case
    with ir.Context():
        module = ir.Module.parse(source)
        PassManager.parse("builtin.module(func.func(sdy-populate-op-sharding-rules))").run(module.operation)
        generic = next(op for op in module.body.operations[0].regions[0].blocks[0].operations
                       if op.operation.name == "linalg.generic")
        rule = generic.attributes["sdy.sharding_rule"]
        text = str(rule)
        assert generic.operation.verify()
    # One factor per loop, named in loop order, of the loop's size.
    sizes = ", ".join(f"{LETTERS[d]}={size}" for d, size in enumerate(loops))
    assert f"{{{sizes}}}" in text, text
    # Each tensor maps its dims to the factors of the loops indexing them.
    mapping = lambda dims: "[" + ", ".join(LETTERS[d] for d in dims) + "]"  # noqa: E731
    operands = ",".join(mapping(m) for m in maps)
    assert text.startswith(f"#sdy.op_sharding_rule<({operands})->({mapping(maps[-1])})"), text
    reductions = [LETTERS[d] for d in range(len(loops)) if iterators[d] == "reduction"]
    if reductions:
        assert f"reduction={{{', '.join(reductions)}}}" in text, text
    else:
        assert "reduction" not in text
