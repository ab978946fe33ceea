"""Starting the ranks: `mpiexec` of the installed MPICH on a work
directory, its hostfile and extra arguments, the time-out, and what a
failed or hung run reports.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["Launch", "RunError", "launch", "mpiexec"]


class RunError(RuntimeError):
    """The program could not be partitioned, lowered or run on the ranks."""


@dataclass(frozen=True)
class Launch:
    """How the ranks are started and what they do natively.

    `hostfile`: MPICH's host file (`mpiexec -f`), one host (`host[:n]`) a
    line, for ranks on other machines; the work directory must then be on a
    file system they all see (`workdir`). `mpiexec_args`: passed on to
    mpiexec before the program (`-launcher ssh`, `-bind-to core`, ...).
    `threads`: threads per rank (the BLAS's), 1 by default so that ranks x
    threads = cores when there are as many ranks as cores. `cache`: keep
    the built program on disk by its hash (meshsdy.run.build).
    `opt_level`: LLVM's (0-3). `timeout`: seconds before every rank is
    killed. `repeats`: how many times each rank calls the function (each
    call after a barrier; the time reported is the fastest), for
    benchmarks."""

    timeout: float = 300.0
    opt_level: int = 2
    threads: int = 1
    cache: bool = True
    hostfile: str | None = None
    mpiexec_args: tuple[str, ...] = field(default_factory=tuple)
    workdir: str | None = None
    repeats: int = 1

    def check(self) -> None:
        """Raises RunError for options no run can use."""
        if self.opt_level not in (0, 1, 2, 3):
            raise RunError(f"opt_level must be 0, 1, 2 or 3, got {self.opt_level}")
        if self.threads < 1:
            raise RunError(f"threads must be positive, got {self.threads}")
        if self.repeats < 1:
            raise RunError(f"repeats must be positive, got {self.repeats}")
        if not self.timeout > 0:
            raise RunError(f"timeout must be positive, got {self.timeout}")
        if self.hostfile is not None and not Path(self.hostfile).is_file():
            raise RunError(f"no hostfile {self.hostfile}")


def mpiexec() -> str:
    """The `mpiexec` of the MPICH installed next to this Python."""
    candidate = Path(sys.prefix) / "bin" / "mpiexec"
    if candidate.exists():
        return str(candidate)
    found = shutil.which("mpiexec")
    if not found:
        raise RunError("no mpiexec found: install the 'mpi' extra (pip install mpich mpi4py)")
    return found


def _command(ranks: int, options: Launch, work: Path) -> list[str]:
    command = [mpiexec()]
    if options.hostfile:
        command += ["-f", options.hostfile]
    command += list(options.mpiexec_args)
    return command + ["-n", str(ranks), sys.executable, "-m", "meshsdy.run._worker", str(work)]


def thread_environment(threads: int) -> dict[str, str]:
    """The variables that give each rank's libraries `threads` threads."""
    return {name: str(threads) for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}


def _kill_group(pid: int) -> None:
    """Kills what is left of the process group `pid` leads."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def launch(llvm_text: str, func: str, per_rank_inputs: list[list[np.ndarray]], meta: dict, options: Launch,
           timings: list[dict[str, float]] | None) -> list[list[np.ndarray]]:
    """Runs the lowered module on one MPI rank per entry of
    `per_rank_inputs` (`meta`: the outputs' shapes and dtypes, the
    asserts' messages); returns each rank's outputs."""
    ranks = len(per_rank_inputs)
    # A failed run's ranks may still be exiting, and writing, when the
    # directory goes: a failed removal must not hide the rank's error.
    with tempfile.TemporaryDirectory(prefix="meshsdy-run-", dir=options.workdir,
                                     ignore_cleanup_errors=True) as tmp:
        work = Path(tmp)
        (work / "module.mlir").write_text(llvm_text)
        # numpy files keep bf16 as raw bytes: the dtypes travel by name.
        inputs = [np.dtype(v.dtype).name for v in per_rank_inputs[0]] if per_rank_inputs else []
        (work / "meta.json").write_text(json.dumps({
            "func": func, "inputs": inputs, "opt_level": options.opt_level, "threads": options.threads,
            "cache": options.cache, "repeats": options.repeats, **meta}))
        for rank, values in enumerate(per_rank_inputs):
            np.savez(work / f"in{rank}.npz", *[np.ascontiguousarray(v) for v in values])
        # A session of its own, so that a hang ends with every rank killed.
        proc = subprocess.Popen(_command(ranks, options, work), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1", **thread_environment(options.threads)})
        try:
            stdout, stderr = proc.communicate(timeout=options.timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            proc.communicate()
            raise RunError(f"the run did not finish within {options.timeout:g} s: {_where(work, ranks)}") from None
        if proc.returncode != 0:
            _kill_group(proc.pid)  # ranks mpiexec left behind
            failed = [f"rank {r} failed: {(work / f'error{r}').read_text()}"
                      for r in range(ranks) if (work / f"error{r}").exists()]
            if failed:
                raise RunError("; ".join(failed))
            raise RunError(f"a rank failed (mpiexec exit {proc.returncode}; {_where(work, ranks)}): "
                           f"{_last_words(stderr, stdout)}")
        if timings is not None:
            timings.extend(json.loads((work / f"times{r}.json").read_text()) for r in range(ranks))
        dtypes = [_dtype(o["dtype"]) for o in meta["outputs"]]
        per_rank = []
        for rank in range(ranks):
            with np.load(work / f"out{rank}.npz") as data:
                per_rank.append([data[f"arr_{i}"].view(d) for i, d in enumerate(dtypes)])
    return per_rank


def _dtype(name: str) -> np.dtype:
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def _last_words(stderr: str, stdout: str) -> str:
    """What a rank that died without an error file said last (the last
    non-empty line of its stderr, else of its stdout), then the tail of
    both on the following lines; the first line alone is the CLI's message."""
    lines = [line.strip() for text in (stderr, stdout) for line in text.splitlines() if line.strip()]
    last = next((line.strip() for line in reversed(stderr.splitlines()) if line.strip()),
                next((line.strip() for line in reversed(stdout.splitlines()) if line.strip()),
                     "it printed nothing"))
    tail = "\n".join(lines[-40:])
    return f"{last}\n{tail}" if tail else last


def _where(work: Path, ranks: int) -> str:
    """Where each rank got to, from the stage files the workers write."""
    stages: dict[str, list[int]] = {}
    for rank in range(ranks):
        path = work / f"stage{rank}"
        stages.setdefault(path.read_text() if path.exists() else "not started", []).append(rank)
    return "; ".join(f"rank{'s' if len(rs) > 1 else ''} {', '.join(map(str, rs))} {stage}"
                     for stage, rs in stages.items())
