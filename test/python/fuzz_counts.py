"""Runs random programs of either generator through partitioning and the
simulator and counts how each ended:

    python test/python/fuzz_counts.py --generator sdy|mesh --programs 1000 [--start SEED] [--jobs 2]
        [--dtype f32|bf16|f16] [--native]

- sdy: `sdy_programs.Generator(seed, extended=True)`, partitioned by the
  sdy pipeline (`sdy-spmdize-pipeline`);
- mesh: `test_spmd_edge_fuzz.edge_program(random.Random(seed), extended=True)`,
  partitioned by `mesh-spmdize-pipeline` with a traversal drawn from the seed.

Each program goes through `meshsdy.pipeline.partition_and_compare` (the
module is verified after each run of stage passes, one meshsdy-one-pass,
and after every extra pass). With `--native`, a program that
agrees in the simulator is also run natively (`meshsdy.run`: lowered to
`mpi` and LLVM, one MPI rank per device of its mesh) and must agree with
the original's simulated outputs too (slower: a second or more a program,
more on meshes of 16 or 32 devices). With `--dtype bf16`, `f16` or `f64`,
every f32 of the generated program (tensor elements, scalars, constants)
is that type instead, and so are its float inputs: the same programs in
another float type, compared with the simulator's tolerances for it.
Outcomes:

- agree: partitioned == original in the simulator;
- refused: an MLIRError carrying a documented refusal (`unsupported`, and
  for mesh programs the contradictions `test_spmd_edge_fuzz` documents),
  grouped by message;
- wrong: the two disagree (or the simulator rejects the partitioned program;
  with --native, also: the native run disagrees or fails, "native: ...",
  other than with the runner's documented refusals, which count as refused);
- invalid: an MLIRError without a documented refusal (a verifier message
  after a pass: invalid IR; or an undocumented error);
- crash: the process died (an abort) or hung past --timeout;
- bad-program: the original does not verify or does not simulate (the
  generator's fault, counted apart).

Programs run in child processes, a batch each; a child that dies is
detected, the program it was on is counted as a crash and the rest of its
batch runs in a new child. Every seed that is not agree or refused is
listed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import traceback
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from meshsdy.pipeline import Comparison

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
from watched_worker import WatchedWorker  # noqa: E402

GENERATORS = ("sdy", "mesh")
#: An MLIRError with one of these in its text is a documented refusal
#: (docs/spmd.md, docs/sdy-spmd.md: "unsupported by <pass>: ..."; the mesh
#: edge fuzz's contradicting annotations).
DOCUMENTED = {"sdy": ("unsupported",), "mesh": ("unsupported", "partial", "contradict")}
GOOD = ("agree", "refused")
#: The native runner's documented refusals (--native).
NATIVE_DOCUMENTED = ("not supported by the runner", "unsupported by convert-mesh-to-mpi")


DTYPES = ("f32", "bf16", "f16", "f64")


def source_of(generator: str, seed: int, dtype: str = "f32") -> tuple[str, str, list | None, str]:
    """(MLIR text, function name, inputs or None, traversal) of a program,
    its floats in `dtype` (see DTYPES)."""
    if generator == "sdy":
        from sdy_programs import Generator, with_zero_inits

        program = Generator(seed, extended=True).program()
        text, func, inputs, traversal = (with_zero_inits(program.ours_text), "main", program.inputs(seed),
                                         "forward-backward")
    else:
        sys.path.insert(0, str(HERE / "pipeline"))  # the mesh generator lives in its test
        from test_spmd_edge_fuzz import TRAVERSALS, edge_program

        rng = random.Random(seed)
        text = edge_program(rng, extended=True)
        func, inputs, traversal = "f", None, rng.choice(TRAVERSALS)
    if dtype == "f32":
        return text, func, inputs, traversal
    # An f32 alone or as a shape's element type ("16xf32").
    return re.sub(r"(?<![A-Za-wyz0-9_%.])f32\b", dtype, text), func, _as_dtype(inputs, dtype), traversal


def _as_dtype(inputs: list | None, dtype: str) -> list | None:
    """`inputs` with every f32 value (array or scalar) rounded to `dtype`;
    None (inputs drawn later from the function's types) stays None."""
    if inputs is None:
        return None
    import ml_dtypes
    import numpy as np

    target = {"bf16": ml_dtypes.bfloat16, "f16": np.float16, "f64": np.float64}[dtype]
    return [np.asarray(v).astype(target) if np.asarray(v).dtype == np.float32 else v for v in inputs]


def _message(error: Exception) -> str:
    text = str(error)
    notes = " ".join(str(d) for d in getattr(error, "error_diagnostics", []))
    return text + " " + notes


def _first_error(error: Exception) -> str:
    """The first diagnostic's message, without its location."""
    diags = getattr(error, "error_diagnostics", None)
    line = diags[0].message if diags else str(error).splitlines()[-1]
    line = re.sub(r"%\w+", "%_", line)
    line = re.sub(r"'tensor<[^>]*>'", "'tensor<...>'", line)
    return re.sub(r"\s+", " ", line).strip()[:160]


def classify(generator: str, seed: int, native: bool = False, dtype: str = "f32") -> dict:
    """One program's outcome: {"outcome": ..., "message": ...}."""
    import numpy as np
    from mlir import ir

    import meshsdy.pipeline as pipeline
    import meshsdy.sim as sim

    try:
        text, func, inputs, traversal = source_of(generator, seed, dtype)
    except Exception as e:  # noqa: BLE001
        return {"outcome": "bad-program", "message": f"generator: {type(e).__name__}: {e}"}
    # The original must verify and simulate: otherwise the generator wrote
    # something it should not have.
    try:
        with ir.Context():
            module = ir.Module.parse(text)
            if inputs is None:
                rng = np.random.default_rng(seed)
                from meshsdy.sim.inputs import index_bound

                bound = index_bound(pipeline._func_types(module, func))
                inputs = [pipeline._random_input(a.type, rng, bound) for a in pipeline._func_args(module, func)]
            sim.simulate(module, func, list(inputs))
    except Exception as e:  # noqa: BLE001
        return {"outcome": "bad-program", "message": f"original: {type(e).__name__}: {_first_error(e)}"}
    try:
        comparison = pipeline.partition_and_compare(text, func, inputs, traversal=traversal)
    except ir.MLIRError as e:
        message = _message(e)
        if any(word in message for word in DOCUMENTED[generator]):
            return {"outcome": "refused", "message": _first_error(e)}
        return {"outcome": "invalid", "message": _first_error(e)}
    except Exception as e:  # noqa: BLE001
        tb = traceback.extract_tb(e.__traceback__)
        where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
        return {"outcome": "wrong", "message": f"{type(e).__name__} at {where}: {_first_error(e)}"}
    if not comparison.agrees():
        return {"outcome": "wrong", "message": f"disagree (max |diff| {comparison.max_abs_error:.3g})"}
    if native:
        return _classify_native(comparison, func, inputs)
    return {"outcome": "agree", "message": ""}


def _classify_native(comparison: Comparison, func: str, inputs: Sequence) -> dict:
    """The partitioned program of `comparison` run on MPI ranks against the
    original's simulated outputs, with the simulator's tolerances."""
    import numpy as np
    from mlir import ir

    import meshsdy.pipeline as pipeline
    import meshsdy.run as native_run
    from meshsdy.sim.tolerance import agree, max_abs_difference

    with ir.Context():
        ranks = pipeline.device_mesh(ir.Module.parse(comparison.partitioned)).num_devices
    try:
        got = native_run.run(comparison.partitioned, func, list(inputs), ranks=ranks, partitioned=True,
                             timeout=240)
    except native_run.RunError as e:
        # What the runner and the mpi lowering say they do not take
        # (docs/mpi.md, "What is still missing"): a dynamic global shape,
        # a collective of a dynamic local shape.
        outcome = "refused" if any(w in str(e) for w in NATIVE_DOCUMENTED) else "wrong"
        return {"outcome": outcome, "message": f"native: {_first_error(e)}"}
    for i, (g, want, tol) in enumerate(zip(got, comparison.expected, comparison.tolerances, strict=True)):
        if not agree(np.asarray(g), np.asarray(want), tol, tol):
            return {"outcome": "wrong", "message": f"native: output {i} disagrees on {ranks} ranks "
                                                   f"(max |diff| {max_abs_difference(g, want):.3g})"}
    return {"outcome": "agree", "message": ""}


# -- child processes ------------------------------------------------------------


def _worker(generator: str, seeds: Sequence[int], native: bool = False, dtype: str = "f32") -> None:
    """Prints `start SEED` before and one JSON line after each program."""
    os.environ.setdefault("PYTHONHASHSEED", "0")
    abort_at = os.environ.get("FUZZ_COUNTS_ABORT_AT")  # tests of the crash guard
    for seed in seeds:
        print(f"start {seed}", flush=True)
        if abort_at == str(seed):
            os.abort()
        result = classify(generator, seed, native, dtype)
        result["seed"] = seed
        print(json.dumps(result), flush=True)


def run_batch(generator: str, seeds: Sequence[int], timeout: float = 300.0, native: bool = False,
              dtype: str = "f32") -> list[dict]:
    """Runs `seeds` in child processes: a child that dies (or hangs for
    `timeout` seconds on one program) costs that program a crash; the rest
    go to a new child."""
    results: list[dict] = []
    todo = list(seeds)
    while todo:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--generator", generator,
               *(["--native"] if native else []), "--dtype", dtype, "--seeds", *map(str, todo)]
        worker = WatchedWorker(cmd, env={**os.environ, "PYTHONHASHSEED": "0"}, first_timeout=timeout)
        current: int | None = None
        done: set[int] = set()
        for line in worker.lines():
            if line.startswith("start "):
                current = int(line.split()[1])
                worker.arm(timeout)
            elif line.startswith("{"):
                result = json.loads(line)
                results.append(result)
                done.add(result["seed"])
                current = None
        code = worker.wait()
        stderr = "".join(worker.stderr_tail())
        todo = [s for s in todo if s not in done]
        if not todo:
            break
        if current is None:  # died before starting a program: nothing to blame
            raise RuntimeError(f"worker exited with {code} outside a program: {stderr[-2000:]}")
        tail = [ln for ln in stderr.splitlines() if ln.strip()][-3:]
        results.append({"seed": current, "outcome": "crash",
                        "message": f"exit {code}" + (": " + " | ".join(tail)[:300] if tail else "")})
        todo.remove(current)
    return results


