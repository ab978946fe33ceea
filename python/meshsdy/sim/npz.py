"""Inputs from, and outputs to, `.npz` files: `--inputs FILE.npz` and
`--save-outputs FILE.npz` of `python -m meshsdy.sim` and `meshsdy.run`.

Inputs are arrays `arg0`, `arg1`, ... (one per function argument, as
`np.savez(path, arg0=x, arg1=w)` writes them); outputs are saved as
`out0`, `out1`, ... (per device of an SPMD run: `out0_device0`, ...). numpy
stores bf16 arrays as two raw bytes per element (dtype `|V2`); they are
read back as ml_dtypes' bfloat16 where the argument is bf16.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .reductions import SimulationError

__all__ = ["is_npz", "load_inputs", "save_arrays"]


def is_npz(text: str) -> bool:
    """Whether an `--inputs` value names a file rather than a kind."""
    return text.endswith(".npz")


def load_inputs(path: str, count: int, dtypes: Sequence[np.dtype] | None = None) -> list[np.ndarray]:
    """Arrays `arg0` .. `arg{count-1}` of the file at `path`; raw 2-byte
    arrays become bfloat16 where `dtypes` says so. SimulationError for a
    missing file, a missing array or one the function does not take."""
    if not os.path.exists(path):
        raise SimulationError(f"--inputs: no file {path}")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError) as e:
        raise SimulationError(f"--inputs: cannot read {path}: {e}") from None
    expected = [f"arg{i}" for i in range(count)]
    missing = [n for n in expected if n not in arrays]
    extra = sorted(set(arrays) - set(expected))
    if missing or extra:
        raise SimulationError(f"--inputs: {path} must hold {', '.join(expected) or 'no arrays'} "
                              f"(the function takes {count} arguments)"
                              + (f"; missing {', '.join(missing)}" if missing else "")
                              + (f"; unexpected {', '.join(extra)}" if extra else ""))
    result = [arrays[n] for n in expected]
    for i, dtype in enumerate(dtypes or []):
        if np.dtype(dtype).name == "bfloat16" and result[i].dtype.kind == "V" and result[i].dtype.itemsize == 2:
            result[i] = result[i].view(dtype)
    return result


def save_arrays(path: str, arrays: Mapping[str, Any]) -> None:
    """Writes `arrays` (name -> array) to `path` with np.savez."""
    try:
        np.savez(path, **{name: np.asarray(a) for name, a in arrays.items()})
    except OSError as e:
        raise SimulationError(f"--save-outputs: cannot write {path}: {e}") from None
