"""`python -m meshsdy.run FILE --func F --launched`: every rank of an MPI
job that someone else started (`mpiexec -n N -f hosts python -m
meshsdy.run ...`, `srun python -m meshsdy.run ...`) runs this.

Rank 0 reads the program, makes or reads the inputs (`--inputs
FILE.npz` is read on rank 0 only), partitions and lowers the program for
the job's size, and sends every rank the lowered program and its input
pieces (MPI). The first rank on each host builds the shared object (the
cache is per host unless the cache directory is shared), the others on the
host wait and load it; every rank runs the function, and rank 0 assembles
the outputs, prints them and the times, and saves them (--save-outputs).
A failed rank ends the job (MPI_Abort) after printing `error: rank R
failed: ...` to stderr.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

__all__ = ["run_launched"]


def _fail(comm: object, rank: int, error: BaseException) -> None:
    lines = str(error).strip().splitlines()
    print(f"error: rank {rank} failed: {type(error).__name__}: {lines[0] if lines else ''}",
          file=sys.stderr, flush=True)
    comm.Abort(2)  # type: ignore[attr-defined]
    os._exit(2)


def _on_failed_assert(comm: object, rank: int, messages: list[str]) -> Callable[[int], None]:
    def failed(number: int) -> None:
        message = messages[number] if 0 <= number < len(messages) else f"assertion {number}"
        print(f"error: rank {rank} failed: AssertionFailed: assertion failed: {message}", file=sys.stderr,
              flush=True)
        comm.Abort(2)  # type: ignore[attr-defined]
        os._exit(2)

    return failed


def run_launched(source: str, func: str, make_inputs: Callable[[], list[np.ndarray]], *, partitioned: bool,
                 opt_level: int, threads: int, cache: bool, save: Callable[[list[np.ndarray]], None]) -> int:
    """Runs on every rank of the job (see the module docstring); returns
    the exit code (0 on every rank when the run succeeded). `make_inputs`
    (the global inputs) and `save` (the global outputs) run on rank 0."""
    from mpi4py import MPI

    from .prepare import prepare
    from .rank import build_on_host, load_program, output_shape

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    prepared = None
    header: tuple[str, dict] | str | None = None
    if rank == 0:
        try:
            prepared = prepare(source, func, make_inputs(), ranks=size, partitioned=partitioned)
            header = (prepared.llvm_text, prepared.meta)
        except Exception as e:  # noqa: BLE001 - every error is reported, then all ranks stop
            lines = str(e).strip().splitlines()
            header = lines[0] if lines else type(e).__name__
    header = comm.bcast(header, root=0)
    if isinstance(header, str):
        if rank == 0:
            print(f"error: {header}", file=sys.stderr)
        return 2
    llvm_text, meta = header
    pieces = comm.scatter(prepared.pieces if prepared is not None else None, root=0)
    scratch = Path(tempfile.mkdtemp(prefix="meshsdy-launched-"))
    try:
        built = build_on_host(comm, llvm_text, opt_level=opt_level, cache=cache, scratch=scratch)
        program = load_program(built.path, func, threads=threads,
                               on_failed_assert=_on_failed_assert(comm, rank, meta.get("asserts", [])))
        outputs = [np.zeros(output_shape(o, rank), dtype=_dtype(o["dtype"])) for o in meta["outputs"]]
        comm.Barrier()
        run_s = program(pieces, outputs)
    except Exception as e:  # noqa: BLE001
        _fail(comm, rank, e)
        return 2
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    gathered = comm.gather((outputs, built.seconds, built.cached, run_s, built.cpu_seconds), root=0)
    if rank == 0 and prepared is not None and gathered is not None:
        results = prepared.assemble([g[0] for g in gathered])
        for i, out in enumerate(results):
            print(f"output {i}: {out.dtype} {list(out.shape)}")
        compile_s = max(g[1] for g in gathered)
        cached = all(g[2] for g in gathered)
        cpu_s = max(g[4] for g in gathered)
        print(f"compiled: {'from the cache' if cached else f'{compile_s:.2f} s, {cpu_s:.2f} s of CPU'} (once per host); "
              f"ran: {max(g[3] for g in gathered):.4f} s (slowest of {size} ranks)")
        save(results)
    return 0


def _dtype(name: str) -> np.dtype:
    from .rank import dtype

    return dtype(name)
