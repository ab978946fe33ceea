#!/usr/bin/env python3
"""The MLP of examples/mlp.py sharded the JAX way: a mesh of named axes
`data` x `model` and partition specs on the function's arguments, as
`jax.jit(in_shardings=...)` writes them. Shardy's propagation (ours) decides
every other sharding, the sdy program is partitioned into per-device code,
and the simulator checks it computes what the original computes.

    .venv/bin/python examples/mlp_sdy.py --layers 3 --mesh 2x2

The input's batch is split over `data`, each weight's output features and
each bias over `model`. Expected: one all_gather per layer after the first
(the activation's features, before the next matmul) and no all_reduce.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mlir import ir

import meshsdy.pipeline as pipeline
from meshsdy.sharding import Mesh, P, annotate_function

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mlp import build_mlp  # noqa: E402


def build_mlp_sdy(layers: int, batch: int, features: int, data: int, model: int) -> ir.Module:
    """The MLP without mesh annotations, its arguments sharded with sdy."""
    module = build_mlp(layers, batch, features, [data, model], annotate=False)
    fn = next(op for op in module.body.operations if op.operation.name == "func.func")
    mesh = Mesh({"data": data, "model": model})
    annotate_function(fn, mesh, in_specs=[P("data", None)] + [P(None, "model"), P("model")] * layers)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--features", type=int, default=16)
    parser.add_argument("--mesh", default="2x2", help="mesh shape, data x model")
    parser.add_argument("--print-ir", action="store_true", help="print both programs")
    args = parser.parse_args()
    data, model = (int(s) for s in args.mesh.split("x"))

    with ir.Context(), ir.Location.unknown():
        source = str(build_mlp_sdy(args.layers, args.batch, args.features, data, model))
    result = pipeline.partition_and_compare(source, "mlp")
    if args.print_ir:
        print(source)
        print(result.partitioned)
    print(f"MLP (sdy): {args.layers} layers, batch {args.batch}, {args.features} features, mesh {args.mesh}")
    args_sdy, results_sdy = result.report.sdy_boundaries["mlp"]
    print(f"input sharding: {args_sdy[0]}; output sharding (decided by propagation): {results_sdy[0]}")
    print(result.summary())
    return 0 if result.agrees() else 1


if __name__ == "__main__":
    raise SystemExit(main())
