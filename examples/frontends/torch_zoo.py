#!/usr/bin/env python3
"""The PyTorch model zoo, end to end: each model of torch_models.py is
imported (`meshsdy.frontends.torch.from_torch`), partitioned on a 2x2 mesh
('data' x 'model') with its Megatron shardings, run on 4 MPI ranks
(`meshsdy.run`), and compared with torch's own outputs on the same inputs.

    .venv/bin/python examples/frontends/torch_zoo.py                 # every model, both weight forms
    .venv/bin/python examples/frontends/torch_zoo.py --model gpt --weights constants

With `--weights arguments` (the default) the weights are function
arguments, sharded by name; with `constants` they are baked into the
program as `dense_resource` constants and only the batch is sharded.
Prints one line per run: import time, collectives, bytes sent per device
(meshsdy.pipeline.spmdize's estimate), the largest difference from torch
and the tolerance of the output type (meshsdy.sim.tolerance).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import torch
from mlir import ir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from torch_models import ZOO  # noqa: E402

import meshsdy.pipeline as pipeline  # noqa: E402
import meshsdy.run  # noqa: E402
from meshsdy.frontends.torch import flatten_outputs, from_torch, to_numpy  # noqa: E402
from meshsdy.sim.tolerance import agree, default_tolerance, max_abs_difference  # noqa: E402

MESH = {"data": 2, "model": 2}


@dataclass
class ZooResult:
    """What one run of a zoo model measured."""

    model: str
    weights: str
    import_s: float
    collectives: dict[str, int]
    bytes_per_device: int
    max_diff: float
    tolerance: float
    agrees: bool

    def line(self) -> str:
        kinds = ", ".join(f"{n} {k.removeprefix('mesh.')}" for k, n in sorted(self.collectives.items())) or "none"
        return (f"{self.model:8} {self.weights:9} import {self.import_s:5.1f} s  collectives: {kinds}; "
                f"{self.bytes_per_device} bytes/device; max |meshsdy - torch| = {self.max_diff:.2g} "
                f"(tolerance {self.tolerance:.2g}): {'agree' if self.agrees else 'DISAGREE'}")


def run_zoo_model(name: str, weights: str = "arguments", ranks: int = 4, seed: int = 0,
                  opt_level: int = 2) -> ZooResult:
    """Imports, partitions and runs zoo model `name` (built at LLVM
    `opt_level`), and compares with torch."""
    zoo = ZOO[name]
    model, inputs = zoo.make(seed)
    with torch.no_grad():
        expected = flatten_outputs(model(*inputs))
    start = time.perf_counter()
    module, parameters = from_torch(model, inputs, mesh=MESH, input_specs=zoo.input_specs, weights=weights,
                                    shardings=zoo.shardings if weights == "arguments" else None)
    import_s = time.perf_counter() - start
    source = str(module)
    with ir.Context():
        report = pipeline.spmdize(ir.Module.parse(source))
        tolerances = [default_tolerance(ir.Module.parse(source), "main", e.dtype) for e in expected]
    outputs = meshsdy.run.run(source, "main", parameters + [to_numpy(x) for x in inputs], ranks=ranks,
                              opt_level=opt_level)
    if len(outputs) != len(expected):
        raise RuntimeError(f"{name}: {len(outputs)} outputs, torch gave {len(expected)}")
    worst = max(max_abs_difference(o, e) for o, e in zip(outputs, expected))
    agrees = all(agree(o, e, t, t) for o, e, t in zip(outputs, expected, tolerances))
    return ZooResult(name, weights, import_s, dict(report.collectives), int(report.total_bytes_sent_per_device),
                     worst, max(tolerances), agrees)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", choices=sorted(ZOO), action="append",
                        help="the models to run (default: all)")
    parser.add_argument("--weights", choices=("arguments", "constants"), action="append",
                        help="weights as function arguments or baked-in constants (default: both)")
    parser.add_argument("--opt-level", type=int, choices=(0, 1, 2, 3), default=2,
                        help="LLVM's optimisation level of the build (default 2)")
    args = parser.parse_args()
    ok = True
    for name in args.model or list(ZOO):
        for weights in args.weights or ["arguments", "constants"]:
            result = run_zoo_model(name, weights, opt_level=args.opt_level)
            print(result.line(), flush=True)
            ok &= result.agrees
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
