"""16-bit float contractions (matmul, matvec, vecmat, dot, batch_matvec in
bf16 and f16) run natively exactly as the simulator runs them: both round
each product and each addition to the type, in the loops' order."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import meshsdy.run
from meshsdy.sim import simulate

#: name, lhs shape, rhs shape, result shape.
CONTRACTIONS = [
    ("matmul", (4, 16), (16, 3), (4, 3)),
    ("matvec", (4, 16), (16,), (4,)),
    ("vecmat", (16,), (16, 3), (3,)),
    ("dot", (16,), (16,), ()),
    ("batch_matvec", (2, 4, 16), (2, 16), (2, 4)),
]


def _program(element: str) -> str:
    def ty(shape: tuple[int, ...]) -> str:
        return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"

    args = ", ".join(f"%a{i}: {ty(lhs)}, %b{i}: {ty(rhs)}" for i, (_, lhs, rhs, _) in enumerate(CONTRACTIONS))
    results = ", ".join(ty(out) for *_, out in CONTRACTIONS)
    body = [f"  %z = arith.constant 0.0 : {element}"]
    for i, (name, lhs, rhs, out) in enumerate(CONTRACTIONS):
        body += [f"  %e{i} = tensor.empty() : {ty(out)}",
                 f"  %f{i} = linalg.fill ins(%z : {element}) outs(%e{i} : {ty(out)}) -> {ty(out)}",
                 f"  %r{i} = linalg.{name} ins(%a{i}, %b{i} : {ty(lhs)}, {ty(rhs)}) outs(%f{i} : {ty(out)}) -> {ty(out)}"]
    returned = ", ".join(f"%r{i}" for i in range(len(CONTRACTIONS)))
    return "\n".join(["mesh.mesh @m(shape = 2)", f"func.func @f({args}) -> ({results}) {{", *body,
                      f"  return {returned} : {results}", "}"])


@pytest.mark.parametrize(("element", "dtype"), [("bf16", ml_dtypes.bfloat16), ("f16", np.float16)])
def test_native_16_bit_contractions_equal_the_simulator(element: str, dtype: type) -> None:
    rng = np.random.default_rng(3)
    inputs = []
    for _, lhs, rhs, _ in CONTRACTIONS:
        inputs += [rng.standard_normal(lhs).astype(dtype), rng.standard_normal(rhs).astype(dtype)]
    source = _program(element)
    native = meshsdy.run.run(source, "f", inputs, ranks=2)
    simulated = simulate(source, "f", inputs)
    for (name, *_), n, s in zip(CONTRACTIONS, native, simulated, strict=True):
        assert np.asarray(n).dtype == np.dtype(dtype), name
        np.testing.assert_array_equal(np.asarray(n, np.float32), np.asarray(s, np.float32), err_msg=name)
