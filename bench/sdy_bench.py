"""Our `sdy-propagation-pipeline` against Shardy's, in the same run.

The program is the MLP JAX lowers for `L` layers of `tanh(x @ w + b)`
(batch 64, 256 features) on a mesh data=2 x model=4, the input split on
its batch over `data`, every weight on its columns and every bias over
`model`. We run ours on the upstream-ops form (linalg.matmul,
linalg.broadcast, arith.addf, math.tanh) and Shardy (jaxlib, in a child
process) on the StableHLO form (dot_general, broadcast_in_dim, add, tanh);
both times are the pass pipeline alone (parsing excluded), best of
`--repeat`. Then our pipeline alone on about 10k and 100k ops, for its
scaling (linear: a ratio of about 10), and the same for the whole way to
per-device code (`sdy-spmdize-pipeline`).

    .venv/bin/python bench/sdy_bench.py [--layers 1000] [--repeat 3] [--no-scaling]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401  (registers dialects and passes)

MESH = 'sdy.mesh @mesh = <["data"=2, "model"=4]>'
X = '{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}'
W = '{sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}'
B = '{sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}'
T = "tensor<64x256xf32>"
TW = "tensor<256x256xf32>"
TB = "tensor<256xf32>"


def _signature(layers: int) -> str:
    args = [f"%x: {T} {X}"]
    for i in range(layers):
        args += [f"%w{i}: {TW} {W}", f"%b{i}: {TB} {B}"]
    return f"func.func @main({', '.join(args)}) -> {T} {{"


def mlp_ours(layers: int) -> str:
    """The MLP in upstream ops."""
    lines = [MESH, _signature(layers), "  %zero = arith.constant 0.0 : f32"]
    prev = "%x"
    for i in range(layers):
        lines += [
            f"  %e{i} = tensor.empty() : {T}",
            f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : {T}) -> {T}",
            f"  %m{i} = linalg.matmul ins({prev}, %w{i} : {T}, {TW}) outs(%f{i} : {T}) -> {T}",
            f"  %be{i} = tensor.empty() : {T}",
            f"  %bb{i} = linalg.broadcast ins(%b{i} : {TB}) outs(%be{i} : {T}) dimensions = [0]",
            f"  %a{i} = arith.addf %m{i}, %bb{i} : {T}",
            f"  %t{i} = math.tanh %a{i} : {T}",
        ]
        prev = f"%t{i}"
    lines += [f"  return {prev} : {T}", "}"]
    return "\n".join(lines)


def mlp_stablehlo(layers: int) -> str:
    """The same MLP as JAX lowers it to StableHLO."""
    lines = [MESH, _signature(layers)]
    prev = "%x"
    for i in range(layers):
        lines += [
            f"  %m{i} = stablehlo.dot_general {prev}, %w{i}, contracting_dims = [1] x [0] : ({T}, {TW}) -> {T}",
            f"  %bb{i} = stablehlo.broadcast_in_dim %b{i}, dims = [1] : ({TB}) -> {T}",
            f"  %a{i} = stablehlo.add %m{i}, %bb{i} : {T}",
            f"  %t{i} = stablehlo.tanh %a{i} : {T}",
        ]
        prev = f"%t{i}"
    lines += [f"  return {prev} : {T}", "}"]
    return "\n".join(lines)


def time_ours(text: str, repeat: int, verify: bool = True,
              pipeline: str = "sdy-propagation-pipeline") -> tuple[float, str]:
    """Best time of our `pipeline` (parsing excluded) and its result."""
    best, result = float("inf"), ""
    for _ in range(repeat):
        with ir.Context():
            module = ir.Module.parse(text)
            pm = PassManager.parse(f"builtin.module({pipeline})")
            pm.enable_verifier(verify)
            start = time.perf_counter()
            pm.run(module.operation)
            best = min(best, time.perf_counter() - start)
            result = str(module)
    return best, result


_SHARDY = r"""
import json, sys, time
from jax._src.lib.mlir import ir, passmanager
from jax._src.interpreters import mlir as jmlir
text, repeat, verify = sys.stdin.read(), int(sys.argv[1]), sys.argv[2] == "1"
best, result = float("inf"), ""
for _ in range(repeat):
    with jmlir.make_ir_context():
        module = ir.Module.parse(text)
        pm = passmanager.PassManager.parse("builtin.module(sdy-propagation-pipeline)")
        pm.enable_verifier(verify)
        start = time.perf_counter()
        pm.run(module.operation)
        best = min(best, time.perf_counter() - start)
        result = str(module)
