"""Our `sdy-propagation-pipeline` against Shardy's, in the same run.

The program is the MLP JAX lowers for `L` layers of `tanh(x @ w + b)`
(batch 64, 256 features) on a mesh data=2 x model=4, the input split on
its batch over `data`, every weight on its columns and every bias over
`model`. We run ours on the upstream-ops form (linalg.matmul,
linalg.broadcast, arith.addf, math.tanh) and Shardy (jaxlib, in a child
process) on the StableHLO form (dot_general, broadcast_in_dim, add, tanh);
both times are the pass pipeline alone (parsing excluded), best of
`--repeat`, the runs of the two alternating. Then the whole way to
per-device code the same way: our `sdy-spmdize-pipeline` against Shardy's
import, propagation, export with explicit collectives and global-to-local
(`SHARDY_SPMDIZE`). Ours runs as one pass (`meshsdy-one-pass`, verified
once, after it, docs/spmd.md); with the verifier on, the same pipeline run
pass by pass (`staged=true`, a verification after each of its passes, as
Shardy's pipeline of a dozen passes is run) is timed too, for reference.
Both are given in wall and in CPU time (each
process's own; on a machine shared with other work the CPU time moves much
less than the wall clock). Then our pipelines alone on about 10k and 100k
ops (best of up to 3 runs each), for their scaling (linear: a ratio of
about 10).

    .venv/bin/python bench/sdy_bench.py [--layers 1000] [--repeat 5] [--no-scaling]
"""

from __future__ import annotations

import argparse
import json
import queue
import subprocess
import sys
import tempfile
import threading
import time
from typing import Callable, NoReturn

from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401  (registers dialects and passes)

# Shardy's way to per-device code, as jaxlib's passes name it: what our
# `sdy-spmdize-pipeline` is compared with.
SHARDY_SPMDIZE = ("sdy-import-pipeline,sdy-aggressive-propagate,"
                  "sdy-export-pipeline{enable-insert-explicit-collectives=true},"
                  "sdy-convert-global-to-local")

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


def _run_ours(text: str, verify: bool, pipeline: str) -> tuple[float, float, str]:
    """One run of our `pipeline` (parsing excluded): wall and CPU seconds,
    and the result."""
    with ir.Context():
        module = ir.Module.parse(text)
        pm = PassManager.parse(f"builtin.module({pipeline})")
        pm.enable_verifier(verify)
        start, start_cpu = time.perf_counter(), time.process_time()
        pm.run(module.operation)
        return time.perf_counter() - start, time.process_time() - start_cpu, str(module)


def time_ours(text: str, repeat: int, verify: bool = True,
              pipeline: str = "sdy-propagation-pipeline") -> tuple[float, str]:
    """Best time of our `pipeline` (parsing excluded) and its result."""
    runs = [_run_ours(text, verify, pipeline) for _ in range(repeat)]
    return min(seconds for seconds, _, _ in runs), runs[-1][2]


# Shardy runs in a child process (jaxlib's MLIR can't share a process with
# ours). It answers one line per run, so that its runs interleave with ours:
# this machine's noise comes in bursts, and a burst then slows both sides,
# not one. It says "ready" once jax is imported and the program read, so
# that the import does not overlap our first run.
_SHARDY = r"""
import json, sys, time
from jax._src.lib.mlir import ir, passmanager
from jax._src.interpreters import mlir as jmlir
text = json.loads(sys.stdin.readline())
print("ready", flush=True)
for line in sys.stdin:
    request = json.loads(line)
    with jmlir.make_ir_context():
        module = ir.Module.parse(text)
        pm = passmanager.PassManager.parse(f"builtin.module({request['pipeline']})")
        pm.enable_verifier(request["verify"])
        start, start_cpu = time.perf_counter(), time.process_time()
        pm.run(module.operation)
        seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        print(json.dumps({"seconds": seconds, "cpu": cpu, "result": str(module)}), flush=True)
"""

# How long one answer of Shardy's process may take (its import included).
_ANSWER_TIMEOUT_S = 600


