"""Random partitioned programs run natively on MPI ranks (issue 14 item 4):
the generator of the simulator tests (chains of elementwise ops, matmuls,
reductions, transposes, reshardings, loops and calls on meshes of 1 to 3
axes), partitioned, lowered to mpi and LLVM, run on as many ranks as the
mesh has devices; the result must agree with the simulator's run of the
original program (and so with numpy's arithmetic)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from mlir import ir

import meshsdy.run as mpirun
from meshsdy import sim
from test_spmd_numerics import N, programs


# Meshes of 4 devices (1, 2 and 3 axes): more ranks than that only queue on
# CI's 2 cores.
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(programs(meshes=[(4,), (2, 2), (1, 2, 2)]))
def test_random_programs_agree_natively(source: str) -> None:
    with ir.Context():
        module = ir.Module.parse(source)
        mesh = next(op for op in module.body.operations if op.operation.name == "mesh.mesh")
        ranks = int(np.prod(list(ir.DenseI64ArrayAttr(mesh.operation.attributes["shape"]))))
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal((N, N)).astype(np.float32) for _ in range(3)]
    (want,) = sim.simulate(source, "f", inputs)
    (got,) = mpirun.run(source, "f", inputs, ranks=ranks, timeout=180)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=source)
