"""Megatron's vocabulary-parallel embedding from PyTorch: `nn.Embedding`
with a tied LM head, the table split over 'model' along its rows. Each device looks up the tokens its rows
hold and one all_reduce sums the pieces (the table used to be gathered
whole); torch's logits on 4 MPI ranks. (Rows the axis does not divide
are not split: sdy's import makes such an argument's sharding whole;
uneven tables of mesh programs: test_gathers.py.)"""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy import pipeline

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from meshsdy.frontends.torch import from_torch, to_numpy  # noqa: E402
from meshsdy.sharding import PartitionSpec as P  # noqa: E402


class _TiedEmbedding(torch.nn.Module):
    def __init__(self, vocab: int) -> None:
        super().__init__()
        self.wte = torch.nn.Embedding(vocab, 32)
        self.ln = torch.nn.LayerNorm(32)

    def forward(self, ids):  # noqa: ANN001, ANN201
        return self.ln(self.wte(ids)) @ self.wte.weight.T


def test_the_table_stays_split_over_its_rows() -> None:
    vocab = 96
    torch.manual_seed(vocab)
    model = _TiedEmbedding(vocab)
    # Tokens of both halves of the vocabulary, its first and last rows.
    ids = torch.randint(0, vocab, (4, 8))
    ids[0, :4] = torch.tensor([0, vocab // 2 - 1, vocab // 2, vocab - 1])
    with ir.Context():
        module, parameters = from_torch(model, (ids,), mesh={"data": 2, "model": 2},
                                        shardings={"wte.weight": P("model", None)},
                                        input_specs=[P("data", None)])
        source = str(module)
        report = pipeline.spmdize(ir.Module.parse(source))
    assert dict(report.collectives) == {"mesh.all_reduce": 1}
    (logits,) = mpirun.run(source, "main", parameters + [to_numpy(ids)], ranks=4, timeout=300)
    np.testing.assert_allclose(logits, model(ids).detach().numpy(), rtol=1e-5, atol=2e-5)
