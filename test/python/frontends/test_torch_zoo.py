"""The PyTorch model zoo (examples/frontends/torch_models.py): an MLP, a
transformer block, a 2-layer GPT, a LLaMA-style block (rotary
embeddings: `torch.cat` inside each head stays on each device's heads) and
Hugging Face's LlamaForCausalLM (grouped-query attention: the key/value
heads' repeat stays on each device's heads too; its rotary `inv_freq` is
a non-persistent buffer), with their weights as function
arguments (Megatron shardings by name) and baked in (`dense_resource`
constants, only the batch sharded), each imported, partitioned on a 2x2
mesh, run on 4 MPI ranks and compared with torch's own outputs. With
Megatron's shardings the partitioned programs move exactly what
Megatron-LM does: one all_reduce after each row-parallel layer (2 per
transformer block, forward), no other collective."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples" / "frontends"))
from torch_zoo import run_zoo_model  # noqa: E402


@pytest.mark.parametrize("weights", ["arguments", "constants"])
@pytest.mark.parametrize("model", ["mlp", "block", "gpt", "llama", "hf-llama"])
def test_zoo_model_agrees_with_torch(model: str, weights: str) -> None:
    # LLVM -O2, as users run it: the built program is what is checked.
    result = run_zoo_model(model, weights)
    print(result.line())
    assert result.agrees, result.line()
    # Megatron weights: an all_reduce of partial sums after each
    # row-parallel matmul and nothing else (the heads stay split through
    # torch-mlir's batch x heads reshapes); baked-in weights: the batch
    # split alone moves nothing.
    megatron = {"mlp": 1, "block": 2, "gpt": 4, "llama": 2, "hf-llama": 4}[model]
    expected = {"mesh.all_reduce": megatron} if weights == "arguments" else {}
    assert result.collectives == expected, result.line()
