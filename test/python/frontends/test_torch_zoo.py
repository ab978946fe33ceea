"""The PyTorch model zoo (examples/frontends/torch_models.py): an MLP, a
transformer block and a 2-layer GPT, with their weights as function
arguments (Megatron shardings by name) and baked in (`dense_resource`
constants, only the batch sharded), each imported, partitioned on a 2x2
mesh, run on 4 MPI ranks and compared with torch's own outputs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples" / "frontends"))
from torch_zoo import run_zoo_model  # noqa: E402


@pytest.mark.parametrize("weights", ["arguments", "constants"])
@pytest.mark.parametrize("model", ["mlp", "block", "gpt"])
def test_zoo_model_agrees_with_torch(model: str, weights: str) -> None:
    # LLVM -O0: the JIT compiles GPT-sized programs ten times faster.
    result = run_zoo_model(model, weights, opt_level=0)
    print(result.line())
    assert result.agrees, result.line()
    # Partitioning did something: the batch is split, so at least the
    # results come back from pieces; with Megatron weights the model axis
    # needs an all_reduce of partial sums.
    if weights == "arguments":
        assert result.collectives.get("mesh.all_reduce", 0) >= 1, result.line()
    assert result.bytes_per_device >= 0
