"""A larger MLP run natively on MPI ranks: 1 rank unpartitioned, 2 and 4
ranks partitioned (Megatron-style: odd layers' weights split on columns,
even layers' on rows, so each pair of layers needs one all_reduce).
Prints, per rank count, the JIT compile time and the run time (slowest
rank), the bytes each rank sends (meshsdy.pipeline's cost model) and the
speed-up of the run over 1 rank. This machine has 2 cores.

    .venv/bin/python bench/run_bench.py [--batch 1024] [--features 1024] [--layers 8]
"""

from __future__ import annotations

import argparse

import numpy as np
from mlir import ir

import meshsdy.pipeline as pipeline
import meshsdy.run as mpirun


def mlp(batch: int, features: int, layers: int, devices: int) -> str:
    t, tw = f"tensor<{batch}x{features}xf32>", f"tensor<{features}x{features}xf32>"
    args = ", ".join([f"%x: {t}"] + [f"%w{i}: {tw}" for i in range(layers)])
    lines = [f"mesh.mesh @mesh(shape = {devices})", f"func.func @mlp({args}) -> {t} {{",
             "  %zero = arith.constant 0.0 : f32",
             "  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding",
             "  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding"]
    prev = "%x"
    for i in range(layers):
        split = "%cols" if i % 2 == 0 else "%rows"
        lines += [
            f"  %ws{i} = mesh.shard %w{i} to {split} : {tw}",
            f"  %e{i} = tensor.empty() : {t}",
            f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : {t}) -> {t}",
            f"  %m{i} = linalg.matmul ins({prev}, %ws{i} : {t}, {tw}) outs(%f{i} : {t}) -> {t}",
            f"  %t{i} = math.tanh %m{i} : {t}",
        ]
        prev = f"%t{i}"
    lines += [f"  return {prev} : {t}", "}"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--features", type=int, default=1024)
    parser.add_argument("--layers", type=int, default=8)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal((args.batch, args.features)).astype(np.float32)]
    inputs += [(rng.standard_normal((args.features, args.features)) / np.sqrt(args.features)).astype(np.float32)
               for _ in range(args.layers)]
    print(f"MLP {args.layers} layers, batch {args.batch}, {args.features} features, f32, native on MPI ranks")
    print(f"{'ranks':>5} {'compile s':>10} {'run s':>8} {'speed-up':>9} {'bytes/rank':>12}  collectives")
    base = None
    reference = None
    for ranks in (1, 2, 4):
        source = mlp(args.batch, args.features, args.layers, ranks)
        with ir.Context():
            module = ir.Module.parse(source)
            report = pipeline.spmdize(module)
        timings: list[dict[str, float]] = []
        (out,) = mpirun.run(source, "mlp", inputs, ranks=ranks, timings=timings)
        if reference is None:
            reference = out
        error = float(np.max(np.abs(out - reference)))
        compile_s = max(t["compile_s"] for t in timings)
        run_s = max(t["run_s"] for t in timings)
        base = base or run_s
        print(f"{ranks:>5} {compile_s:>10.2f} {run_s:>8.3f} {base / run_s:>8.2f}x "
              f"{report.total_bytes_sent_per_device:>12.0f}  {dict(report.collectives)}  "
              f"(max |diff| vs 1 rank {error:.2g})")


if __name__ == "__main__":
    main()
