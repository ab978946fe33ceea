"""bf16 and f16 layers and reductions from PyTorch, both ways in: through
`from_torch`, which computes each 16-bit ATen op in f32
(frontends/_torch_opmath.py), and as torch-mlir's own linalg output
through `from_torch_mlir`, whose accumulations the MLIR-level rewrites
widen (frontends/_wide_accumulation.py, _torch_mean.py). torch-mlir writes
a Linear's matmul in f32 already but a convolution with 16-bit operands;
both come out with f32 operands (so that the runner calls the BLAS) and
agree with PyTorch to an ulp of the type (f32 sums in another order than
PyTorch's: a few f16 results round the other way), simulated and
natively. Sums, means, cumulative sums and norms accumulate in f32 as
PyTorch's do (its `acc_type`): they were up to 127 ulps off in bf16."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.frontends._wide_accumulation import accumulate_in_f32
from meshsdy.sim import simulate

from test_jax_16_bit_accumulation import ulps_off

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from meshsdy.frontends.torch import flatten_outputs, from_torch, from_torch_mlir, to_numpy  # noqa: E402

#: The two ways a PyTorch program comes in.
PATHS = ["from_torch", "from_torch_mlir"]


def _converted(model: torch.nn.Module, args: tuple, path: str) -> tuple[str, list[np.ndarray]]:
    """`model` as `from_torch` converts it (weights as arguments), or
    torch-mlir's own linalg-on-tensors output through `from_torch_mlir`
    (weights as constants, no rewrite before torch-mlir's lowering)."""
    if path == "from_torch":
        module, weights = from_torch(model, args)
        return str(module), weights
    from torch_mlir import fx

    exported = fx.export_and_import(model, *args, output_type="linalg-on-tensors")
    return str(from_torch_mlir(exported.operation.get_asm(enable_debug_info=True))), []


class _Layers(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(256, 48)
        self.conv = torch.nn.Conv2d(32, 8, 3, padding=1)

    def forward(self, x, image):  # noqa: ANN001, ANN201
        return torch.relu(self.linear(x)), self.conv(image)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "f16"])
def test_16_bit_linear_and_conv_are_pytorchs(dtype: torch.dtype, path: str) -> None:
    torch.manual_seed(3)
    model = _Layers().to(dtype)
    args = (torch.rand(8, 256).to(dtype), torch.rand(2, 32, 7, 7).to(dtype))
    with torch.no_grad():
        want = flatten_outputs(model(*args))
    source, weights = _converted(model, args, path)
    with ir.Context():
        assert accumulate_in_f32(ir.Module.parse(source)) == 0
    assert "linalg.conv_2d_nchw_fchw" in source
    inputs = [*weights, *(to_numpy(a) for a in args)]
    for what, got in (("simulated", simulate(source, "main", inputs)),
                      ("native", mpirun.run(source, "main", inputs, ranks=1, timeout=300))):
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            assert ulps_off(g, w) <= 1, f"{what}: result {k} {ulps_off(g, w)} ulps off PyTorch"
            assert np.mean(np.asarray(g) == w) > 0.99, f"{what}: result {k}"


class _Reductions(torch.nn.Module):
    def forward(self, x):  # noqa: ANN001, ANN201
        return x.sum(dim=1), x.mean(dim=1), x.cumsum(dim=1)[:, ::128], x.norm(dim=1)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "f16"])
def test_16_bit_reductions_accumulate_as_pytorchs(dtype: torch.dtype, path: str) -> None:
    x = (torch.rand(8, 1024, generator=torch.Generator().manual_seed(2)) * 4).to(dtype)
    with torch.no_grad():
        want = flatten_outputs(_Reductions()(x))
    source, _ = _converted(_Reductions(), (x,), path)
    inputs = [to_numpy(x)]
    for what, got in (("simulated", simulate(source, "main", inputs)),
                      ("native", mpirun.run(source, "main", inputs, ranks=1, timeout=300))):
        for name, g, w in zip(("sum", "mean", "cumsum", "norm"), got, want, strict=True):
            assert ulps_off(g, w) <= 1, f"{what}: {name} {ulps_off(g, w)} ulps off PyTorch"


