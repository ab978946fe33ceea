"""meshsdy's native runs against JAX on the CPU, in one run: for each model
and 1, 2 and 4 ranks, the program written in JAX with Megatron-style
shardings on a 1-D mesh 'model' of that many devices is lowered by JAX,
imported by meshsdy (meshsdy.frontends.from_stablehlo), partitioned and run
on that many MPI ranks (meshsdy.run; one thread per rank, as its default,
or --threads N, or --threads auto = cores / ranks), and run by
jax.jit on as many host devices (--xla_force_host_platform_device_count)
with the same shardings.

Columns: our compile time (building the shared object, cache off; in
parentheses the CPU seconds the tools used: on a loaded machine the wall
time is mostly waiting for a core), our run
time (slowest rank, fastest of --calls calls; in parentheses that call's
CPU seconds on the slowest rank, MPI's spinning waits included), JAX's (fastest of --calls
calls after a warm-up; in parentheses the CPU seconds of all its threads), ours / JAX,
the same ratio in CPU seconds (ours summed over the ranks: what each costs
the machine, which the load of a shared machine changes less), our GFLOP/s (XLA's flop count of the
global program) and its share of the machine's peak (cores x clock x f32
flops a cycle, see peak_gflops). With --runs R the whole table is
measured R times and each cell shows the range.

    .venv/bin/python bench/run_bench.py [--models mlp,mlp-large,block] [--ranks 1,2,4] [--runs 3]

Models: `mlp` (4 layers, batch 256, 512 features, tanh), `mlp-large` (4
layers, batch 1024, 1024 features), `block` (a transformer block: layer
norm, 4-head causal attention, exact GELU MLP; batch 4, 128 tokens, 512
features, hidden 2048), `gpt2` (the zoo's GPT-2, examples/frontends/
jax_gpt2.py: fused q/k/v, 4 heads, 2 blocks, tanh GELU, tied head; batch
4, 128 tokens, width 512, vocabulary 2048; the fused q/k/v split over
'model' gives a device q and part of k, which both sides re-lay). All
f32 (the tokens int32) but `mlp-bf16` (`mlp` in bf16: both sides compute
its dots in f32 and round once). `cnn` (the zoo's CNN, examples/frontends/
jax_cnn.py: batch 16 of 32x32x3 images, 64 then 128 channels), `cumsum`,
`embedding`, `fori_loop` (the zoo's, at the sizes their functions give).
A model with several outputs: the largest difference over all of them.
XLA's flop count takes a loop's body once: fori_loop's GFLOP/s are 1/8 of
the work done.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np

_FLAG = "--xla_force_host_platform_device_count=4"
if _FLAG not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + _FLAG).strip()

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "frontends"))
import jax_cnn  # noqa: E402
import jax_cumsum  # noqa: E402
import jax_embedding  # noqa: E402
import jax_gpt2  # noqa: E402
from jax_attention import attention  # noqa: E402
from jax_transformer import layer_norm  # noqa: E402


@dataclass
class Model:
    """A JAX function, its inputs, and each input's PartitionSpec on the
    1-D mesh 'model' (the output is replicated)."""

    name: str
    fn: Callable[..., jax.Array]
    inputs: list[np.ndarray]
    specs: list[PartitionSpec]


def mlp_model(name: str, batch: int, features: int, layers: int = 4, dtype: type = np.float32) -> Model:
    """Megatron-style: even layers' weights split on columns, odd on rows."""

    def mlp(x: jax.Array, *ws: jax.Array) -> jax.Array:
        for w in ws:
            x = jnp.tanh(x @ w)
        return x

    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal((batch, features)).astype(dtype)]
    inputs += [(rng.standard_normal((features, features)) / np.sqrt(features)).astype(dtype)
               for _ in range(layers)]
    specs = [PartitionSpec()] + [PartitionSpec(None, "model") if i % 2 == 0 else PartitionSpec("model", None)
                                 for i in range(layers)]
    return Model(name, mlp, inputs, specs)


