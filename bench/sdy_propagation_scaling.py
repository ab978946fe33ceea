"""Scaling of the sdy propagation passes alone (not a comparison with
Shardy: bench/sdy_bench.py does that). Times `mesh-opt -<pass>` on a chain
of N elementwise ops and on one value with N users, for N = 10k and 100k,
and prints the 100k/10k ratio of each (linear cost: about 10; parsing and
printing are included, as a user sees them).

    .venv/bin/python bench/sdy_propagation_scaling.py [--pass sdy-user-priority-propagate]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

import meshsdy

RULE = "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>"
RULE2 = "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>"
HEADER = 'sdy.mesh @mesh = <["a"=2, "b"=2]>'


def chain(n: int) -> str:
    """N elementwise ops in a row; the result sharding flows back to the top."""
    lines = [HEADER, 'func.func @main(%arg0: tensor<8x8xf32>) -> '
             '(tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) {']
    prev = "%arg0"
    for i in range(n):
        lines.append(f"  %c{i} = math.exp {prev} {{sdy.sharding_rule = {RULE}}} : tensor<8x8xf32>")
        prev = f"%c{i}"
    lines += [f"  return {prev} : tensor<8x8xf32>", "}"]
    return "\n".join(lines)


def fanout(n: int) -> str:
    """One value with N users, one of which shards it backward."""
    lines = [HEADER, 'func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = '
             '#sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<8x8xf32> {',
             f"  %v = math.exp %arg0 {{sdy.sharding_rule = {RULE}}} : tensor<8x8xf32>"]
    lines += [f"  %u{i} = math.exp %v {{sdy.sharding_rule = {RULE}}} : tensor<8x8xf32>" for i in range(n)]
    lines += [f'  %w = arith.addf %v, %u0 {{sdy.sharding_rule = {RULE2}, sdy.sharding = '
              f'#sdy.sharding_per_value<[<@mesh, [{{?}}, {{"b", ?}}]>]>}} : tensor<8x8xf32>',
              "  return %w : tensor<8x8xf32>", "}"]
    return "\n".join(lines)


def seconds(pass_name: str, text: str, repeat: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "in.mlir"
        path.write_text(text)
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run([meshsdy.tool_path("mesh-opt"), str(path), f"-{pass_name}", "-o", "/dev/null"],
                           check=True)
            best = min(best, time.perf_counter() - start)
        return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pass", dest="pass_name", default="sdy-user-priority-propagate")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for name, generator in (("chain", chain), ("fanout", fanout)):
        small = seconds(args.pass_name, generator(10_000), args.repeat)
        large = seconds(args.pass_name, generator(100_000), args.repeat)
        print(f"{name:7} 10k: {small:6.3f} s  100k: {large:6.3f} s  ratio {large / small:5.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
