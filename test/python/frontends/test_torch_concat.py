"""PyTorch's `torch.roll` and `torch.cat` of slices come in as a
`tensor.concat` of static pieces (frontends/_torch_concat.py), without the
casts to dynamic sizes torch-mlir writes: split rows stay split on 2 ranks
(the dynamic pieces could not be sliced per device on MPI ranks) and the
values are PyTorch's, simulated and natively."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.pipeline as pipeline
import meshsdy.run as mpirun
from meshsdy.frontends._torch_concat import concat_static_pieces
from meshsdy.sim import simulate

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from meshsdy.frontends.torch import from_torch  # noqa: E402
from meshsdy.sharding import PartitionSpec as P  # noqa: E402


class _RollAndRotate(torch.nn.Module):
    def forward(self, x):  # noqa: ANN001, ANN201
        half = x.shape[-1] // 2
        rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
        return rotated * 2 + torch.roll(x, 1, dims=-1) - torch.roll(x, -3, dims=0)


def test_roll_and_cat_split_over_rows_are_pytorchs_on_2_ranks() -> None:
    x = torch.randn(6, 8, generator=torch.Generator().manual_seed(0))
    want = _RollAndRotate()(x).numpy()
    with ir.Context():
        module, _ = from_torch(_RollAndRotate(), (x,), mesh={"model": 2}, input_specs=[P("model", None)])
        source = str(module)
    assert source.count("tensor.concat") == 3 and "tensor.cast" not in source and "?x" not in source
    with ir.Context():
        partitioned = ir.Module.parse(source)
        pipeline.spmdize(partitioned)
        text = str(partitioned)
    # Rolling the columns stays on each device's rows; rolling the split rows
    # moves rows between the devices.
    assert "tensor<3x8xf32>" in text
    (simulated,) = simulate(source, "main", [x.numpy()])
    np.testing.assert_allclose(simulated, want, rtol=1e-6)
    (native,) = mpirun.run(source, "main", [x.numpy()], ranks=2, timeout=300)
    np.testing.assert_allclose(native, want, rtol=1e-6)


DYNAMIC_PIECES = """
func.func @f(%a: tensor<6x?xf32>, %b: tensor<6x4xf32>) -> tensor<6x8xf32> {
  %ca = tensor.cast %a : tensor<6x?xf32> to tensor<6x?xf32>
  %cb = tensor.cast %b : tensor<6x4xf32> to tensor<6x?xf32>
  %r = tensor.concat dim(1) %ca, %cb : (tensor<6x?xf32>, tensor<6x?xf32>) -> tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
"""


def test_a_piece_that_is_dynamic_itself_keeps_the_casts() -> None:
    with ir.Context():
        module = ir.Module.parse(DYNAMIC_PIECES)
        assert concat_static_pieces(module) == 0
        assert str(module).count("tensor.cast") == 2
        static = ir.Module.parse(DYNAMIC_PIECES.replace("%a: tensor<6x?xf32>", "%a: tensor<6x4xf32>")
                                 .replace("%a : tensor<6x?xf32> to", "%a : tensor<6x4xf32> to"))
        assert concat_static_pieces(static) == 1
        static.operation.verify()
        assert "tensor.cast" not in str(static)
