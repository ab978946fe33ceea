"""One MPI rank of `meshsdy.run`: JIT-compiles the lowered module, runs the
function on this rank's input pieces and saves its output pieces.

    mpiexec -n N python -m meshsdy.run._worker WORKDIR
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
import time
from pathlib import Path

# mpi4py first: it initialises MPI in this process, and the JIT-compiled
# code then calls the same library.
from mpi4py import MPI  # noqa: E402

import numpy as np  # noqa: E402
from mlir import ir  # noqa: E402
from mlir.execution_engine import ExecutionEngine  # noqa: E402
from mlir.runtime import get_ranked_memref_descriptor  # noqa: E402

import meshsdy  # noqa: E402,F401  (registers the dialects)
from meshsdy.run._symbols import unresolved_symbols  # noqa: E402
from meshsdy.run.asserts import ASSERT_FAILED  # noqa: E402


def _shared_libs() -> list[str]:
    """MPICH's libmpi (the `libmpi.so` next to it is a linker script) and
    MLIR's C runner utilities (memrefCopy)."""
    import mlir

    candidates = [
        os.path.join(sys.prefix, "lib", "libmpi.so.12"),
        os.path.join(list(mlir.__path__)[0], "lib", "libmlir_c_runner_utils.so"),
    ]
    return [c for c in candidates if os.path.exists(c)]


def _stage(work: Path, rank: int, stage: str) -> None:
    """Where this rank is, for the parent's message if the run hangs."""
    (work / f"stage{rank}").write_text(stage)


def main(work: Path) -> None:
    rank = MPI.COMM_WORLD.Get_rank()
    try:
        _run(work, rank)
    except Exception as e:  # reported by the parent, naming this rank
        message = str(e).strip().splitlines()
        (work / f"error{rank}").write_text(f"{type(e).__name__}: {message[0] if message else ''}")
        sys.stderr.flush()
        # The other ranks may wait for this one in a collective: end them all.
        MPI.COMM_WORLD.Abort(1)


class AssertionFailed(Exception):
    """A `cf.assert` of the program failed on this rank."""


def _on_failed_assert(work: Path, rank: int, messages: list[str]) -> object:
    """The `meshsdy_assert_failed(int64_t)` the program calls when an
    assertion fails (meshsdy.run.asserts): records the message as this
    rank's error and ends the run (the other ranks may wait for it)."""

    @ctypes.CFUNCTYPE(None, ctypes.c_int64)
    def failed(number: int) -> None:
        error = work / f"error{rank}"
        if not error.exists():  # the first failure is the one to report
            message = messages[number] if 0 <= number < len(messages) else f"assertion {number}"
            partial = work / f"error{rank}.partial"
            partial.write_text(f"{AssertionFailed.__name__}: assertion failed: {message}")
            partial.replace(error)  # whole, even if this rank is killed now
        sys.stderr.flush()
        MPI.COMM_WORLD.Abort(1)
        # MPICH's abort may return while the process manager tears the
        # run down; the program must not go on.
        os._exit(1)

    return failed


def _dtype(name: str) -> np.dtype:
    """A dtype by name; `bfloat16` is ml_dtypes'."""
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def _run(work: Path, rank: int) -> None:
    _stage(work, rank, "loading the inputs")
    meta = json.loads((work / "meta.json").read_text())
    with np.load(work / f"in{rank}.npz") as data:
        inputs = [np.ascontiguousarray(data[f"arr_{i}"]).view(_dtype(name))
                  for i, name in enumerate(meta["inputs"])]
    outputs = [np.zeros(o["shape"], dtype=_dtype(o["dtype"])) for o in meta["outputs"]]
    with ir.Context():
        _stage(work, rank, "compiling")
        module = ir.Module.parse((work / "module.mlir").read_text())
        start = time.perf_counter()
        libs = _shared_libs()
        engine = ExecutionEngine(module, opt_level=meta.get("opt_level", 2), shared_libs=libs)
        on_failed_assert = _on_failed_assert(work, rank, meta.get("asserts", []))
        if meta.get("asserts"):
            engine.register_runtime(ASSERT_FAILED, on_failed_assert)
        try:
            engine.lookup(meta["func"])  # compiles (the JIT is lazy)
        except RuntimeError as e:
            # The assert handler is registered with the engine, not in a library.
            missing = [m for m in unresolved_symbols(module, libs) if ASSERT_FAILED not in m]
            why = (f"no definition of {', '.join(missing)} in the module, the process or the shared libraries"
                   if missing else
                   "a function it calls may have no definition in the module or the shared libraries")
            raise RuntimeError(f"JIT compilation of @{meta['func']} failed ({e}): {why}") from None
        compiled = time.perf_counter()
        # With the C wrappers, every argument (results are out-params after
        # buffer-results-to-out-params) is a pointer to a memref descriptor.
        args = [ctypes.pointer(ctypes.pointer(get_ranked_memref_descriptor(a))) for a in inputs + outputs]
        _stage(work, rank, "waiting for the other ranks to compile")
        MPI.COMM_WORLD.Barrier()
        _stage(work, rank, "running the function")
        begin = time.perf_counter()
        engine.invoke(meta["func"], *args)
        end = time.perf_counter()
        _stage(work, rank, "done")
    np.savez(work / f"out{rank}.npz", *outputs)
    (work / f"times{rank}.json").write_text(json.dumps(
        {"compile_s": compiled - start, "run_s": end - begin}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
