"""Hugging Face `transformers`' GPT-2, built from a small GPT2Config (random
weights, nothing downloaded: HF_HUB_OFFLINE=1), through torch-mlir (its
position ids come from a `tm_tensor.scan`, rewritten), with Megatron
shardings named by parameter (Conv1D weights are [in, out]), partitioned
on a 2x2 mesh, run on 4 MPI ranks and compared with torch."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
import torch  # noqa: F401
import torch_mlir  # noqa: F401
import transformers  # noqa: F401

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples" / "frontends"))
from torch_zoo import run_zoo_model  # noqa: E402


@pytest.mark.parametrize("weights", ["arguments", "constants"])
def test_hf_gpt2_agrees_with_torch(weights: str) -> None:
    # LLVM -O2, as users run it: the built program is what is checked.
    result = run_zoo_model("hf-gpt2", weights)
    print(result.line())
    assert result.agrees, result.line()
    if weights == "arguments":
        # Megatron: partial sums after each attention output and second
        # feed-forward layer (two per block).
        assert result.collectives.get("mesh.all_reduce", 0) >= 4, result.line()