class _Shardy:
    """Shardy's process: one run per `run` call. Its stderr goes to a file
    (a pipe nobody reads could fill and stall it) and every answer has a
    deadline, so that a stuck child fails the bench instead of hanging it."""

    def __init__(self, text: str) -> None:
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.child = subprocess.Popen([sys.executable, "-c", _SHARDY], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._send(json.dumps(text) + "\n")
        if self._answer() != "ready":
            self._fail("did not start")

    def _read(self) -> None:
        assert self.child.stdout is not None
        for line in self.child.stdout:
            self.lines.put(line.strip())
        self.lines.put("")  # end of output: the child exited

    def _send(self, line: str) -> None:
        assert self.child.stdin is not None
        try:
            self.child.stdin.write(line)
            self.child.stdin.flush()
        except BrokenPipeError:
            self._fail("exited")

    def _answer(self) -> str:
        try:
            line = self.lines.get(timeout=_ANSWER_TIMEOUT_S)
        except queue.Empty:
            self._fail(f"gave no answer in {_ANSWER_TIMEOUT_S} s")
        if not line:
            self._fail("exited")
        return line

    def _fail(self, what: str) -> NoReturn:
        self.close()
        self.stderr.seek(0)
        raise RuntimeError(f"Shardy's process {what}:\n{self.stderr.read()[-2000:]}")

    def run(self, verify: bool, pipeline: str) -> tuple[float, float, str]:
        self._send(json.dumps({"verify": verify, "pipeline": pipeline}) + "\n")
        answer = json.loads(self._answer())
        return answer["seconds"], answer["cpu"], answer["result"]

    def close(self) -> None:
        if self.child.poll() is None:
            self.child.kill()
        self.child.wait()


class Best:
    """The best wall and CPU seconds of one side's runs, and its last result.
    CPU time is this process's alone: on a machine shared with other work it
    moves much less than the wall clock."""

    def __init__(self) -> None:
        self.wall = self.cpu = float("inf")
        self.result = ""

    def add(self, wall: float, cpu: float, result: str) -> None:
        self.wall, self.cpu, self.result = min(self.wall, wall), min(self.cpu, cpu), result


def time_both(ours_text: str, shardy_text: str, repeat: int, verify: bool,
              ours_pipeline: str = "sdy-propagation-pipeline",
              shardy_pipeline: str = "sdy-propagation-pipeline",
              ) -> tuple[Best, Best | None]:
    """Best times of our pipeline and Shardy's, their runs interleaved.

    Returns ours, and Shardy's (None without jax)."""
    ours = Best()
    try:
        import jax  # noqa: F401
    except ImportError:
        for _ in range(repeat):
            ours.add(*_run_ours(ours_text, verify, ours_pipeline))
        return ours, None
    shardy = _Shardy(shardy_text)
    theirs = Best()
    try:
        for _ in range(repeat):
            ours.add(*_run_ours(ours_text, verify, ours_pipeline))
            theirs.add(*shardy.run(verify, shardy_pipeline))
    finally:
        shardy.close()
    return ours, theirs


def check_same_shardings(ours: str, theirs: str, layers: int) -> None:
    """Both give every layer's activation [{"data"}, {"model"}]."""
    want = '[{"data"}, {"model"}]'
    for name, text in (("ours", ours), ("shardy", theirs)):
        count = sum(1 for line in text.splitlines()
                    if ("math.tanh" in line or "stablehlo.tanh" in line) and want in line)
        if count != layers:
            raise AssertionError(f"{name}: {count} of {layers} tanh results sharded {want}")


def check_same_collectives(ours: str, theirs: str, layers: int) -> None:
    """Both gather each layer's activation before the next matmul (one
    all_gather per layer after the first, no all_reduce) and compute every
    tanh on the device's 32x64 piece."""
    counts = {
        "ours": (ours.count("mesh.all_gather "), ours.count("all_reduce"),
                 sum(1 for line in ours.splitlines()
                     if "math.tanh" in line and "tensor<32x64xf32>" in line)),
        "shardy": (theirs.count('"stablehlo.all_gather"'), theirs.count("all_reduce"),
                   sum(1 for line in theirs.splitlines()
                       if "stablehlo.tanh" in line and "tensor<32x64xf32>" in line)),
    }
    for name, got in counts.items():
        if got != (layers - 1, 0, layers):
            raise AssertionError(f"{name}: (all_gathers, all_reduces, local tanhs) = {got}, "
                                 f"expected {(layers - 1, 0, layers)}")


def compare(title: str, ours_pipeline: str, shardy_pipeline: str, layers: int, repeat: int,
            check: Callable[[str, str, int], None], ours_staged: str | None = None) -> None:
    """Prints our best time against Shardy's, verifier on and off; with
    `ours_staged`, also that pipeline's time, verifier on."""
    print(f"MLP, {layers} layers, {title} (best of {repeat}, parsing excluded):")
    for verify in (True, False):
        ours, shardy = time_both(mlp_ours(layers), mlp_stablehlo(layers), repeat, verify,
                                 ours_pipeline, shardy_pipeline)
        label = "verifier after each pass (default)" if verify else "verifier off"
        print(f" {label}:")
        print(f"  {'':26s}{'wall':>11s} {'CPU':>12s}")
        print(f"  meshsdy (upstream ops)      {ours.wall * 1e3:9.1f} ms {ours.cpu * 1e3:9.1f} ms")
        if verify and ours_staged:
            staged = Best()
            for _ in range(repeat):
                staged.add(*_run_ours(mlp_ours(layers), verify, ours_staged))
            if staged.result != ours.result:
                raise AssertionError(f"{ours_staged} and {ours_pipeline} differ")
            print(f"  meshsdy, staged (reference) {staged.wall * 1e3:9.1f} ms {staged.cpu * 1e3:9.1f} ms"
                  f"  (a verification after each pass; same output)")
        if shardy is None:
            print("  Shardy (jaxlib)             not installed")
            continue
        check(ours.result, shardy.result, layers)
        print(f"  Shardy (jaxlib, stablehlo)  {shardy.wall * 1e3:9.1f} ms {shardy.cpu * 1e3:9.1f} ms")
        print(f"  ratio meshsdy / Shardy      {ours.wall / shardy.wall:9.2f}    {ours.cpu / shardy.cpu:9.2f}"
              f"     (same result on all {layers} layers)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layers", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-scaling", action="store_true")
    args = parser.parse_args()
    if args.repeat < 1 or args.layers < 1:
        parser.error("--repeat and --layers must be at least 1")

    compare("sdy-propagation-pipeline", "sdy-propagation-pipeline", "sdy-propagation-pipeline",
            args.layers, args.repeat, check_same_shardings)
    compare("to per-device code (ours: sdy-spmdize-pipeline; Shardy: SHARDY_SPMDIZE)",
            "sdy-spmdize-pipeline", SHARDY_SPMDIZE, args.layers, args.repeat, check_same_collectives,
            ours_staged="sdy-spmdize-pipeline{staged=true}")
    if args.no_scaling:
        return
    # 7 ops per layer: about 10k and 100k ops; best of up to 3 runs each,
    # as above (a single run of a few seconds catches this machine's bursts).
    runs = min(args.repeat, 3)
    small_s, _ = time_ours(mlp_ours(1430), runs)
    large_s, _ = time_ours(mlp_ours(14300), runs)
    print(f"Scaling of meshsdy's pipeline on the MLP (best of {runs}):")
    print(f"  ~10k ops   {small_s * 1e3:9.1f} ms")
    print(f"  ~100k ops  {large_s * 1e3:9.1f} ms")
    print(f"  ratio 100k / 10k  {large_s / small_s:.1f}  (linear: about 10)")
    # The whole way to per-device code: propagation, explicit reshards,
    # collectives, the bridge to mesh, mesh-spmdization and cleanups.
    small_s, small_out = time_ours(mlp_ours(1430), runs, pipeline="sdy-spmdize-pipeline")
    large_s, _ = time_ours(mlp_ours(14300), runs, pipeline="sdy-spmdize-pipeline")
    gathers = small_out.count("mesh.all_gather ")
    if gathers != 1429 or "mesh.all_reduce" in small_out:
        raise AssertionError(f"expected one all_gather per layer after the first, got {gathers}")
    print(f"sdy-spmdize-pipeline (to per-device code) on the MLP (best of {runs}):")
    print(f"  ~10k ops   {small_s * 1e3:9.1f} ms  (1429 all_gathers, no all_reduce)")
    print(f"  ~100k ops  {large_s * 1e3:9.1f} ms")
    print(f"  ratio 100k / 10k  {large_s / small_s:.1f}  (linear: about 10)")


if __name__ == "__main__":
    main()
