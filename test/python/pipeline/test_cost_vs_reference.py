"""The cost model (CostModel.h: the bytes a collective sends, the peak of
live tensor bytes) that SpmdReport and `mesh-opt --mesh-cost-report` share,
against the independent Python references of test/python/reference/: each
kind of collective on random meshes, shapes and element types, and the
report and peaks of random programs before and after partitioning.

The package keeps no Python copy of the model ("one model, one home"); the
references live here only to be compared with it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from mlir import ir
from reference import cost as ref_cost
from reference import memory as ref_memory
from sdy_programs import Generator
from test_spmd_edge_fuzz import edge_program

import meshsdy.pipeline as pipeline
from meshsdy.pipeline import cost

# -- cost model: collectives of every kind, checked one by one ---------------

ELEMENTS = ["f32", "f16", "bf16", "f64", "i1", "i8", "i12", "i32", "index"]


def _collective(rng: random.Random, name: str, shape: list[int], group: int,
                axes: list[int]) -> tuple[str, list[int]]:
    """The text of a valid collective `name` on %x of `shape`, and its result shape."""
    on = f"on @m mesh_axes = {axes}"
    root = f"root = {[0] * len(axes)}"
    dim = rng.randrange(len(shape))
    out = list(shape)
    if name in ("mesh.all_gather", "mesh.gather"):
        out[dim] *= group
        extra = f"gather_axis = {dim}" + (f" {root}" if name == "mesh.gather" else "")
    elif name in ("mesh.all_slice", "mesh.reduce_scatter", "mesh.scatter"):
        shape[dim] = out[dim] * group
        key = {"mesh.all_slice": "slice_axis", "mesh.reduce_scatter": "scatter_axis", "mesh.scatter": "scatter_axis"}
        extra = f"{key[name]} = {dim}" + (f" {root}" if name == "mesh.scatter" else "")
    elif name == "mesh.all_to_all":
        concat = rng.randrange(len(shape))
        if concat == dim:
            shape[dim] = out[dim] = out[dim] * group
            extra = f"split_axis = {dim} concat_axis = {dim}"
        else:
            shape[dim] = out[dim] * group
            out[concat] *= group
            extra = f"split_axis = {dim} concat_axis = {concat}"
    elif name in ("mesh.broadcast", "mesh.reduce"):
        extra = root
    elif name == "mesh.send":
        extra = f"destination = {[0] * len(axes)}"
    elif name == "mesh.shift":
        extra = f"shift_axis = {axes[0]} offset = 1"
    else:  # all_reduce
        extra = ""
    return f"{on} {extra}", out


def random_collectives(seed: int) -> str:
    """A module with one function of random collectives on a random mesh,
    static and dynamic operands, and update_halos."""
    rng = random.Random(seed)
    mesh_shape = [rng.choice([1, 2, 3, 4]) for _ in range(rng.randint(1, 3))]
    dynamic_axis = rng.random() < 0.15
    shape_text = "x".join("?" if dynamic_axis and i == 0 else str(s) for i, s in enumerate(mesh_shape))
    lines = [f"mesh.mesh @m(shape = {shape_text})", "func.func @f() {"]
    for k in range(12):
        element = rng.choice(ELEMENTS)
        rank = rng.randint(1, 3)
        if rng.random() < 0.2:
            static = [rng.randint(0, 4) for _ in range(rank)]
            split = [[a] for a in range(min(rank, len(mesh_shape)))] + [[]] * max(0, rank - len(mesh_shape))
            widths = [rng.randint(0, 2) for _ in range(2 * sum(1 for s in split if s))]
            t = f"tensor<{'x'.join(map(str, static))}x{element}>"
            lines.append(f"  %h{k} = tensor.empty() : {t}")
            lines.append(f"  %u{k} = mesh.update_halo %h{k} on @m split_axes = {split} halo_sizes = {widths} : {t}")
            continue
        axes = rng.sample(range(len(mesh_shape)), rng.randint(1, len(mesh_shape)))
        if dynamic_axis:
            name = rng.choice(["mesh.all_reduce", "mesh.broadcast", "mesh.send", "mesh.reduce", "mesh.shift"])
        else:
            name = rng.choice(sorted(ref_cost.RING_FACTOR))
        group = 1
        for a in axes:
            group *= mesh_shape[a]
        shape = [rng.randint(1, 3) for _ in range(rank)]
        attrs, out = _collective(rng, name, shape, group, axes)
        dynamic = rng.random() < 0.2 and name == "mesh.all_reduce"
        dims = ["?" if dynamic and i == 0 else str(s) for i, s in enumerate(shape)]
        t_in = f"tensor<{'x'.join(dims)}x{element}>"
        t_out = f"tensor<{'x'.join('?' if dynamic and i == 0 else str(s) for i, s in enumerate(out))}x{element}>"
        if dynamic:
            lines.append(f"  %n{k} = arith.constant {shape[0]} : index")
            lines.append(f"  %x{k} = tensor.empty(%n{k}) : {t_in}")
        else:
            lines.append(f"  %x{k} = tensor.empty() : {t_in}")
        rooted = name in ("mesh.broadcast", "mesh.gather", "mesh.scatter", "mesh.reduce", "mesh.send")
        types = f"({t_in}) -> {t_out}" if rooted else f"{t_in} -> {t_out}"
        lines.append(f"  %c{k} = {name} %x{k} {attrs} : {types}")
    lines += ["  return", "}"]
    return "\n".join(lines)


def _priced_ops(module: ir.Module) -> list[ir.Operation]:
    found = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name in ref_cost.RING_FACTOR or op.name == "mesh.update_halo":
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


@pytest.mark.parametrize("seed", range(60))
def test_collective_cost_matches_reference(seed: int) -> None:
    rng = random.Random(1000 + seed)
    with ir.Context():
        module = ir.Module.parse(random_collectives(seed))
        shapes = pipeline._mesh_shapes(module)
        for op in _priced_ops(module):
            assert cost.is_priced_collective(op)
            operand = ir.RankedTensorType(op.operands[0].type)
            static = list(operand.shape) if operand.has_static_shape else [-1] * operand.rank
            assert cost.collective_bytes_sent(op) == ref_cost.bytes_sent(op, static, shapes)
            # A caller's bound on the operand (the largest uneven piece).
            bound = [rng.randint(0, 9) for _ in range(operand.rank)]
            assert cost.collective_bytes_sent(op, bound) == ref_cost.bytes_sent(op, bound, shapes)
            assert cost.collective_bytes_sent(op, bound + [1]) is None  # another rank
        report = pipeline.collective_report(module)
        counts, sent, unsized = ref_cost.collective_report(module, shapes)
        assert (report.collectives, report.bytes_sent_per_device, report.unsized_collectives) == (counts, sent, unsized)


def test_ring_factors_match_reference() -> None:
    for name, factor in ref_cost.RING_FACTOR.items():
        for group in range(1, 9):
            assert cost.ring_factor(name, group) == factor(group)
    assert cost.ring_factor("mesh.update_halo", 2) is None
    with pytest.raises(ValueError, match="group size must be positive"):
        cost.ring_factor("mesh.all_reduce", 0)


# -- cost model and peak memory on random partitioned programs -------------


def _compare_peaks(module: ir.Module) -> None:
    ours = cost.peak_bytes_by_function(module.operation)
    for op in module.body.operations:
        if op.operation.name == "func.func" and op.operation.regions[0].blocks:
            name = ir.StringAttr(op.attributes["sym_name"]).value
            assert ours[name] == ref_memory.peak_live_tensor_bytes(op.operation), name


def _check_program(text: str) -> bool:
    """Compares peaks before and after partitioning, and the report; False
    if partitioning refused the program."""
    with ir.Context():
        module = ir.Module.parse(text)
        _compare_peaks(module)  # sdy programs: sharding constraints are aliases
        bounds: dict = {}
        try:
            report = pipeline.spmdize(module, extra_passes={"after-propagation": [
                lambda op, _: bounds.update(pipeline.report.argument_bounds(op))]})
        except ir.MLIRError:
            return False
        _compare_peaks(module)
        counts, sent, unsized = ref_cost.collective_report(module, pipeline._mesh_shapes(module), bounds)
        assert (report.collectives, report.bytes_sent_per_device, report.unsized_collectives) == (counts, sent, unsized)
    return True


# The seeds test_fuzz_counts.py runs in this process's stead (none aborts).
SEEDS = range(40)


def test_random_mesh_programs_match_reference() -> None:
    checked = sum(_check_program(edge_program(random.Random(seed), extended=True)) for seed in SEEDS)
    assert checked >= 20


def test_random_sdy_programs_match_reference() -> None:
    checked = sum(_check_program(Generator(seed, extended=True).program().ours_text) for seed in SEEDS)
    assert checked >= 20


def test_examples_match_reference() -> None:
    root = Path(__file__).resolve().parents[3]
    for path in sorted((root / "examples").glob("*.mlir")):
        assert _check_program(path.read_text()), path.name
