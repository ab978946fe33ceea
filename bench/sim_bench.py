"""Benchmark of meshsdy.sim: 1,000 ops on 64x64 f32 tensors on an 8-device mesh.

The program mixes arith/math elementwise ops, linalg.matmul, a linalg.generic
and (if the `mesh` dialect has them) collectives: every tenth op is an
all_reduce, or an all_gather followed by an all_slice. It runs SPMD on a 2x4
mesh (all 8 devices in lockstep) and prints compile and run times.

    .venv/bin/python bench/sim_bench.py [--ops 1000] [--size 64] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from mlir import ir

import meshsdy  # noqa: F401
from meshsdy.sim import simulate
from meshsdy.sim.program import Compiler


def _has_collectives() -> bool:
    try:
        with ir.Context(), ir.Location.unknown():
            ir.Module.parse(
                """
                mesh.mesh @m(shape = 2)
                func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
                  %y = mesh.all_reduce %x on @m mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>
                  return %y : tensor<2xf32>
                }"""
            )
        return True
    except Exception:
        return False


def program(n_ops: int, size: int, collectives: bool) -> tuple[str, int]:
    """MLIR text of the benchmark function and its exact number of body ops."""
    t = f"tensor<{size}x{size}xf32>"
    lines = [
        "mesh.mesh @mesh(shape = 2x4)",
        "#id = affine_map<(d0, d1) -> (d0, d1)>",
        f"func.func @bench(%x: {t}, %w: {t}) -> {t} {{",
        "  %zero = arith.constant 0.0 : f32",
        "  %scale = arith.constant dense<0.125> : " + t,
        f"  %e = tensor.empty() : {t}",
        f"  %z = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}",
    ]
    count = 4
    v = "%x"
    i = 0
    while count < n_ops - 1:
        k = i % 10
        n = f"%v{i}"
        if k in (0, 3):
            lines.append(f"  {n} = arith.addf {v}, %w : {t}")
        elif k == 1:
            lines.append(f"  {n} = arith.mulf {v}, %scale : {t}")
        elif k == 2:
            lines.append(f"  {n} = math.tanh {v} : {t}")
        elif k == 4:
            lines.append(f"  {n} = arith.subf {v}, %w : {t}")
        elif k == 5:
            lines.append(f"  {n} = arith.maximumf {v}, %w : {t}")
        elif k == 6:
            lines.append(f"  {n} = linalg.matmul ins({v}, %w : {t}, {t}) outs(%z : {t}) -> {t}")
        elif k == 7:
            lines.append(
                f"  {n} = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = [\"parallel\", \"parallel\"]}}"
                f" ins({v}, %w : {t}, {t}) outs(%e : {t}) {{\n"
                "  ^bb0(%a: f32, %b: f32, %o: f32):\n"
                "    %s = arith.mulf %a, %b : f32\n"
                "    %r = arith.addf %s, %a : f32\n"
                "    linalg.yield %r : f32\n"
                f"  }} -> {t}"
            )
            count += 3  # the body ops run too
        elif k == 8:
            lines.append(f"  {n} = math.sin {v} : {t}")
        elif collectives and i % 20 == 9:
            lines.append(f"  {n} = mesh.all_reduce {v} on @mesh mesh_axes = [1] : {t} -> {t}")
        elif collectives:
            lines.append(f"  {n}g = mesh.all_gather {v} on @mesh mesh_axes = [0] gather_axis = 0 : {t} -> tensor<{2 * size}x{size}xf32>")
            lines.append(f"  {n} = mesh.all_slice {n}g on @mesh mesh_axes = [0] slice_axis = 0 : tensor<{2 * size}x{size}xf32> -> {t}")
            count += 1
        else:
            lines.append(f"  {n} = arith.divf {v}, %w : {t}")
        count += 1
        v = n
        i += 1
    lines.append(f"  return {v} : {t}")
    lines.append("}")
    return "\n".join(lines), count + 1


def main() -> None:
    """Run the benchmark and print the figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ops", type=int, default=1000)
    p.add_argument("--size", type=int, default=64)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    collectives = _has_collectives()
    text, n_ops = program(args.ops, args.size, collectives)
    rng = np.random.default_rng(0)
    mesh_devices = 8
    xs = [rng.standard_normal((args.size, args.size)).astype(np.float32) for _ in range(mesh_devices)]
    ws = [rng.standard_normal((args.size, args.size)).astype(np.float32) for _ in range(mesh_devices)]
    with ir.Context() as ctx, ir.Location.unknown():
        t0 = time.perf_counter()
        module = ir.Module.parse(text)
        t_parse = time.perf_counter() - t0
        t0 = time.perf_counter()
        Compiler(module).function("bench")
        t_compile = time.perf_counter() - t0
        for check in (True, False):
            best = float("inf")
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                simulate(module, "bench", [xs, ws], mesh_shape=[2, 4], spmd=True, check_types=check)
                best = min(best, time.perf_counter() - t0)
            print(
                f"sim_bench: {n_ops} ops, 8 devices (2x4), {args.size}x{args.size} f32, "
                f"collectives {'on' if collectives else 'off (mesh ops not available)'}, "
                f"check_types {'on' if check else 'off'}: {best:.3f} s per run "
                f"({n_ops * mesh_devices / best:,.0f} device-ops/s)"
            )
        t0 = time.perf_counter()
        simulate(module, "bench", [xs[0], ws[0]], spmd=False) if not collectives else None
        t_global = time.perf_counter() - t0
        del ctx
    print(f"sim_bench: parse {t_parse:.3f} s, compile {t_compile:.3f} s" + (f", global run {t_global:.3f} s" if not collectives else ""))


if __name__ == "__main__":
    main()
