"""The native libraries a rank loads before its program, and how.

- MPICH's `libmpi.so.12` (mpi4py initialised MPI with it; the program calls
  the same library), MLIR's C runner utilities (`memrefCopy`), and
  meshsdy's runtime (`libmeshsdy_runtime.so`, lib/Runtime: the GEMM driver
  and the handler of failed assertions), each loaded RTLD_GLOBAL so that
  the program's undefined symbols resolve to them.
- The BLAS under the GEMM driver: OpenBLAS from the `scipy-openblas32`
  wheel (symbols `scipy_cblas_sgemm`, ...), or the library named by
  $MESHSDY_BLAS (with the symbol prefix $MESHSDY_BLAS_PREFIX, default none).
  Its threads are set to the rank's (`threads`, default 1).

A rank keeps the memory its program frees (`keep_freed_memory`), so that
the next call reuses it.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

__all__ = ["blas_library", "keep_freed_memory", "load_runtime", "runtime_library", "shared_libraries"]

# glibc's mallopt parameters (malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_MAX = -4


def runtime_library() -> Path:
    """meshsdy's runtime, shipped in the wheel next to mesh-opt."""
    return Path(__file__).resolve().parent.parent / "lib" / "libmeshsdy_runtime.so"


def shared_libraries() -> list[str]:
    """What a program may call besides its own code: MPICH's libmpi (the
    `libmpi.so` next to it is a linker script), MLIR's C runner utilities
    and meshsdy's runtime, those that exist."""
    import mlir

    candidates = [
        os.path.join(sys.prefix, "lib", "libmpi.so.12"),
        os.path.join(list(mlir.__path__)[0], "lib", "libmlir_c_runner_utils.so"),
        str(runtime_library()),
    ]
    return [c for c in candidates if os.path.exists(c)]


def blas_library() -> tuple[str, str] | None:
    """The BLAS to load and its symbol prefix, or None if there is none."""
    if os.environ.get("MESHSDY_BLAS"):
        return os.environ["MESHSDY_BLAS"], os.environ.get("MESHSDY_BLAS_PREFIX", "")
    try:
        import scipy_openblas32
    except ImportError:
        return None
    path = Path(scipy_openblas32.get_lib_dir()) / scipy_openblas32.get_library(fullname=True)
    return (str(path), "scipy_") if path.exists() else None


def keep_freed_memory() -> bool:
    """Makes glibc's malloc of this process keep the memory it frees: every
    block from its heap (no block mapped on its own) and the heap never
    trimmed. A program's buffers are megabytes; by default glibc maps each
    one afresh or gives the freed heap back, and every call faults each page
    in and zeroes it again (the 4-layer MLP at batch 1024 on 2 ranks: 6,000
    faults a call and rank, each zeroed). Returns whether the C
    library took both settings (False without glibc's mallopt)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except AttributeError:
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(_M_MMAP_MAX, 0)) & bool(mallopt(_M_TRIM_THRESHOLD, 2**31 - 1))


def load_runtime(threads: int) -> ctypes.CDLL:
    """Loads the shared libraries (RTLD_GLOBAL) and the BLAS with `threads`
    threads; returns the runtime. Raises OSError if the runtime cannot be
    loaded or its BLAS is missing."""
    runtime = None
    for path in shared_libraries():
        lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        if path == str(runtime_library()):
            runtime = lib
    if runtime is None:
        raise OSError(f"meshsdy's runtime {runtime_library()} is missing: reinstall meshsdy")
    blas = blas_library()
    if blas is not None:
        runtime.meshsdy_runtime_load_blas.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]
        runtime.meshsdy_runtime_error.restype = ctypes.c_char_p
        if runtime.meshsdy_runtime_load_blas(blas[0].encode(), blas[1].encode(), threads) != 0:
            raise OSError(runtime.meshsdy_runtime_error().decode(errors="replace"))
    return runtime
