"""JAX's dense linear algebra (LAPACK custom calls on the CPU: getrf,
potrf, trsm, geqrf, orgqr) through the JAX front door
(frontends/_jaxlib_lapack.py): `jnp.linalg.solve`, `inv`, `det`,
`slogdet`, `lax.linalg.lu`, `cholesky`, `cho_solve`, `solve_triangular`
in every form, `qr` in its modes, batched, in f32 and f64, singular and
not positive definite, give JAX's values in the simulator and
natively, and partitioned over 2 ranks."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax
jsl = jax.scipy.linalg

from jax_text import simulated_and_native_agree, with_first_argument_split  # noqa: E402
from mlir import ir  # noqa: E402

import meshsdy.pipeline as pipeline  # noqa: E402
import meshsdy.run as mpirun  # noqa: E402
from meshsdy.frontends import from_stablehlo  # noqa: E402

RNG = np.random.default_rng(7)


def _general(n: int, dtype: type = np.float32, batch: Sequence[int] = ()) -> np.ndarray:
    """A well-conditioned n x n matrix (a random one plus n on the diagonal)."""
    return (RNG.standard_normal((*batch, n, n)) + n * np.eye(n)).astype(dtype)


def _spd(n: int, dtype: type = np.float32, batch: Sequence[int] = ()) -> np.ndarray:
    x = RNG.standard_normal((*batch, n, n))
    return (x @ np.swapaxes(x, -1, -2) + n * np.eye(n)).astype(dtype)


def _imported(fn: Callable, inputs: Sequence[np.ndarray]) -> tuple[str, list[np.ndarray]]:
    """`fn` lowered by JAX and imported, and JAX's outputs."""
    lowered = jax.jit(fn).lower(*inputs).as_text()
    assert "lapack_" in lowered, "not a LAPACK program: the test would not test the conversion"
    with ir.Context():
        source = str(from_stablehlo(lowered))
    assert "custom_call" not in source
    return source, [np.asarray(o) for o in jax.tree_util.tree_leaves(jax.jit(fn)(*inputs))]


def _tolerances(dtype: type) -> dict[str, float]:
    return {"rtol": 2e-4, "atol": 2e-5} if dtype == np.float32 else {"rtol": 1e-10, "atol": 1e-12}


CASES: dict[str, tuple[Callable, Callable[[], list[np.ndarray]]]] = {
    "solve": (jnp.linalg.solve, lambda: [_general(6), RNG.standard_normal((6, 3)).astype(np.float32)]),
    "solve_vector": (jnp.linalg.solve, lambda: [_general(5), RNG.standard_normal(5).astype(np.float32)]),
    "inv": (jnp.linalg.inv, lambda: [_general(5)]),
    "det": (jnp.linalg.det, lambda: [_general(5)]),
    "slogdet": (lambda a: tuple(jnp.linalg.slogdet(a)), lambda: [_general(5) - 8 * np.eye(5, dtype=np.float32)]),
    "lu": (lambda a: lax.linalg.lu(a), lambda: [RNG.standard_normal((5, 5)).astype(np.float32)]),
    "lu_wide": (lambda a: lax.linalg.lu(a), lambda: [RNG.standard_normal((3, 5)).astype(np.float32)]),
    "lu_tall": (lambda a: lax.linalg.lu(a), lambda: [RNG.standard_normal((6, 4)).astype(np.float32)]),
    "cholesky": (jnp.linalg.cholesky, lambda: [_spd(6)]),
    "cholesky_upper": (lambda a: jsl.cholesky(a, lower=False), lambda: [_spd(5)]),
    "cho_solve": (lambda a, b: jsl.cho_solve(jsl.cho_factor(a), b),
                  lambda: [_spd(5), RNG.standard_normal((5, 2)).astype(np.float32)]),
    "batched_solve": (jnp.linalg.solve, lambda: [_general(4, batch=(2, 3)),
                                                 RNG.standard_normal((2, 3, 4, 2)).astype(np.float32)]),
    "batched_cholesky": (jnp.linalg.cholesky, lambda: [_spd(4, batch=(3,))]),
    "qr_tall": (lambda a: tuple(jnp.linalg.qr(a)), lambda: [RNG.standard_normal((6, 4)).astype(np.float32)]),
    "qr_wide": (lambda a: tuple(jnp.linalg.qr(a)), lambda: [RNG.standard_normal((3, 5)).astype(np.float32)]),
    "qr_complete": (lambda a: tuple(jnp.linalg.qr(a, mode="complete")),
                    lambda: [RNG.standard_normal((5, 3)).astype(np.float32)]),
    "qr_r_batched": (lambda a: jnp.linalg.qr(a, mode="r"), lambda: [RNG.standard_normal((2, 4, 3)).astype(np.float32)]),
}
def _every_triangular_solve(a: jax.Array, b: jax.Array, c: jax.Array) -> tuple[jax.Array, ...]:
    """Every form of trsm JAX writes: lower or upper, op(a) = a, a^T or a^H,
    unit diagonal or not (on the left), and the right-side forms."""
    left = [jsl.solve_triangular(a, b, lower=lower, trans=trans, unit_diagonal=unit)
            for lower in (True, False) for trans in (0, 1, 2) for unit in (False, True)]
    right = [lax.linalg.triangular_solve(a, c, left_side=False, lower=lower, transpose_a=transpose)
             for lower in (True, False) for transpose in (False, True)]
    return (*left, *right)