print(json.dumps({"seconds": best, "result": result}))
"""


def time_shardy(text: str, repeat: int, verify: bool = True) -> tuple[float, str] | None:
    """Best time of Shardy's pipeline in jaxlib, or None without jax."""
    try:
        import jax  # noqa: F401
    except ImportError:
        return None
    proc = subprocess.run([sys.executable, "-c", _SHARDY, str(repeat), "1" if verify else "0"], input=text,
                          capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    out = json.loads(proc.stdout)
    return out["seconds"], out["result"]


def check_same_shardings(ours: str, theirs: str, layers: int) -> None:
    """Both give every layer's activation [{"data"}, {"model"}]."""
    want = '[{"data"}, {"model"}]'
    for name, text in (("ours", ours), ("shardy", theirs)):
        count = sum(1 for line in text.splitlines()
                    if ("math.tanh" in line or "stablehlo.tanh" in line) and want in line)
        if count != layers:
            raise AssertionError(f"{name}: {count} of {layers} tanh results sharded {want}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layers", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-scaling", action="store_true")
    args = parser.parse_args()

    print(f"MLP, {args.layers} layers, sdy-propagation-pipeline (best of {args.repeat}, parsing excluded):")
    for verify in (True, False):
        ours_s, ours_out = time_ours(mlp_ours(args.layers), args.repeat, verify)
        shardy = time_shardy(mlp_stablehlo(args.layers), args.repeat, verify)
        label = "verifier after each pass (default)" if verify else "verifier off"
        print(f" {label}:")
        print(f"  meshsdy (upstream ops)      {ours_s * 1e3:9.1f} ms")
        if shardy is None:
            print("  Shardy (jaxlib)             not installed")
            continue
        shardy_s, shardy_out = shardy
        check_same_shardings(ours_out, shardy_out, args.layers)
        print(f"  Shardy (jaxlib, stablehlo)  {shardy_s * 1e3:9.1f} ms")
        print(f"  ratio meshsdy / Shardy      {ours_s / shardy_s:9.2f}  (same shardings on all {args.layers} layers)")
    if args.no_scaling:
        return
    # 7 ops per layer: about 10k and 100k ops.
    small_s, _ = time_ours(mlp_ours(1430), 1)
    large_s, _ = time_ours(mlp_ours(14300), 1)
    print("Scaling of meshsdy's pipeline on the MLP:")
    print(f"  ~10k ops   {small_s * 1e3:9.1f} ms")
    print(f"  ~100k ops  {large_s * 1e3:9.1f} ms")
    print(f"  ratio 100k / 10k  {large_s / small_s:.1f}  (linear: about 10)")
    # The whole way to per-device code: propagation, explicit reshards,
    # collectives, the bridge to mesh, mesh-spmdization and cleanups.
    small_s, small_out = time_ours(mlp_ours(1430), 1, pipeline="sdy-spmdize-pipeline")
    large_s, _ = time_ours(mlp_ours(14300), 1, pipeline="sdy-spmdize-pipeline")
    gathers = small_out.count("mesh.all_gather ")
    if gathers != 1429 or "mesh.all_reduce" in small_out:
        raise AssertionError(f"expected one all_gather per layer after the first, got {gathers}")
    print("sdy-spmdize-pipeline (to per-device code) on the MLP:")
    print(f"  ~10k ops   {small_s * 1e3:9.1f} ms  (1429 all_gathers, no all_reduce)")
    print(f"  ~100k ops  {large_s * 1e3:9.1f} ms")
    print(f"  ratio 100k / 10k  {large_s / small_s:.1f}  (linear: about 10)")


if __name__ == "__main__":
    main()