class _Converting(torch.nn.Module):
    def forward(self, x, b, image, base, index, updates):  # noqa: ANN001, ANN201
        return (x.sum(1, dtype=torch.float16), b.sum(1, dtype=torch.float16),
                torch.nn.functional.avg_pool2d(image, 16), base.scatter_add(1, index, updates),
                base.index_add(1, index[0], updates))


@pytest.mark.parametrize("path", PATHS)
def test_conversions_pooling_and_scatters_are_pytorchs(path: str) -> None:
    """`sum(dtype=torch.float16)` converts each element first (7e4 is inf in
    f16: PyTorch's NaN, which the widening had lost); an average pooling's
    window sum and `scatter_add`/`index_add` of bf16 add in f32 as
    PyTorch's kernels do (256 plus forty 1.0s is 296, not 256)."""
    x = torch.tensor([[7e4, -7e4, 1.0, 2.0], [1e-8, 1e-8, 1e-8, 1e-8]])
    b = torch.tensor([[1e5, -1e5, 1.0, 2.0], [3.0, 0.5, 0.25, 8.0]]).to(torch.bfloat16)
    image = (torch.rand(1, 2, 32, 32, generator=torch.Generator().manual_seed(4)) * 4).to(torch.bfloat16)
    base = torch.full((2, 4), 256.0, dtype=torch.bfloat16)
    index = torch.zeros(2, 40, dtype=torch.long)
    updates = torch.ones(2, 40, dtype=torch.bfloat16)
    args = (x, b, image, base, index, updates)
    with torch.no_grad():
        want = flatten_outputs(_Converting()(*args))
    assert np.isnan(np.asarray(want[0])[0]) and np.asarray(want[3])[0, 0] == 296
    source, _ = _converted(_Converting(), args, path)
    inputs = [to_numpy(a) for a in args]
    for what, got in (("simulated", simulate(source, "main", inputs)),
                      ("native", mpirun.run(source, "main", inputs, ranks=1, timeout=300))):
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w), err_msg=f"{what}: result {k}")


class _Means(torch.nn.Module):
    def forward(self, x, y, z):  # noqa: ANN001, ANN201
        return (x.mean(1), x.mean(), x.sum(1), y.mean(1), y.mean(dim=(0, 1)),
                z.mean(1, dtype=torch.float16))


@pytest.mark.parametrize("path", PATHS)
def test_16_bit_means_divide_in_f32_by_the_exact_count(path: str) -> None:
    """torch-mlir divides the 16-bit sum by the count as a 16-bit constant:
    inf for an f16 mean over 100000 elements (the mean was NaN: PyTorch
    0.75), 4096 for a bf16 count of 4111. PyTorch divides in f32 by the
    exact count and rounds once (frontends/_torch_opmath.py before
    torch-mlir, frontends/_torch_mean.py after it)."""
    x = torch.full((4, 100000), 0.75, dtype=torch.float16)
    y = torch.tensor(np.random.default_rng(0).standard_normal((3, 4111)).astype(np.float32)).to(torch.bfloat16)
    z = torch.full((2, 100000), 0.75)
    args = (x, y, z)
    with torch.no_grad():
        want = flatten_outputs(_Means()(*args))
    # Not vacuous: torch-mlir's form is NaN on x, and off on y's rows.
    assert np.isnan(np.float16(np.float16(75000.0) / np.float16(100000)))
    sums = y.float().sum(1)
    naive = (sums.to(torch.bfloat16) / torch.tensor(4096.0, dtype=torch.bfloat16)).float().numpy()
    assert not np.array_equal(naive, np.asarray(want[3]).astype(np.float32))
    source, weights = _converted(_Means(), args, path)
    if path == "from_torch_mlir":  # _torch_mean's division: the exact counts, in f32
        assert "dense<1.000000e+05> : tensor<4xf32>" in source and "dense<4.111000e+03> : tensor<3xf32>" in source
    inputs = [*weights, *(to_numpy(a) for a in args)]
    for what, got in (("simulated", simulate(source, "main", inputs)),
                      ("native", mpirun.run(source, "main", inputs, ranks=1, timeout=300))):
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            np.testing.assert_array_equal(np.asarray(g).astype(np.float32), np.asarray(w).astype(np.float32),
                                          err_msg=f"{what}: result {k}")
