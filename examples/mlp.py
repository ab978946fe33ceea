#!/usr/bin/env python3
"""Builds an MLP with the MLIR Python bindings, partitions it over a 2-D mesh
and checks, by simulating every device, that it computes what the original
computes.

    .venv/bin/python examples/mlp.py --layers 3 --mesh 2x2

The batch of the input is split over mesh axis 0 (`data`); each weight's
output features over axis 1 (`model`). Propagation decides everything else.
"""

from __future__ import annotations

import argparse

from mlir import ir
from mlir.dialects import arith, func, linalg, tensor

import meshsdy.pipeline as pipeline
from meshsdy.dialects import mesh


def build_mlp(layers: int, batch: int, features: int, mesh_shape: list[int], annotate: bool = True) -> ir.Module:
    """x -> tanh(x @ w_i + b_i), `layers` times, annotated with mesh
    shardings (without `mesh.mesh` and annotations if not `annotate`)."""
    module = ir.Module.create()
    f32 = ir.F32Type.get()
    act = ir.RankedTensorType.get([batch, features], f32)
    weight = ir.RankedTensorType.get([features, features], f32)
    bias = ir.RankedTensorType.get([features], f32)
    with ir.InsertionPoint(module.body):
        if annotate:
            mesh.MeshOp("mesh", mesh_shape)
        fn = func.FuncOp("mlp", ir.FunctionType.get([act] + [weight, bias] * layers, [act]))
        with ir.InsertionPoint(fn.add_entry_block()):
            args = list(fn.arguments)

            def shard(value: ir.Value, split_axes: list[list[int]]) -> ir.Value:
                return mesh.shard(value, mesh.sharding("mesh", split_axes=split_axes)) if annotate else value

            x = shard(args[0], [[0]])
            zero = arith.constant(f32, 0.0)
            for layer in range(layers):
                w = shard(args[1 + 2 * layer], [[], [1]])
                b = args[2 + 2 * layer]
                empty = tensor.empty([batch, features], f32)
                acc = linalg.fill(zero, outs=[empty])
                y = linalg.matmul(x, w, outs=[acc])
                b2 = linalg.broadcast(b, outs=[empty], dimensions=[0])
                y = linalg.add(y, b2, outs=[empty])
                x = linalg.tanh(y, outs=[empty])
            func.ReturnOp([x])
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--features", type=int, default=16)
    parser.add_argument("--mesh", default="2x2", help="mesh shape, data x model")
    parser.add_argument("--print-ir", action="store_true", help="print both programs")
    args = parser.parse_args()
    mesh_shape = [int(s) for s in args.mesh.split("x")]

    with ir.Context(), ir.Location.unknown():
        source = str(build_mlp(args.layers, args.batch, args.features, mesh_shape))
    result = pipeline.partition_and_compare(source, "mlp")
    if args.print_ir:
        print(source)
        print(result.partitioned)
    print(f"MLP: {args.layers} layers, batch {args.batch}, {args.features} features, mesh {args.mesh}")
    print(result.summary())
    return 0 if result.agrees() else 1


if __name__ == "__main__":
    raise SystemExit(main())