CASES["solve_triangular"] = (_every_triangular_solve, lambda: [
    _general(5), RNG.standard_normal((5, 3)).astype(np.float32), RNG.standard_normal((3, 5)).astype(np.float32)])


@pytest.mark.parametrize("name", list(CASES))
def test_jax_linear_algebra_is_jaxs(name: str) -> None:
    fn, make = CASES[name]
    inputs = make()
    source, want = _imported(fn, inputs)
    simulated_and_native_agree(source, inputs, want, **_tolerances(np.float32))


def test_f64_is_jaxs() -> None:
    with jax.enable_x64(True):
        a, spd = _general(6, np.float64), _spd(6, np.float64)
        b = RNG.standard_normal((6, 2))
        fn = lambda a, spd, b: (jnp.linalg.solve(a, b), jnp.linalg.det(a), jnp.linalg.cholesky(spd),  # noqa: E731
                                jsl.solve_triangular(a, b, lower=False))
        source, want = _imported(fn, [a, spd, b])
    assert "f64" in source and "f32" not in source
    simulated_and_native_agree(source, [a, spd, b], want, **_tolerances(np.float64))


def test_singular_and_not_positive_definite_are_jaxs() -> None:
    """A singular matrix: LU completes (info > 0, not an error), det 0; a matrix that is not positive
    definite: JAX's Cholesky factor of NaNs (in its lower triangle)."""
    singular = np.array([[1, 2, 3], [2, 4, 6], [1, 1, 1]], np.float32)
    indefinite = np.array([[1, 2, 0], [2, 1, 0], [0, 0, 1]], np.float32)
    fn = lambda s, i: (lax.linalg.lu(s), jnp.linalg.det(s), jnp.linalg.cholesky(i))  # noqa: E731
    source, want = _imported(fn, [singular, indefinite])
    assert want[3] == 0 and np.isnan(want[4][np.tril_indices(3)]).all(), "the case is not the one meant"
    simulated_and_native_agree(source, [singular, indefinite], want)


