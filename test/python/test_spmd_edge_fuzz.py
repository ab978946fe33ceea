"""Random programs in the shapes of the bugs issue 13 found: annotations
that contradict a reduction, uneven and empty pieces through every reshape,
slice, pad and concat model, rank-0 values, and meshes of 2^20 devices.
Each is partitioned with the verifier on after every pass and run in the
simulator: partitioned == original, or a diagnostic that names what is
unsupported or contradictory. Never invalid IR, never a wrong answer."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mlir import ir

import meshsdy.pipeline as pipeline

#: How each generated case ended, for the closing note's figures (printed
#: with `pytest -s`).
OUTCOMES: Counter[str] = Counter()
EXPECTED_DIAGNOSTICS = ("unsupported", "partial", "contradict")

OPS = ["collapse", "expand", "slice", "concat", "pad", "transpose", "reduce_max", "reduce_to_scalar", "matmul"]


def _result(draw: st.DrawFn, rank: int) -> str:
    return draw(st.sampled_from(["[[]]", "[[0]]"] if rank else ["[[]]"]))


@st.composite
def edge_programs(draw: st.DrawFn) -> str:
    devices = draw(st.sampled_from([2, 3, 4]))
    rows = draw(st.integers(1, 7))
    cols = draw(st.sampled_from([2, 4, 6]))
    op = draw(st.sampled_from(OPS))
    split = draw(st.sampled_from(["[[0]]", "[[], [0]]", "[[]]"]))
    x = f"tensor<{rows}x{cols}xf32>"
    lines = [
        f"mesh.mesh @mesh(shape = {devices})",
        "func.func @f(%x: X, %w: tensor<COLSx2xf32>) -> RESULT {".replace("X", x).replace("COLS", str(cols)),
        f"  %sx = mesh.sharding @mesh split_axes = {split} : !mesh.sharding",
        f"  %xs = mesh.shard %x to %sx : {x}",
        "  %zero = arith.constant 0.0 : f32",
    ]
    if op == "collapse":
        out = f"tensor<{rows * cols}xf32>"
        lines.append(f"  %y = tensor.collapse_shape %xs [[0, 1]] : {x} into {out}")
    elif op == "expand":
        out = f"tensor<{rows}x2x{cols // 2}xf32>"
        lines.append(f"  %y = tensor.expand_shape %xs [[0], [1, 2]] output_shape [{rows}, 2, {cols // 2}] : {x} into {out}")
    elif op == "slice":
        size = max(rows - 1, 1)
        out = f"tensor<{size}x{cols}xf32>"
        lines.append(f"  %y = tensor.extract_slice %xs[{rows - size}, 0] [{size}, {cols}] [1, 1] : {x} to {out}")
    elif op == "concat":
        out = f"tensor<{2 * rows}x{cols}xf32>"
        lines.append(f"  %y = tensor.concat dim(0) %xs, %xs : ({x}, {x}) -> {out}")
    elif op == "pad":
        out = f"tensor<{rows + 1}x{cols + 1}xf32>"
        lines.append(f"  %y = tensor.pad %xs low[1, 0] high[0, 1] {{\n  ^bb0(%i: index, %j: index):\n"
                     f"    tensor.yield %zero : f32\n  }} : {x} to {out}")
    elif op == "transpose":
        out = f"tensor<{cols}x{rows}xf32>"
        lines.append(f"  %e = tensor.empty() : {out}")
        lines.append(f"  %y = linalg.transpose ins(%xs : {x}) outs(%e : {out}) permutation = [1, 0]")
    elif op == "reduce_max":
        out = f"tensor<{cols}xf32>"
        lines.append("  %ninf = arith.constant -3.0e+38 : f32")
        lines.append(f"  %e = tensor.empty() : {out}")
        lines.append(f"  %f = linalg.fill ins(%ninf : f32) outs(%e : {out}) -> {out}")
        lines.append(f"  %y = linalg.reduce ins(%xs : {x}) outs(%f : {out}) dimensions = [0]\n"
                     "    (%a: f32, %b: f32) {\n      %m = arith.maximumf %a, %b : f32\n      linalg.yield %m : f32\n    }")
    elif op == "reduce_to_scalar":
        out = "tensor<f32>"
        lines.append("  %e = tensor.empty() : tensor<f32>")
        lines.append("  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>")
        lines.append(f"  %y = linalg.reduce ins(%xs : {x}) outs(%f : tensor<f32>) dimensions = [0, 1]\n"
                     "    (%a: f32, %b: f32) {\n      %m = arith.addf %a, %b : f32\n      linalg.yield %m : f32\n    }")
    else:  # matmul, maybe with a partial annotation that contradicts it
        out = f"tensor<{rows}x2xf32>"
        lines.append("  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding")
        lines.append(f"  %ws = mesh.shard %w to %sw : tensor<{cols}x2xf32>")
        lines.append(f"  %e = tensor.empty() : {out}")
        lines.append(f"  %f = linalg.fill ins(%zero : f32) outs(%e : {out}) -> {out}")
        lines.append(f"  %m = linalg.matmul ins(%xs, %ws : {x}, tensor<{cols}x2xf32>) outs(%f : {out}) -> {out}")
        kind = draw(st.sampled_from([None, "sum", "max", "min"]))
        if kind is None:
            lines.append("  %y = math.absf %m : " + out)
        else:
            lines.append(f"  %sp = mesh.sharding @mesh split_axes = [[]] partial = {kind} [0] : !mesh.sharding")
            lines.append(f"  %mp = mesh.shard %m to %sp : {out}")
            lines.append(f"  %y = math.absf %mp : {out}")
    rank = out.count("x")
    lines.append(f"  %sr = mesh.sharding @mesh split_axes = {_result(draw, rank)} : !mesh.sharding")
    lines.append(f"  %yr = mesh.shard %y to %sr : {out}")
    lines.append(f"  return %yr : {out}")
    lines.append("}")
    return "\n".join(lines).replace("RESULT", out) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edge_programs(), st.sampled_from(pipeline.TRAVERSALS))
def test_edge_programs_agree_or_are_diagnosed(source: str, traversal: str) -> None:
    try:
        # The PassManager verifies after every pass: invalid IR from any pass
        # is an MLIRError without one of the expected diagnostics.
        comparison = pipeline.partition_and_compare(source, "f", traversal=traversal, seed=1)
    except ir.MLIRError as error:
        text = str(error) + " ".join(str(d) for d in getattr(error, "error_diagnostics", []))
        assert any(word in text for word in EXPECTED_DIAGNOSTICS), (text, source)
        OUTCOMES["diagnosed"] += 1
        return
    assert comparison.agrees(), (comparison.max_abs_error, source, comparison.partitioned)
    OUTCOMES["agree"] += 1


HUGE = """
mesh.mesh @mesh(shape = DEVICES)
func.func @f(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %y = linalg.exp ins(%xs : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %yr = mesh.shard %y to %r annotate_for_users : tensor<6x4xf32>
  %c = tensor.collapse_shape %yr [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %back = tensor.expand_shape %c [[0, 1]] output_shape [6, 4] : tensor<24xf32> into tensor<6x4xf32>
  %s2 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %b2 = mesh.shard %back to %s2 : tensor<6x4xf32>
  return %b2 : tensor<6x4xf32>
}
"""


def test_ir_size_is_flat_in_the_number_of_devices() -> None:
    """Uneven pieces over 2^20 and 2^21 devices partition to the same
    number of ops (the per-device work is index arithmetic), in every
    lowering."""
    for lower_to in (None, "mesh", "mpi"):
        counts = []
        for devices in (1 << 20, 1 << 21):
            with ir.Context():
                module = ir.Module.parse(HUGE.replace("DEVICES", str(devices)))
                pipeline.spmdize(module, lower_to=lower_to)
                ops = 0

                def count(op: ir.Operation) -> ir.WalkResult:
                    nonlocal ops
                    ops += 1
                    return ir.WalkResult.ADVANCE

                module.operation.walk(count)
                counts.append((ops, len(str(module))))
        assert counts[0][0] == counts[1][0] and counts[0][0] < 100, counts
        assert abs(counts[0][1] - counts[1][1]) < 200, counts
