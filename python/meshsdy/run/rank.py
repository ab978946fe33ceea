"""What one MPI rank does with a lowered program: get its shared object
(built once per host, meshsdy.run.build), load it with the native
libraries (meshsdy.run.native) and call the function on its pieces.

Used by the ranks mpiexec starts for `meshsdy.run.run`
(meshsdy.run._worker) and by `python -m meshsdy.run ... --launched`, in a
job someone else started (meshsdy.run.launched). mpi4py must be imported
(MPI initialised) before this module.
"""

from __future__ import annotations

import ctypes
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from mpi4py import MPI

from .build import BuildError, Built, build_shared_object
from .native import keep_freed_memory, load_runtime

__all__ = ["AssertionFailed", "Program", "build_on_host", "dtype", "load_program", "output_shape"]


class AssertionFailed(Exception):
    """A `cf.assert` of the program failed on this rank."""


def dtype(name: str) -> np.dtype:
    """A dtype by name; `bfloat16` is ml_dtypes'."""
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def output_shape(out: dict, rank: int) -> list[int]:
    """The shape on `rank` of an output the runner's meta describes: its
    own where the ranks' pieces differ (a result split unevenly)."""
    return out["shapes"][rank] if "shapes" in out else out["shape"]


def build_on_host(comm: MPI.Comm, llvm_text: str, *, opt_level: int, cache: bool, scratch: Path) -> Built:
    """The program's shared object, built by one rank per host (the first
    of `comm` on it) while the others wait; every rank of the host gets it.
    Without the cache it is built in `scratch`/<host>. Raises BuildError on
    every rank of the host if the build failed."""
    local = comm.Split_type(MPI.COMM_TYPE_SHARED)
    try:
        result: tuple[str, float, bool, float] | str
        if local.Get_rank() == 0:
            try:
                host_scratch = scratch / socket.gethostname()
                if not cache:
                    host_scratch.mkdir(parents=True, exist_ok=True)
                built = build_shared_object(llvm_text, opt_level=opt_level, cache=cache, scratch=host_scratch)
                result = (str(built.path), built.seconds, built.cached, built.cpu_seconds)
            except BuildError as e:
                result = str(e)
        else:
            result = ""
        _wait_quietly(local)
        result = local.bcast(result, root=0)
    finally:
        local.Free()
    if isinstance(result, str):
        raise BuildError(result)
    return Built(Path(result[0]), result[1], result[2], result[3])


def _wait_quietly(comm: MPI.Comm) -> None:
    """Waits for every rank of `comm` while sleeping: MPICH's blocking
    collectives spin, and ranks spinning on the builder's cores made a
    2-second build take ten times that."""
    request = comm.Ibarrier()
    while not request.Test():
        time.sleep(0.002)


@dataclass
class Program:
    """A loaded program: its function, called through its C wrapper with a
    pointer to each argument's and each result's memref descriptor."""

    library: ctypes.CDLL
    runtime: ctypes.CDLL
    function: Callable[..., None]
    #: The assertion handler given to the runtime (kept alive here).
    handler: object = None
    #: The CPU seconds of the last call.
    last_cpu_s: float = 0.0

    def __call__(self, inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray]) -> float:
        """Runs the function; returns the seconds it took (and keeps the
        CPU seconds this process used in `last_cpu_s`: on a loaded machine,
        what the code costs apart from waiting for a core; MPI's waits spin,
        so they count)."""
        from mlir.runtime import get_ranked_memref_descriptor

        descriptors = [get_ranked_memref_descriptor(a) for a in list(inputs) + list(outputs)]
        args = [ctypes.pointer(d) for d in descriptors]
        begin, cpu = time.perf_counter(), time.process_time()
        self.function(*args)
        self.last_cpu_s = time.process_time() - cpu
        return time.perf_counter() - begin


def load_program(path: Path, func: str, *, threads: int, on_failed_assert: Callable[[int], None]) -> Program:
    """Loads the runtime (with its BLAS on `threads` threads) and the
    program at `path`, and makes this process keep the memory the program
    frees for its next call; `on_failed_assert(number)` is called when a
    `cf.assert` fails (it must not return). MPI errors end the run from
    now on: mpi4py makes them return codes, which the compiled code never
    reads (a failed split went unnoticed and the collective reduced
    nothing). Raises RuntimeError naming a function with no definition."""
    MPI.COMM_WORLD.Set_errhandler(MPI.ERRORS_ARE_FATAL)
    keep_freed_memory()
    runtime = load_runtime(threads)
    handler = ctypes.CFUNCTYPE(None, ctypes.c_int64)(on_failed_assert)
    runtime.meshsdy_runtime_set_assert_handler(handler)
    try:
        library = ctypes.CDLL(str(path), mode=ctypes.RTLD_LOCAL)
    except OSError as e:
        message = str(e)
        missing = message.split("undefined symbol:", 1)[1].strip() if "undefined symbol:" in message else ""
        why = (f"no definition of {missing} in the module, the process or the shared libraries" if missing
               else message)
        raise RuntimeError(f"loading the compiled code of @{func} failed: {why}") from None
    try:
        function = getattr(library, f"_mlir_ciface_{func}")
    except AttributeError:
        raise RuntimeError(f"the compiled program has no function @{func}") from None
    function.restype = None
    return Program(library, runtime, function, handler)
