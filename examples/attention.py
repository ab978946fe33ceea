#!/usr/bin/env python3
"""Builds multi-head self-attention with the MLIR Python bindings (the
program of examples/attention.mlir, any size), partitions it over a 2-D mesh
and checks by simulation that it computes what the original computes.

    .venv/bin/python examples/attention.py --heads 4 --mesh 2x2

The batch is split over mesh axis 0 (`data`) and the heads of every
projection weight over axis 1 (`model`): each device computes its own heads,
and one all_reduce completes the output projection.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from mlir import ir
from mlir.dialects import arith, func, linalg, tensor

import meshsdy.pipeline as pipeline
from meshsdy.dialects import mesh


def einsum(
    ins: Sequence[ir.Value],
    out: ir.Value,
    maps: str,
    reduced: Sequence[str],
    body: Callable[..., ir.Value],
) -> ir.Value:
    """A linalg.generic over the loops named in `maps` ("bsd,dhe->bhse"
    style: one letter a loop), reducing the loops in `reduced` with `body`
    (called with the input elements and the accumulator)."""
    inputs, output = maps.split("->")
    operands = inputs.split(",") + [output]
    loops = sorted(set("".join(operands)), key=lambda c: (c in reduced, maps.index(c)))
    exprs = {c: ir.AffineDimExpr.get(i) for i, c in enumerate(loops)}
    affine = [ir.AffineMap.get(len(loops), 0, [exprs[c] for c in o]) for o in operands]
    iterators = [
        ir.Attribute.parse(f"#linalg.iterator_type<{'reduction' if c in reduced else 'parallel'}>") for c in loops
    ]
    op = linalg.GenericOp(
        [out.type], list(ins), [out], ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in affine]),
        ir.ArrayAttr.get(iterators),
    )
    element = ir.RankedTensorType(out.type).element_type
    block = op.regions[0].blocks.append(*([element] * (len(ins) + 1)))
    with ir.InsertionPoint(block):
        linalg.YieldOp([body(*block.arguments)])
    return op.result


def build_attention(batch: int, seq: int, model: int, heads: int, head_size: int, mesh_shape: list[int],
                    annotate: bool = True) -> ir.Module:
    """Attention annotated with mesh shardings (without `mesh.mesh` and
    annotations if not `annotate`)."""
    f32 = ir.F32Type.get()
    t = lambda *shape: ir.RankedTensorType.get(list(shape), f32)  # noqa: E731
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        if annotate:
            mesh.MeshOp("mesh", mesh_shape)
        w_in, w_out = t(model, heads, head_size), t(heads, head_size, model)
        fn = func.FuncOp("attention", ir.FunctionType.get([t(batch, seq, model), w_in, w_in, w_in, w_out], [t(batch, seq, model)]))
        with ir.InsertionPoint(fn.add_entry_block()):
            x, wq, wk, wv, wo = fn.arguments
            def shard(value: ir.Value, split_axes: list[list[int]], **kw: bool) -> ir.Value:
                return mesh.shard(value, mesh.sharding("mesh", split_axes=split_axes), **kw) if annotate else value

            x = shard(x, [[0]])
            wq, wk, wv = (shard(w, [[], [1]]) for w in (wq, wk, wv))
            wo = shard(wo, [[1]])
            zero = arith.constant(f32, 0.0)
            scale = arith.constant(f32, head_size**-0.5)

            def zeros(*shape: int) -> ir.Value:
                return linalg.fill(zero, outs=[tensor.empty(list(shape), f32)])

            mac = lambda a, b, acc: arith.addf(acc, arith.mulf(a, b))  # noqa: E731
            q, k, v = (
                einsum([x, w], zeros(batch, heads, seq, head_size), "bsd,dhe->bhse", "d", mac) for w in (wq, wk, wv)
            )
            scores = einsum(
                [q, k], zeros(batch, heads, seq, seq), "bhse,bhte->bhst", "e",
                lambda a, b, acc: arith.addf(acc, arith.mulf(arith.mulf(a, b), scale)),
            )
            exp = linalg.exp(scores, outs=[tensor.empty([batch, heads, seq, seq], f32)])
            total = einsum([exp], zeros(batch, heads, seq), "bhst->bhs", "t", lambda a, acc: arith.addf(acc, a))
            probs = einsum(
                [exp, total], tensor.empty([batch, heads, seq, seq], f32), "bhst,bhs->bhst", "",
                lambda a, s, _: arith.divf(a, s),
            )
            context = einsum([probs, v], zeros(batch, heads, seq, head_size), "bhst,bhte->bhse", "t", mac)
            out = einsum([context, wo], zeros(batch, seq, model), "bhse,hem->bsm", "he", mac)
            func.ReturnOp([shard(out, [[0]], annotate_for_users=True)])
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
    mesh_shape = [int(s) for s in args.mesh.split("x")]

    with ir.Context(), ir.Location.unknown():
        source = str(build_attention(args.batch, args.seq, args.model, args.heads, args.head_size, mesh_shape))
    result = pipeline.partition_and_compare(source, "attention")
    if args.print_ir:
        print(source)
        print(result.partitioned)
    print(f"attention: batch {args.batch}, sequence {args.seq}, {args.heads} heads of {args.head_size}, mesh {args.mesh}")
    print(result.summary(rtol=1e-4, atol=1e-4))
    return 0 if result.agrees(rtol=1e-4, atol=1e-4) else 1


if __name__ == "__main__":
    raise SystemExit(main())
