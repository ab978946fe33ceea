"""Keeps bench/zoo_bench.py honest: its table's figures are those of the
programs behind them (our partitioned IR priced by `mesh-opt
--mesh-cost-report`, XLA's compiled HLO), and its HLO reader prices
collectives by the ring model."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import meshsdy

ROOT = Path(__file__).resolve().parents[3]
BENCH = ROOT / "bench" / "zoo_bench.py"
sys.path.insert(0, str(BENCH.parent))

#: A cell of a row: `all_reduce 1, all_gather 2 (640 B)`.
CELL = re.compile(r"^(?:XLA: |Megatron: )?(.*) \(([0-9]+) B\)( ✓| DISAGREES)?$")


def _cell(text: str) -> tuple[dict[str, int], int]:
    m = CELL.match(text.strip())
    assert m, text
    kinds = {} if m.group(1) == "none" else {k: int(n) for k, n in (p.rsplit(" ", 1) for p in m.group(1).split(", "))}
    return kinds, int(m.group(2))


def _mesh_collectives(ir_text: str) -> dict[str, int]:
    """The mesh collectives the partitioned IR holds, by kind."""
    kinds = ("all_gather", "all_reduce", "reduce_scatter", "all_to_all", "all_slice", "broadcast", "scatter",
             "gather", "reduce", "send", "shift", "update_halo")
    found = re.findall(rf"= mesh\.({'|'.join(kinds)}) ", ir_text)
    return dict(Counter(found))


def _cost_report_bytes(path: Path) -> int:
    """Total bytes sent per device by `mesh-opt --mesh-cost-report` (the C++
    model), summed over functions."""
    out = subprocess.run([str(Path(meshsdy.__file__).parent / "bin" / "mesh-opt"), "--mesh-cost-report",
                          str(path), "-o", "/dev/null"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return sum(int(b) for b in re.findall(r"^\s*total\s+[0-9]+\s+([0-9]+)$", out.stdout + out.stderr, re.MULTILINE))


@pytest.fixture(scope="module")
def bench_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[list[str]], Path]:
    """The bench on the JAX and the PyTorch MLP and the embedding's argmax:
    its rows (cells) and the programs it dumped."""
    directory = tmp_path_factory.mktemp("zoo_bench")
    proc = subprocess.run([sys.executable, str(BENCH), "--dump", str(directory), "mlp", "torch-mlp",
                           "embedding_argmax_one_hot"],
                          capture_output=True, text=True, timeout=900)
    # Exit 0: both rows move no more bytes than their reference.
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in proc.stdout.splitlines()
            if line.startswith("| ") and not line.startswith("| model")]
    assert [r[0] for r in rows] == ["mlp", "torch-mlp", "embedding_argmax_one_hot"]
    return rows, directory


def test_our_figures_are_those_of_the_partitioned_ir(bench_run: tuple[list[list[str]], Path]) -> None:
    rows, directory = bench_run
    for row in rows:
        for column, pipeline in ((1, "sdy"), (2, "mesh")):
            kinds, nbytes = _cell(row[column])
            path = directory / f"{row[0]}.{pipeline}.mlir"
            assert kinds == \
                _mesh_collectives(path.read_text()), (row[0], pipeline)
            assert nbytes == _cost_report_bytes(path), (row[0], pipeline)
        sdy_bytes, mesh_bytes = _cell(row[1])[1], _cell(row[2])[1]
        _, ref_bytes = _cell(row[3])
        ours, ref = (float(x) for x in row[4].split(" / "))
        assert ours == min(sdy_bytes, mesh_bytes) and ref == ref_bytes
        assert float(row[5]) == pytest.approx(ours / ref, abs=0.005)


def test_xla_figures_are_those_of_the_compiled_hlo(bench_run: tuple[list[list[str]], Path]) -> None:
    rows, directory = bench_run
    (row,) = [r for r in rows if r[0] == "mlp"]
    hlo = (directory / "mlp.xla.hlo").read_text()
    kinds, nbytes = _cell(row[3])
    assert kinds == {"all-reduce": len(re.findall(r"= \S+ all-reduce(?:-start)?\(", hlo))}
    # XLA and our sdy pipeline reduce the same f32[4,16] pieces over 'model':
    # the same ring price.
    assert kinds == {"all-reduce": 1} and nbytes == _cell(row[1])[1] == 2 * (2 - 1) / 2 * 4 * 16 * 4


def test_embedding_argmax_sends_what_xla_sends(bench_run: tuple[list[list[str]], Path]) -> None:
    """The ids are read where they lie and the argmax over the split
    vocabulary gathers only its (max, index) partials: XLA's two all-gathers
    of f32[2,8,1] and s32[2,8,1] pieces over 'model' (2112 bytes before)."""
    rows, directory = bench_run
    (row,) = [r for r in rows if r[0] == "embedding_argmax_one_hot"]
    assert _cell(row[1]) == ({"all_gather": 2}, 2 * (2 - 1) * 2 * 8 * 4)
    assert _cell(row[3]) == ({"all-gather": 2}, 2 * (2 - 1) * 2 * 8 * 4)
    assert "tensor<2x8x1xf32> -> tensor<2x8x2xf32>" in (directory / "embedding_argmax_one_hot.sdy.mlir").read_text()


def test_megatron_counts_one_all_reduce_per_row_parallel_layer(bench_run: tuple[list[list[str]], Path]) -> None:
    rows, _ = bench_run
    (row,) = [r for r in rows if r[0] == "torch-mlp"]
    # fc2 is row-parallel: its [8/2, 16] output is summed over 'model'.
    assert _cell(row[3]) == ({"all_reduce": 1}, 2 * (2 - 1) / 2 * 4 * 16 * 4)
    assert _cell(row[1])[0] == {"all_reduce": 1}


def test_hlo_reader_prices_each_replica_group_form() -> None:
    import zoo_bench

    hlo = "\n".join([
        "ENTRY %main (p: f32[4,8]) -> f32[8,8] {",
        "  %p = f32[4,8]{1,0} parameter(0)",
        "  %ag = f32[8,8]{1,0} all-gather(%p), replica_groups={{0,2},{1,3}}, dimensions={0}",
        "  %ar-start = f32[4,8]{1,0} all-reduce-start(%p), replica_groups=[1,4]<=[4], to_apply=%add",
        "  %ar-done = f32[4,8]{1,0} all-reduce-done(%ar-start)",
        "  %rs = f32[1,8]{1,0} reduce-scatter(%p), replica_groups=mesh['a'=2,'b'=2] {'a','b'}, dimensions={0}",
        "  %cp = f32[4,8]{1,0} collective-permute(%p), source_target_pairs={{0,1},{1,0}}",
        "  ROOT %a2a = (f32[4,8]{1,0}, s32[2]{0}) all-to-all(%p, %cp), replica_groups={{0,1}}",
        "}"])
    side = zoo_bench.xla_collectives(hlo, devices=4)
    assert side.collectives == {"all-gather": 1, "all-reduce": 1, "reduce-scatter": 1, "collective-permute": 1,
                                "all-to-all": 1}
    b = 4 * 8 * 4  # f32[4,8]
    # all-gather over 2: (2-1)b; all-reduce over 4: 2*3/4 b; reduce-scatter
    # over 'a','b' (4): 3/4 b; permute: b; all-to-all over 2 of both operands.
    assert side.bytes == pytest.approx(b + 1.5 * b + 0.75 * b + b + 0.5 * (b + b))


def test_a_row_with_a_same_layout_twin_passes_only_below_one_reference() -> None:
    """A PyTorch row whose Megatron count assumes another weight layout
    passes when it moves no more bytes than XLA on the same layout, and
    fails when it moves more than both; a disagreement always fails."""
    import zoo_bench
    from zoo_bench import Row, Side

    assert zoo_bench.SAME_LAYOUT_TWINS == {"hf-gpt2": "gpt2_fused_qkv"}

    def row(ours: float, megatron: float, xla: float | None, agrees: bool | None = None) -> Row:
        return Row("torch-x", "Megatron", Side({}, ours, agrees), Side({}, 2 * ours), Side({}, megatron),
                   None if xla is None else Side({}, xla), "twin" if xla is not None else "")

    assert row(100, 100, None).ok and not row(101, 100, None).ok
    assert row(140, 80, 160).ok and "1.75 (0.88 vs XLA)" in row(140, 80, 160).line()
    assert not row(170, 80, 160).ok
    assert not row(140, 80, 160, agrees=False).ok
