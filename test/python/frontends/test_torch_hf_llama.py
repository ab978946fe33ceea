"""Hugging Face `transformers`' LLaMA, built from a small LlamaConfig (random
weights, nothing downloaded: HF_HUB_OFFLINE=1; grouped-query attention,
rotary embeddings whose `inv_freq` is a non-persistent buffer), through
torch-mlir with Megatron shardings named by parameter, partitioned on a
2x2 mesh, run on 4 MPI ranks and compared with torch."""

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
def test_hf_llama_agrees_with_torch(weights: str) -> None:
    result = run_zoo_model("hf-llama", weights)
    print(result.line())
    assert result.agrees, result.line()
    # Megatron: an all_reduce after each attention output and down
    # projection (two per layer), nothing else: the rotary concatenation
    # and the key/value heads' repeat stay on each device's heads.
    # Baked-in weights: the batch split alone moves nothing.
    expected = {"mesh.all_reduce": 4} if weights == "arguments" else {}
    assert result.collectives == expected, result.line()
