"""A PyTorch CNN (nn.Conv2d in NCHW with padding and stride, ReLU, max
pooling, a mean and a linear head) through torch-mlir, whose
`linalg.conv_2d_nchw_fchw` and `linalg.pooling_nchw_max` keep the batch and
channel splits through sdy propagation: the first convolution split on its
output channels and the second on its input channels partition to one
all_reduce (Megatron's pair), and 4 MPI ranks agree with torch."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.pipeline as pipeline
import meshsdy.run
from meshsdy.sharding import P

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from meshsdy.frontends.torch import flatten_outputs, from_torch, to_numpy  # noqa: E402


class CNN(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = torch.nn.Conv2d(8, 8, 3, stride=2)
        self.fc = torch.nn.Linear(8, 10)

    def forward(self, x):  # noqa: ANN001, ANN201
        y = torch.relu(self.c1(x))
        y = torch.nn.functional.max_pool2d(torch.relu(self.c2(y)), 2)
        return self.fc(y.mean(dim=(2, 3)))


def test_a_torch_cnn_partitions_to_one_all_reduce_and_agrees_with_torch() -> None:
    torch.manual_seed(0)
    model, x = CNN().eval(), torch.randn(4, 3, 10, 10)
    module, parameters = from_torch(
        model, (x,), mesh={"data": 2, "model": 2}, input_specs=[P("data", None, None, None)],
        shardings={"c1.weight": P("model", None, None, None), "c1.bias": P("model"),
                   "c2.weight": P(None, "model", None, None)})
    source = module.operation.get_asm(enable_debug_info=True)
    assert "linalg.conv_2d_nchw_fchw" in source and "linalg.pooling_nchw_max" in source
    with ir.Context():
        report = pipeline.spmdize(ir.Module.parse(source))
    assert dict(report.collectives) == {"mesh.all_reduce": 1}
    outputs = meshsdy.run.run(source, "main", parameters + [to_numpy(x)], ranks=4)
    with torch.no_grad():
        expected = flatten_outputs(model(x))
    for out, exp in zip(outputs, expected, strict=True):
        np.testing.assert_allclose(out, np.asarray(exp), rtol=1e-5, atol=1e-5)