def block_model(batch: int = 4, tokens: int = 128, features: int = 512, hidden: int = 2048) -> Model:
    """The zoo's transformer block (examples/frontends/jax_transformer.py)
    at benchmark size; heads and hidden features over 'model'."""

    def block(x, g1, b1, wq, wk, wv, wo, g2, b2, w1, w2):  # noqa: ANN001, ANN202
        h = x + attention(layer_norm(x, g1, b1), wq, wk, wv, wo)
        return h + jax.nn.gelu(layer_norm(h, g2, b2) @ w1, approximate=False) @ w2

    rng = np.random.default_rng(2)
    normal = lambda *s: (rng.standard_normal(s) / np.sqrt(s[0])).astype(np.float32)  # noqa: E731
    f = features
    inputs = [rng.standard_normal((batch, tokens, f)).astype(np.float32),
              np.ones(f, np.float32), np.zeros(f, np.float32), normal(f, f), normal(f, f), normal(f, f),
              normal(f, f), np.ones(f, np.float32), np.zeros(f, np.float32), normal(f, hidden), normal(hidden, f)]
    col, row, rep = PartitionSpec(None, "model"), PartitionSpec("model", None), PartitionSpec()
    return Model("block", block, inputs, [rep, rep, rep, col, col, col, row, rep, rep, col, row])


def gpt2_model(batch: int = 4, tokens: int = 128, width: int = 512, vocab: int = 2048) -> Model:
    """The zoo's GPT-2 (examples/frontends/jax_gpt2.py: Hugging Face's
    layout, one fused q/k/v weight, 4 heads, 2 blocks, tanh GELU, the head
    tied to the token table) at benchmark size. Its Megatron shardings on
    'model' (c_attn and c_fc on their output features, both c_proj on
    their input features); tokens and tables replicated."""
    rng = np.random.default_rng(7)
    normal = lambda *s: (rng.standard_normal(s) * 0.2 / np.sqrt(s[0])).astype(np.float32)  # noqa: E731
    shapes = {"attn.c_attn.w": (width, 3 * width), "attn.c_attn.b": (3 * width,), "attn.c_proj.w": (width, width),
              "mlp.c_fc.w": (width, 4 * width), "mlp.c_fc.b": (4 * width,), "mlp.c_proj.w": (4 * width, width)}
    col, row, rep = PartitionSpec(None, "model"), PartitionSpec("model", None), PartitionSpec()
    specs_by_name = {"attn.c_attn.w": col, "attn.c_attn.b": PartitionSpec("model"), "attn.c_proj.w": row,
                     "mlp.c_fc.w": col, "mlp.c_fc.b": PartitionSpec("model"), "mlp.c_proj.w": row}
    inputs = [rng.integers(0, vocab, (batch, tokens)).astype(np.int32), normal(vocab, width), normal(tokens, width)]
    specs = [rep, rep, rep]
    for _ in range(jax_gpt2.LAYERS):
        for name in jax_gpt2.BLOCK_PARAMETERS:
            if name.endswith(".g"):
                inputs.append(np.ones(width, np.float32))
            else:
                inputs.append(normal(*shapes.get(name, (width,))))
            specs.append(specs_by_name.get(name, rep))
    inputs += [np.ones(width, np.float32), np.zeros(width, np.float32)]
    specs += [rep, rep]
    return Model("gpt2", jax_gpt2.gpt2, inputs, specs)


