"""One MPI rank of `meshsdy.run`: gets the program's shared object (built
once per host), runs the function on this rank's input pieces and saves its
output pieces.

    mpiexec -n N python -m meshsdy.run._worker WORKDIR

WORKDIR (on a file system every host sees) holds `module.mlir` (the
program lowered to the LLVM dialect), `meta.json` and `in<rank>.npz`.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

# mpi4py first: it initialises MPI in this process, and the compiled code
# then calls the same library.
from mpi4py import MPI  # noqa: E402

import numpy as np  # noqa: E402

from meshsdy.run.rank import AssertionFailed, build_on_host, dtype, load_program, output_shape  # noqa: E402


def _stage(work: Path, rank: int, stage: str) -> None:
    """Where this rank is, for the parent's message if the run hangs."""
    (work / f"stage{rank}").write_text(stage)


def _record_error(work: Path, rank: int, text: str) -> None:
    """Records this rank's first failure for the parent, whole: written
    aside and renamed, since the process manager may kill this rank at any
    moment once another one has failed (a file created but not yet written
    reported the rank as failing for no reason)."""
    error = work / f"error{rank}"
    if error.exists():
        return
    partial = work / f"error{rank}.partial"
    partial.write_text(text)
    partial.replace(error)


def main(work: Path) -> None:
    rank = MPI.COMM_WORLD.Get_rank()
    try:
        _run(work, rank)
    except Exception as e:  # reported by the parent, naming this rank
        message = str(e).strip().splitlines()
        _record_error(work, rank, f"{type(e).__name__}: {message[0] if message else ''}")
        sys.stderr.flush()
        # The other ranks may wait for this one in a collective: end them all.
        MPI.COMM_WORLD.Abort(1)


def on_failed_assert(work: Path, rank: int, messages: list[str]):  # noqa: ANN201
    """The handler of a failed `cf.assert` (meshsdy.run.asserts): records
    the message as this rank's error and ends the run (the other ranks may
    wait for it)."""

    def failed(number: int) -> None:
        message = messages[number] if 0 <= number < len(messages) else f"assertion {number}"
        _record_error(work, rank, f"{AssertionFailed.__name__}: assertion failed: {message}")
        sys.stderr.flush()
        MPI.COMM_WORLD.Abort(1)
        # MPICH's abort may return while the process manager tears the
        # run down; the program must not go on.
        os._exit(1)

    return failed


def _run(work: Path, rank: int) -> None:
    _stage(work, rank, "loading the inputs")
    meta = json.loads((work / "meta.json").read_text())
    with np.load(work / f"in{rank}.npz") as data:
        inputs = [np.ascontiguousarray(data[f"arr_{i}"]).view(dtype(name))
                  for i, name in enumerate(meta["inputs"])]
    outputs = [np.zeros(output_shape(o, rank), dtype=dtype(o["dtype"])) for o in meta["outputs"]]
    _stage(work, rank, "compiling")
    built = build_on_host(MPI.COMM_WORLD, (work / "module.mlir").read_text(), opt_level=meta["opt_level"],
                          cache=meta["cache"], scratch=work / "build")
    program = load_program(built.path, meta["func"], threads=meta["threads"],
                           on_failed_assert=on_failed_assert(work, rank, meta.get("asserts", [])))
    _stage(work, rank, "waiting for the other ranks to compile")
    MPI.COMM_WORLD.Barrier()
    _stage(work, rank, "running the function")
    run_s = program(inputs, outputs)
    run_cpu_s = program.last_cpu_s
    for _ in range(meta.get("repeats", 1) - 1):
        MPI.COMM_WORLD.Barrier()
        again = program(inputs, outputs)
        if again < run_s:
            run_s, run_cpu_s = again, program.last_cpu_s
    _stage(work, rank, "done")
    np.savez(work / f"out{rank}.npz", *outputs)
    (work / f"times{rank}.json").write_text(json.dumps(
        {"compile_s": built.seconds, "compile_cpu_s": built.cpu_seconds, "cached": built.cached, "run_s": run_s,
         "run_cpu_s": run_cpu_s}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
