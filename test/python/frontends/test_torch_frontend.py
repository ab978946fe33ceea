"""The PyTorch front door (`meshsdy.frontends.torch`): the function's
arguments are the parameters in `named_parameters()` order then the inputs,
shardings by name or pattern become `sdy.sharding`s on an `sdy.mesh`,
baked-in weights are `dense_resource` constants, torch-mlir's `tm_tensor`
ops are rewritten (cumsum, cumprod) or named, and every mistake is one
FrontendError line. Numerics against torch in the simulator."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import torch
import torch_mlir  # noqa: F401

from mlir import ir  # noqa: E402

import meshsdy  # noqa: E402,F401
from meshsdy.frontends import FrontendError  # noqa: E402
from meshsdy.frontends.torch import flatten_outputs, from_torch, from_torch_mlir, to_numpy  # noqa: E402
from meshsdy.sharding import Mesh, P  # noqa: E402
from meshsdy.sim import simulate  # noqa: E402


class Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 16)
        self.norm = torch.nn.LayerNorm(16)
        self.fc2 = torch.nn.Linear(16, 4, bias=False)

    def forward(self, x: torch.Tensor, scale: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.relu(self.fc1(x))
        return self.fc2(self.norm(h)) * scale, h.sum(dim=1)


@pytest.fixture(scope="module")
def net() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    return Net().eval(), (torch.randn(4, 8), torch.tensor(2.0))


@pytest.fixture(scope="module")
def imported(net):
    model, inputs = net
    return from_torch(model, inputs, mesh={"data": 2, "model": 2},
                      shardings={"fc1.weight": P("model", None), "*.bias": P("model"), "fc2.*": P(None, "model")},
                      input_specs=[P("data", None), None])


def _func(module: ir.Module):
    return next(op for op in module.body.operations if op.operation.name == "func.func")


def _arg_shardings(module: ir.Module) -> list[str | None]:
    func = _func(module)
    types = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).inputs
    if "arg_attrs" not in func.attributes:
        return [None] * len(types)
    return [str(ir.DictAttr(d)["sdy.sharding"]) if "sdy.sharding" in ir.DictAttr(d) else None
            for d in ir.ArrayAttr(func.attributes["arg_attrs"])]


def test_parameters_then_inputs(net, imported) -> None:
    model, inputs = net
    module, parameters = imported
    names = [n for n, _ in model.named_parameters()]
    assert names == ["fc1.weight", "fc1.bias", "norm.weight", "norm.bias", "fc2.weight"]
    for value, (_, p) in zip(parameters, model.named_parameters()):
        np.testing.assert_array_equal(value, p.detach().numpy())
    func = _func(module)
    types = [str(t) for t in ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).inputs]
    assert types == ["tensor<16x8xf32>", "tensor<16xf32>", "tensor<16xf32>", "tensor<16xf32>", "tensor<4x16xf32>",
                     "tensor<4x8xf32>", "tensor<f32>"]
    assert "dense_resource" not in str(module)


def test_shardings_by_name_and_pattern(imported) -> None:
    module, _ = imported
    assert 'sdy.mesh @mesh = <["data"=2, "model"=2]>' in str(module)
    assert _arg_shardings(module) == [
        '#sdy.sharding<@mesh, [{"model"}, {}]>',   # fc1.weight, by name
        '#sdy.sharding<@mesh, [{"model"}]>',       # fc1.bias, by "*.bias"
        None,                                       # norm.weight: left to propagation
        '#sdy.sharding<@mesh, [{"model"}]>',       # norm.bias, by "*.bias"
        '#sdy.sharding<@mesh, [{}, {"model"}]>',   # fc2.weight, by "fc2.*"
        '#sdy.sharding<@mesh, [{"data"}, {}]>',    # x
        None,                                       # scale
    ]


def test_the_simulator_agrees_with_torch(net, imported) -> None:
    model, inputs = net
    module, parameters = imported
    with torch.no_grad():
        expected = flatten_outputs(model(*inputs))
    outputs = simulate(str(module), "main", parameters + [to_numpy(x) for x in inputs])
    assert len(outputs) == 2
    for out, want in zip(outputs, expected):
        np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)


def test_baked_in_weights_are_dense_resources(net) -> None:
    model, inputs = net
    module, parameters = from_torch(model, inputs, mesh=Mesh({"data": 2}), input_specs=[P("data"), None],
                                    weights="constants")
    assert parameters == []
    assert len(re.findall(r"arith.constant dense_resource<", str(module))) == 5
    with torch.no_grad():
        expected = flatten_outputs(model(*inputs))
    outputs = simulate(str(module), "main", [to_numpy(x) for x in inputs])
    for out, want in zip(outputs, expected):
        np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)


def test_locations_are_the_models_source_lines(imported) -> None:
    module, _ = imported
    text = module.operation.get_asm(enable_debug_info=True)
    assert re.search(r'loc\(".*test_torch_frontend\.py":\d+', text), text[:2000]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"shardings": {"fc3.weight": P("model")}, "mesh": {"model": 2}}, "shardings key 'fc3.weight' matches no parameter"),
    ({"shardings": {"fc1.bias": P("model", None)}, "mesh": {"model": 2}},
     r"the spec of parameter 'fc1.bias': spec P\('model', None\) has 2 entries for a tensor of rank 1"),
    ({"shardings": {"fc1.bias": P("tensor")}, "mesh": {"model": 2}},
     "the spec of parameter 'fc1.bias': axis 'tensor' is not in mesh @mesh"),
    ({"input_specs": [P("data")]}, "1 input_specs for 2 example inputs"),
    ({"shardings": {"fc1.bias": P("model")}}, "shardings need a mesh"),
    ({"shardings": {"fc1.bias": P("model")}, "mesh": {"model": 2}, "weights": "constants"},
     "shardings name parameters, which weights='constants' bakes in"),
    ({"mesh": {"model": 0}}, "invalid mesh"),
    ({"weights": "buffers"}, "weights must be 'arguments' or 'constants'"),
])
def test_mistakes_are_one_line(net, kwargs, message) -> None:
    model, inputs = net
    with pytest.raises(FrontendError, match=message) as caught:
        from_torch(model, inputs, **kwargs)
    assert "\n" not in str(caught.value)


def test_not_a_module() -> None:
    with pytest.raises(FrontendError, match="expected a torch.nn.Module, got function"):
        from_torch(lambda x: x, (torch.zeros(2),))


class Scans(torch.nn.Module):
    def forward(self, ids: torch.Tensor, x: torch.Tensor):
        return torch.cumsum(ids, dim=1), torch.cumsum(x, dim=0), torch.cumprod(x, dim=1)


def _torch_mlir_text(model: torch.nn.Module, *inputs: torch.Tensor, **asm: object) -> str:
    from torch_mlir import fx

    exported = fx.export_and_import(model, *inputs, output_type="linalg-on-tensors")
    return exported.operation.get_asm(**asm)


@pytest.fixture(scope="module")
def scans_text() -> tuple[str, tuple[torch.Tensor, ...]]:
    inputs = (torch.randint(0, 5, (2, 5)), torch.randn(3, 4, generator=torch.Generator().manual_seed(1)))
    return _torch_mlir_text(Scans(), *inputs, enable_debug_info=True), inputs


def test_scans_become_linalg(scans_text) -> None:
    text, inputs = scans_text
    assert text.count("tm_tensor.scan") == 3
    module = from_torch_mlir(text)
    assert "tm_tensor" not in str(module) and "func.call" not in str(module)
    assert str(module).count('iterator_types = ["parallel", "parallel", "reduction"]') == 3
    outputs = simulate(module, "main", [to_numpy(x) for x in inputs])
    expected = Scans()(*inputs)
    np.testing.assert_array_equal(outputs[0], expected[0].numpy())
    np.testing.assert_allclose(outputs[1], expected[1].numpy(), rtol=1e-6)
    np.testing.assert_allclose(outputs[2], expected[2].numpy(), rtol=1e-6)


def test_the_cli_converts_torch_mlir_text(tmp_path: Path, scans_text) -> None:
    text, _ = scans_text
    path = tmp_path / "scans.mlir"
    path.write_text(text)
    result = subprocess.run([sys.executable, "-m", "meshsdy.frontends", str(path)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    assert "tm_tensor" not in result.stdout and "linalg.generic" in result.stdout
    converted = tmp_path / "out.mlir"
    converted.write_text(result.stdout)
    check = subprocess.run([meshsdy.tool_path(), str(converted), "--verify-diagnostics"], capture_output=True,
                           text=True, timeout=300)
    assert check.returncode == 0, check.stderr


class KthValue(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.kthvalue(x, 2).values


def test_another_tm_tensor_op_is_named(tmp_path: Path) -> None:
    text = _torch_mlir_text(KthValue(), torch.randn(2, 5), enable_debug_info=True)
    op = re.search(r"\btm_tensor\.([a-z_]+)", text)
    assert op and op.group(1) not in ("scan", "sort", "scatter"), text
    with pytest.raises(FrontendError, match=rf"torch-mlir: 'tm_tensor\.{op.group(1)}' at loc\(.*\) has no "
                                            r"conversion to meshsdy's ops \(only tm_tensor.scan, "
                                            r"tm_tensor.sort and tm_tensor.scatter are rewritten\)"):
        from_torch_mlir(text)
    path = tmp_path / "sort.mlir"
    path.write_text(text)
    result = subprocess.run([sys.executable, "-m", "meshsdy.frontends", str(path)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert f"'tm_tensor.{op.group(1)}'" in result.stderr


def test_an_elided_blob_is_refused(net, tmp_path: Path) -> None:
    model, inputs = net
    # torch-mlir's printer leaves the blobs out: the keys remain, without data.
    text = _torch_mlir_text(model, *inputs, large_resource_limit=16)
    assert "dense_resource<torch_tensor_" in text and "0x04" not in text
    with pytest.raises(FrontendError, match=r"'arith.constant' at .*: dense_resource<torch_tensor_[\w.]+> has no "
                                            r"data: its blob was elided .* \(5 such constants\)"):
        from_torch_mlir(text)
    path = tmp_path / "elided.mlir"
    path.write_text(text)
    result = subprocess.run([sys.executable, "-m", "meshsdy.frontends", str(path)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "blob was elided" in result.stderr


def test_a_bf16_model(net) -> None:
    """bf16 weights and inputs come out as ml_dtypes' bfloat16; the
    simulated program agrees with torch's bf16 within the type's tolerance
    (torch accumulates its matmuls in f32, the program rounds every step)."""
    from meshsdy.sim.tolerance import agree, default_tolerance

    model, inputs = net
    model = Net().eval()
    model.load_state_dict(net[0].state_dict())
    model = model.to(torch.bfloat16)
    inputs = (inputs[0].to(torch.bfloat16), inputs[1].to(torch.bfloat16))
    module, parameters = from_torch(model, inputs)
    assert all(p.dtype.name == "bfloat16" for p in parameters)
    assert "bf16" in str(module)
    with torch.no_grad():
        expected = flatten_outputs(model(*inputs))
    outputs = simulate(str(module), "main", parameters + [to_numpy(x) for x in inputs])
    for out, want in zip(outputs, expected):
        assert out.dtype.name == "bfloat16"
        tolerance = default_tolerance(module, "main", out.dtype)
        assert agree(out, want, tolerance, tolerance)
        # Far closer than that loose bound: a few units in the last place.
        eps = 2.0 ** -7
        difference = np.abs(out.astype(np.float64) - want.astype(np.float64))
        assert np.all(difference <= 4 * eps * np.abs(want.astype(np.float64)) + eps)


SCAN = """
func.func @main(%x: tensor<2x5xi64>) -> tensor<2x5xi64> {
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<2x5xi64>
  %a = tensor.empty() : tensor<2xi64>
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<2x5xi64>) outs(%e, %a : tensor<2x5xi64>, tensor<2xi64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.COMBINER %p, %q : i64
    tm_tensor.yield %s : i64
  } -> tensor<2x5xi64>, tensor<2xi64>
  return %r#0 : tensor<2x5xi64>
}
"""


def test_a_scan_without_a_neutral_element_is_named() -> None:
    with pytest.raises(FrontendError, match=r"'tm_tensor.scan' at loc\(.*\) has no conversion to meshsdy's ops \(its "
                                            r"body must combine its two arguments with one of .*, got arith.subi\)"):
        from_torch_mlir(SCAN.replace("COMBINER", "subi"))


@pytest.mark.parametrize(("combiner", "reference"), [("maxsi", np.maximum.accumulate), ("muli", np.cumprod)])
def test_scans_with_other_combiners(combiner: str, reference) -> None:
    module = from_torch_mlir(SCAN.replace("COMBINER", combiner))
    x = np.array([[3, -1, 4, -1, 5], [-9, 2, -6, 5, 3]], np.int64)
    (out,) = simulate(module, "main", [x])
    np.testing.assert_array_equal(out, reference(x, axis=1))


def test_torch_mlir_text_that_does_not_parse_is_one_line() -> None:
    with pytest.raises(FrontendError, match=r"^torch-mlir: Unable to parse module assembly: loc\(\"-\":6:35\): "
                                            r"expected attribute value$"):
        from_torch_mlir(SCAN.replace("dimension(1)", "dimension("))


class _WithBuffers(torch.nn.Module):
    """A persistent and a non-persistent buffer (Hugging Face LLaMA keeps its
    rotary `inv_freq` out of the state dict that way)."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.register_buffer("scale", torch.arange(4).float() + 1, persistent=False)
        self.register_buffer("shift", torch.full((4,), 0.5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lin(x) * self.scale + self.shift


@pytest.mark.parametrize("weights", ["arguments", "constants"])
def test_non_persistent_buffers_are_baked_in(weights: str) -> None:
    """torch-mlir's importer failed on them ("Could not find state mapping
    for buffer"); they are constants like persistent ones, and the module
    keeps them non-persistent."""
    net, x = _WithBuffers().eval(), torch.randn(3, 4, generator=torch.Generator().manual_seed(0))
    with ir.Context():
        module, parameters = from_torch(net, (x,), weights=weights)
        (got,) = simulate(module, "main", parameters + [x.numpy()])
    np.testing.assert_allclose(got, net(x).detach().numpy(), rtol=1e-6, atol=1e-6)
    assert len(parameters) == (2 if weights == "arguments" else 0)
    assert "scale" not in net.state_dict() and "shift" in net.state_dict()