def cnn_model(batch: int = 16, size: int = 32, channels: int = 64, features: int = 128) -> Model:
    """The zoo's CNN (examples/frontends/jax_cnn.py: a 3x3 SAME
    convolution, a 3x3 stride-2 VALID one, ReLUs, a global average pool, a
    dense head) at benchmark size, the first convolution's output channels
    and the second's input channels over 'model'."""
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal((batch, size, size, 3)).astype(np.float32),
              (rng.standard_normal((3, 3, 3, channels)) / 3).astype(np.float32),
              (rng.standard_normal((3, 3, channels, features)) / np.sqrt(9 * channels)).astype(np.float32),
              rng.standard_normal((features, 10)).astype(np.float32)]
    rep = PartitionSpec()
    return Model("cnn", jax_cnn.cnn, inputs,
                 [rep, PartitionSpec(None, None, None, "model"), PartitionSpec(None, None, "model", None), rep])


def cumsum_model(rows: int = 1024, cols: int = 1024) -> Model:
    """The zoo's cumsums (examples/frontends/jax_cumsum.py: along each axis,
    two outputs), rows over 'model'."""
    x = np.random.default_rng(6).standard_normal((rows, cols)).astype(np.float32)
    return Model("cumsum", jax_cumsum.cumsums, [x], [PartitionSpec("model", None)])