def run(generator: str, seeds: Iterable[int], *, jobs: int = 2, batch: int = 50,
        timeout: float = 300.0, native: bool = False, dtype: str = "f32") -> list[dict]:
    seeds = list(seeds)
    batches = [seeds[i:i + batch] for i in range(0, len(seeds), batch)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(lambda b: run_batch(generator, b, timeout, native, dtype), batches))
    return sorted((r for part in parts for r in part), key=lambda r: r["seed"])


def report(results: Sequence[dict]) -> str:
    counts = Counter(r["outcome"] for r in results)
    lines = [f"{len(results)} programs: " + ", ".join(
        f"{k} {counts.get(k, 0)}" for k in ("agree", "refused", "wrong", "invalid", "crash", "bad-program"))]
    refusals = Counter(r["message"] for r in results if r["outcome"] == "refused")
    if refusals:
        lines.append("refused, by diagnostic:")
        lines += [f"  {n:4d}  {msg}" for msg, n in refusals.most_common()]
    bad = [r for r in results if r["outcome"] not in GOOD]
    if bad:
        lines.append("not agree, not refused:")
        lines += [f"  seed {r['seed']}: {r['outcome']}: {r['message']}" for r in bad]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generator", choices=GENERATORS, required=True)
    parser.add_argument("--programs", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--jobs", type=int, default=2, help="child processes at a time")
    parser.add_argument("--batch", type=int, default=50, help="programs per child process")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds one program may take")
    parser.add_argument("--show", type=int, metavar="SEED", help="print the program of SEED and exit")
    parser.add_argument("--json", help="also write every outcome to this file")
    parser.add_argument("--native", action="store_true",
                        help="also run each agreeing program natively on MPI ranks (meshsdy.run)")
    parser.add_argument("--dtype", choices=DTYPES, default="f32",
                        help="the programs' float type (default f32)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seeds", type=int, nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        _worker(args.generator, args.seeds or [], args.native, args.dtype)
        return 0
    if args.show is not None:
        print(source_of(args.generator, args.show, args.dtype)[0], end="")
        return 0
    results = run(args.generator, range(args.start, args.start + args.programs), jobs=args.jobs,
                  batch=args.batch, timeout=args.timeout, native=args.native, dtype=args.dtype)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    print(report(results))
    return 0 if all(r["outcome"] in GOOD for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