def test_partitioned_factorizations_over_two_ranks() -> None:
    """The matrix split by rows over 2 devices: the factorizations read
    rows and columns at the loop's position, so the partitioner gathers
    what they need; simulated and on 2 MPI ranks, JAX's values."""
    a, b = _general(8), RNG.standard_normal((8, 4)).astype(np.float32)
    fn = lambda a, b: (jnp.linalg.solve(a, b), jnp.linalg.cholesky(a @ a.T), jnp.linalg.det(a),  # noqa: E731
                       *jnp.linalg.qr(a))
    source, want = _imported(fn, [a, b])
    split = with_first_argument_split(source, "tensor<8x8xf32>", ["x", ""], "x", 2)
    with ir.Context():
        module = ir.Module.parse(split)
        report = pipeline.spmdize(module)
    assert report.collectives, "nothing partitioned: the test would not test partitioning"
    got = mpirun.run(split, "main", [a, b], ranks=2, timeout=300)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=2e-4, atol=2e-4)


def test_other_lapack_calls_are_refused_by_name() -> None:
    """`eigh` (syevd) is not converted: a FrontendError naming the call."""
    from meshsdy.frontends import FrontendError

    lowered = jax.jit(lambda a: jnp.linalg.eigh(a)[0]).lower(_spd(4)).as_text()
    with ir.Context(), pytest.raises(FrontendError, match="stablehlo.custom_call"):
        from_stablehlo(lowered)


def test_a_split_matrix_is_gathered_once_not_in_every_step() -> None:
    """A program with a mesh (the user's sharding on the matrix): the
    factorization's operands are constrained whole, so the partitioner
    gathers the matrix once before the loop (as XLA gathers a custom call's
    operands), not in each of its n steps."""
    a, b = _general(8), RNG.standard_normal((8, 4)).astype(np.float32)
    lowered = jax.jit(jnp.linalg.solve).lower(a, b).as_text()
    split = with_first_argument_split(lowered, "tensor<8x8xf32>", ["x", ""], "x", 2)
    with ir.Context():
        source = str(from_stablehlo(split))
        assert source.count("sdy.sharding_constraint") >= 2
        module = ir.Module.parse(source)
        report = pipeline.spmdize(module)
        partitioned = str(module)
    assert report.collectives == {"mesh.all_gather": 1}, report.collectives
    loops = partitioned.split("scf.for")[1:]
    assert loops and not any("mesh.all_gather" in body.split("scf.yield")[0] for body in loops)
    got = mpirun.run(source, "main", [a, b], ranks=2, timeout=300)
    np.testing.assert_allclose(got[0], np.asarray(jnp.linalg.solve(a, b)), rtol=2e-4, atol=2e-5)


def test_a_split_batch_stays_split() -> None:
    """A batch of matrices split over the devices: every step of a
    factorization runs on the whole batch, so each device factors its own
    matrices and nothing moves (as XLA partitions the custom calls). Also
    `solve` and `det`, whose pivots JAX reads back through gathers at the
    batch's own positions (the factors' pieces were gathered whole until
    2026-12-07)."""
    a = _general(5, batch=(4,))
    spd, b = a @ np.swapaxes(a, 1, 2), RNG.standard_normal((4, 5, 2)).astype(np.float32)
    fn = lambda a, spd, b: (jsl.cho_solve(jsl.cho_factor(spd, lower=True), b), lax.linalg.lu(a)[0],  # noqa: E731
                            jnp.linalg.qr(a)[1], jsl.solve_triangular(a, b, lower=False),
                            jnp.linalg.solve(a, b), jnp.linalg.det(a))
    lowered = jax.jit(fn).lower(a, spd, b).as_text()
    split = with_first_argument_split(lowered, "tensor<4x5x5xf32>", ["x", "", ""], "x", 2)
    split = split.replace("%arg1: tensor<4x5x5xf32>",
                          '%arg1: tensor<4x5x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}', 1)
    with ir.Context():
        source = str(from_stablehlo(split))
        report = pipeline.spmdize(ir.Module.parse(source))
    assert not report.collectives and report.total_bytes_sent_per_device == 0, report.collectives
    got = mpirun.run(source, "main", [a, spd, b], ranks=2, timeout=300)
    for g, w in zip(got, jax.jit(fn)(a, spd, b), strict=True):
        np.testing.assert_allclose(g, np.asarray(w), rtol=2e-4, atol=2e-4)
