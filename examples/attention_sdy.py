#!/usr/bin/env python3
"""The multi-head self-attention of examples/attention.py sharded the JAX
way: mesh `data` x `model`, the batch split over `data` and the heads of
every projection weight over `model` (Megatron-style), written as partition
specs on the arguments and the result. Shardy's propagation (ours) decides
the rest; the program is partitioned and checked in the simulator.

    .venv/bin/python examples/attention_sdy.py --heads 4 --mesh 2x2

Expected: every head computes on its own devices, and one all_reduce over
`model` completes the output projection.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mlir import ir

import meshsdy.pipeline as pipeline
from meshsdy.sharding import Mesh, P, annotate_function

sys.path.insert(0, str(Path(__file__).resolve().parent))
from attention import build_attention  # noqa: E402


def build_attention_sdy(batch: int, seq: int, model: int, heads: int, head_size: int,
                        data_devices: int, model_devices: int) -> ir.Module:
    """Attention without mesh annotations, sharded with sdy."""
    module = build_attention(batch, seq, model, heads, head_size, [data_devices, model_devices], annotate=False)
    fn = next(op for op in module.body.operations if op.operation.name == "func.func")
    mesh = Mesh({"data": data_devices, "model": model_devices})
    heads_in = P(None, "model")
    annotate_function(fn, mesh, in_specs=[P("data"), heads_in, heads_in, heads_in, P("model")],
                      out_specs=[P("data")])
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--seq", type=int, default=8)
    parser.add_argument("--model", type=int, default=16)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--head-size", type=int, default=4)
    parser.add_argument("--mesh", default="2x2", help="mesh shape, data x model")
    parser.add_argument("--print-ir", action="store_true", help="print both programs")
    args = parser.parse_args()
    data, model = (int(s) for s in args.mesh.split("x"))

    with ir.Context(), ir.Location.unknown():
        source = str(build_attention_sdy(args.batch, args.seq, args.model, args.heads, args.head_size, data, model))
    result = pipeline.partition_and_compare(source, "attention")
    if args.print_ir:
        print(source)
        print(result.partitioned)
    print(f"attention (sdy): batch {args.batch}, sequence {args.seq}, {args.heads} heads of {args.head_size}, "
          f"mesh {args.mesh}")
    print(result.summary(rtol=1e-4, atol=1e-4))
    return 0 if result.agrees(rtol=1e-4, atol=1e-4) else 1


if __name__ == "__main__":
    raise SystemExit(main())