def embedding_model(tokens: int = 4096, vocab: int = 1024, width: int = 512) -> Model:
    """The zoo's embedding, argmax and one-hot (examples/frontends/
    jax_embedding.py) with a vocabulary of 1024 (the zoo's has 32): a table
    lookup, logits against an output matrix split on its columns over
    'model', their argmax and its one-hot."""
    rng = np.random.default_rng(3)
    inputs = [rng.integers(0, vocab, (tokens // 128, 128)).astype(np.int32),
              rng.standard_normal((vocab, width)).astype(np.float32),
              (rng.standard_normal((width, vocab)) / np.sqrt(width)).astype(np.float32)]
    return Model("embedding", jax_embedding.embed_and_pick, inputs,
                 [PartitionSpec(), PartitionSpec(), PartitionSpec(None, "model")])


def fori_loop_model(batch: int = 512, features: int = 1024, steps: int = 8) -> Model:
    """The zoo's recurrence (examples/frontends/jax_fori_loop.py: a
    `fori_loop` of tanh(h @ w) + i / 10, the trip count an input), the
    weight's columns over 'model'."""

    def recurrence(h: jax.Array, w: jax.Array, n: jax.Array) -> jax.Array:
        return jax.lax.fori_loop(0, n, lambda i, s: jnp.tanh(s @ w) + i.astype(s.dtype) / 10, h)

    rng = np.random.default_rng(4)
    inputs = [rng.standard_normal((batch, features)).astype(np.float32),
              (rng.standard_normal((features, features)) / np.sqrt(features)).astype(np.float32),
              np.array(steps, np.int32)]
    return Model("fori_loop", recurrence, inputs, [PartitionSpec(), PartitionSpec(None, "model"), PartitionSpec()])


def sort_model(rows: int = 16, vocab: int = 8192) -> Model:
    """Sorting next-token logits, as top-p sampling does (`jnp.sort` and
    `jnp.argsort` along a vocabulary), rows over 'model'. The front doors
    write a sort as a rank count; the runner sorts it in n log n
    (meshsdy.run.sort)."""

    def sorts(x: jax.Array) -> tuple[jax.Array, jax.Array]:
        return jnp.sort(x, axis=1), jnp.argsort(x, axis=1)

    x = np.random.default_rng(8).standard_normal((rows, vocab)).astype(np.float32)
    return Model("sort", sorts, [x], [PartitionSpec("model", None)])


MODELS: dict[str, Callable[[], Model]] = {
    "mlp": lambda: mlp_model("mlp", 256, 512),
    "mlp-large": lambda: mlp_model("mlp-large", 1024, 1024),
    "mlp-bf16": lambda: mlp_model("mlp-bf16", 256, 512, dtype=ml_dtypes.bfloat16),
    "block": block_model,
    "gpt2": gpt2_model,
    "cnn": cnn_model,
    "cumsum": cumsum_model,
    "embedding": embedding_model,
    "fori_loop": fori_loop_model,
    "sort": sort_model,
}


@dataclass
class Row:
    model: str
    ranks: int
    compile_s: float
    compile_cpu_s: float
    run_s: float
    run_cpu_s: float
    total_cpu_s: float
    jax_s: float
    jax_cpu_s: float
    flops: float
    max_diff: float


def _jax(model: Model, ranks: int, calls: int) -> tuple[str, float, float, float, list[np.ndarray]]:
    """JAX's StableHLO text of the model sharded on `ranks` devices, its
    flop count, the fastest of `calls` timed calls and the CPU seconds this
    process (all of JAX's threads) used in it, and its output."""
    mesh = Mesh(np.array(jax.devices()[:ranks]), ("model",))
    shardings = [NamedSharding(mesh, s) for s in model.specs]
    jitted = jax.jit(model.fn, in_shardings=shardings, out_shardings=NamedSharding(mesh, PartitionSpec()))
    args = [jax.device_put(x, s) for x, s in zip(model.inputs, shardings, strict=True)]
    lowered = jitted.lower(*args)
    compiled = lowered.compile()
    out = jax.block_until_ready(compiled(*args))
    best, best_cpu = float("inf"), 0.0
    for _ in range(calls):
        start, cpu = time.perf_counter(), time.process_time()
        jax.block_until_ready(compiled(*args))
        if time.perf_counter() - start < best:
            best, best_cpu = time.perf_counter() - start, time.process_time() - cpu
    return lowered.as_text(), _flops(model), best, best_cpu, [np.asarray(o) for o in jax.tree.leaves(out)]


def _flops(model: Model) -> float:
    """XLA's flop count of the unsharded program."""
    cost = jax.jit(model.fn).lower(*model.inputs).compile().cost_analysis()
    cost = cost[0] if isinstance(cost, list) else cost
    return float(cost.get("flops", 0.0))


def _ours(text: str, model: Model, ranks: int, calls: int, threads: int
          ) -> tuple[float, float, float, float, float, list[np.ndarray]]:
    """Our compile time (cache off; wall and CPU seconds) and run time (slowest rank, fastest of
    `calls` calls) of JAX's program, and our output."""
    import meshsdy.run as mpirun
    from meshsdy.frontends import from_stablehlo
    from mlir import ir

    with ir.Context():
        source = str(from_stablehlo(text))
    timings: list[dict[str, float]] = []
    outs = mpirun.run(source, "main", model.inputs, ranks=ranks, timings=timings, cache=False,
                        repeats=calls, timeout=900, threads=threads)
    return (max(t["compile_s"] for t in timings), max(t["compile_cpu_s"] for t in timings),
            max(t["run_s"] for t in timings), max(t["run_cpu_s"] for t in timings),
            sum(t["run_cpu_s"] for t in timings), outs)


def threads_for(ranks: int, threads: str) -> int:
    """Threads per rank: `threads`, or with "auto" cores / ranks (at least 1)."""
    return max(1, (os.cpu_count() or 1) // ranks) if threads == "auto" else int(threads)


def measure(name: str, ranks: int, calls: int, threads: int) -> Row:
    model = MODELS[name]()
    text, flops, jax_s, jax_cpu_s, want = _jax(model, ranks, calls)
    compile_s, compile_cpu_s, run_s, run_cpu_s, total_cpu_s, got = _ours(text, model, ranks, calls, threads)
    if len(got) != len(want):
        raise RuntimeError(f"{name}: {len(got)} outputs, JAX gave {len(want)}")
    diff = max(float(np.max(np.abs(g.astype(np.float64) - w), initial=0)) for g, w in zip(got, want))
    return Row(name, ranks, compile_s, compile_cpu_s, run_s, run_cpu_s, total_cpu_s, jax_s, jax_cpu_s, flops, diff)


def peak_gflops() -> float:
    """cores x clock x f32 flops a cycle: 64 with AVX-512 (two 16-wide FMA
    units), 32 with AVX2 and FMA (two 8-wide), else 8. An upper bound:
    some AVX-512 parts have one FMA unit, and the clock of /proc/cpuinfo is
    the nominal one."""
    mhz, flags = 0.0, set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("cpu MHz"):
                mhz = max(mhz, float(line.split(":")[1]))
            elif line.startswith("flags"):
                flags |= set(line.split(":")[1].split())
    except OSError:
        pass
    per_cycle = 64 if "avx512f" in flags else 32 if {"avx2", "fma"} <= flags else 8
    return (os.cpu_count() or 1) * (mhz or 2000.0) / 1000 * per_cycle


def _span(values: list[float], fmt: str) -> str:
    lo, hi = min(values), max(values)
    return format(lo, fmt) if f"{lo:{fmt}}" == f"{hi:{fmt}}" else f"{lo:{fmt}}-{hi:{fmt}}"


def table(runs: list[list[Row]], peak: float) -> str:
    lines = [f"| model | ranks | compile s (CPU s) | run s (CPU s) | JAX s (CPU s) | ours / JAX | "
             f"ours / JAX in CPU s | GFLOP/s | % of peak ({peak:.0f}) | speed-up vs 1 rank | max diff vs JAX |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for i, row in enumerate(runs[0]):
        cells = [r[i] for r in runs]
        base = [next(x for x in r if x.model == row.model and x.ranks == 1) for r in runs]
        gflops = [c.flops / c.run_s / 1e9 for c in cells]
        lines.append(
            f"| {row.model} | {row.ranks} | {_span([c.compile_s for c in cells], '.2f')} "
            f"({_span([c.compile_cpu_s for c in cells], '.2f')}) | "
            f"{_span([c.run_s for c in cells], '.4f')} ({_span([c.run_cpu_s for c in cells], '.4f')}) | {_span([c.jax_s for c in cells], '.4f')} "
            f"({_span([c.jax_cpu_s for c in cells], '.4f')}) | {_span([c.run_s / c.jax_s for c in cells], '.2f')} | "
            f"{_span([c.total_cpu_s / c.jax_cpu_s for c in cells], '.2f')} | {_span(gflops, '.1f')} | "
            f"{_span([100 * g / peak for g in gflops], '.0f')} | "
            f"{_span([b.run_s / c.run_s for b, c in zip(base, cells)], '.2f')}x | "
            f"{max(c.max_diff for c in cells):.2g} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--runs", type=int, default=1, help="measure the whole table this many times")
    parser.add_argument("--threads", default="1",
                        help="threads per rank (the BLAS's): a number (default 1), or auto = cores / ranks")
    parser.add_argument("--calls", type=int, default=10,
                        help="timed calls per measurement (the fastest counts; this machine's noise comes in bursts)")
    args = parser.parse_args()
    names = args.models.split(",")
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"unknown models {unknown}; expected some of {list(MODELS)}")
    counts = [int(r) for r in args.ranks.split(",")]
    if 1 not in counts:
        counts = [1] + counts
    runs = []
    for run in range(args.runs):
        rows = []
        for name in names:
            for ranks in counts:
                row = measure(name, ranks, args.calls, threads_for(ranks, args.threads))
                print(f"# run {run + 1}: {name} on {ranks}: compile {row.compile_s:.2f} s, run {row.run_s:.4f} s, "
                      f"JAX {row.jax_s:.4f} s", file=sys.stderr, flush=True)
                rows.append(row)
        runs.append(rows)
    per_rank = ", ".join(f"{r} rank{'s' if r > 1 else ''}: {threads_for(r, args.threads)}" for r in counts)
    print(f"{os.cpu_count()} cores; threads per rank ({per_rank}); JAX on as many host devices as ranks")
    print(table(runs, peak_gflops()))


if __name__ == "__main__":
    main()
