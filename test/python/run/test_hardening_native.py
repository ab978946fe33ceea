"""Native runs (`meshsdy.run`) of what the simulator runs (hardening issue,
items 6 and 7): every `arith` and `math` op of the simulator's tables runs
natively on 2 MPI ranks and agrees with the simulator (libm's erf, erfc and
cbrt included, checked against Python's float64 `math` too); a function the
program calls but nothing defines is named; scalar (`f32`, `index`) arguments and results run;
dynamic shapes are refused in one line."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import meshsdy.run as mpirun
import meshsdy.sim as sim
from meshsdy.sim.program import OP_TABLE
from test_partition_and_compare_scalars import SCALAR_PARTIAL  # simulated there, run on ranks here

N = 8

# Arguments: name -> (element type, values). Each op reads arguments whose
# values are in its domain (no division by zero, shifts below the width,
# acosh >= 1, ...), so that native code and numpy must agree.
_RNG = np.random.default_rng(11)


def _floats(dtype: type) -> dict[str, np.ndarray]:
    return {
        "x": np.clip(_RNG.standard_normal(N) * 1.5, -3, 3).astype(dtype),
        "y": np.clip(_RNG.standard_normal(N) * 1.5, -3, 3).astype(dtype),
        "u": _RNG.uniform(-0.9, 0.9, N).astype(dtype),
        "p": _RNG.uniform(0.1, 5.0, N).astype(dtype),
        "q": _RNG.uniform(1.0, 6.0, N).astype(dtype),
        "h": np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7, -3.2], dtype),
        "n": np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, np.nan], dtype),
        "m": np.array([1.0, np.inf, np.nan, -0.0, 0.0, 1.0, np.nan, -np.inf], dtype),
    }


ARGS: dict[str, tuple[str, np.ndarray]] = {
    **{f"{k}32": ("f32", v) for k, v in _floats(np.float32).items()},
    **{f"{k}64": ("f64", v) for k, v in _floats(np.float64).items()},
    "a": ("i32", _RNG.integers(-20, 21, N).astype(np.int32)),
    "b": ("i32", _RNG.integers(-20, 21, N).astype(np.int32)),
    "d": ("i32", np.array([3, -2, 7, -7, 1, -1, 5, 2], np.int32)),
    "s": ("i32", np.array([0, 1, 3, 7, 15, 30, 31, 2], np.int32)),
    "e": ("i32", np.array([0, 1, 2, 3, 4, 2, 1, 3], np.int32)),
    "k": ("i32", np.array([-3, -2, -1, 0, 1, 2, 3, 1], np.int32)),
    "i8": ("i8", np.array([-128, -1, 0, 1, 127, 64, -64, 5], np.int8)),
    "ba": ("i1", np.array([0, 0, 1, 1, 0, 1, 0, 1], bool)),
    "bb": ("i1", np.array([0, 1, 0, 1, 1, 1, 0, 0], bool)),
}

FLOAT_UNARY = {  # op -> argument (domain)
    "arith.negf": "x", "math.absf": "x", "math.exp": "x", "math.exp2": "x", "math.expm1": "x",
    "math.tanh": "x", "math.sinh": "x", "math.cosh": "x", "math.sin": "x", "math.cos": "x",
    "math.tan": "x", "math.atan": "x", "math.asinh": "x", "math.erf": "x", "math.erfc": "x",
    "math.cbrt": "x", "math.asin": "u", "math.acos": "u", "math.atanh": "u", "math.acosh": "q",
    "math.log": "p", "math.log2": "p", "math.log10": "p", "math.log1p": "p", "math.sqrt": "p",
    "math.rsqrt": "p", "math.floor": "h", "math.ceil": "h", "math.trunc": "h", "math.round": "h",
    "math.roundeven": "h",
}
FLOAT_BINARY = {  # op -> (lhs, rhs)
    "arith.addf": ("x", "y"), "arith.subf": ("x", "y"), "arith.mulf": ("x", "y"), "arith.divf": ("x", "y"),
    "arith.remf": ("x", "y"), "arith.maximumf": ("n", "m"), "arith.minimumf": ("n", "m"),
    "arith.maxnumf": ("n", "m"), "arith.minnumf": ("n", "m"), "math.powf": ("p", "y"),
    "math.atan2": ("x", "y"), "math.copysign": ("x", "y"),
}
INT_BINARY = {  # op -> (lhs, rhs)
    "arith.addi": ("a", "b"), "arith.subi": ("a", "b"), "arith.muli": ("a", "b"), "arith.andi": ("a", "b"),
    "arith.ori": ("a", "b"), "arith.xori": ("a", "b"), "arith.maxsi": ("a", "b"), "arith.minsi": ("a", "b"),
    "arith.maxui": ("a", "b"), "arith.minui": ("a", "b"), "arith.divsi": ("a", "d"), "arith.divui": ("a", "d"),
    "arith.remsi": ("a", "d"), "arith.remui": ("a", "d"), "arith.floordivsi": ("a", "d"),
    "arith.ceildivsi": ("a", "d"), "arith.ceildivui": ("a", "d"), "arith.shli": ("a", "s"),
    "arith.shrsi": ("a", "s"), "arith.shrui": ("a", "s"), "math.ipowi": ("a", "e"),
}
BOOL_BINARY = ["arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
               "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"]
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une",
        "uno", "true"]
CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
# (op, argument, result element type)
CONVERSIONS = [
    ("arith.extsi", "i8", "i32"), ("arith.extui", "i8", "i32"), ("arith.extsi", "ba", "i32"),
    ("arith.extui", "ba", "i32"), ("arith.trunci", "a", "i8"), ("arith.trunci", "a", "i1"),
    ("arith.sitofp", "a", "f32"), ("arith.uitofp", "a", "f32"), ("arith.uitofp", "ba", "f32"),
    ("arith.sitofp", "a", "f64"), ("arith.fptosi", "h32", "i32"), ("arith.fptoui", "p32", "i32"),
    ("arith.fptosi", "h64", "i32"), ("arith.extf", "x32", "f64"), ("arith.truncf", "x64", "f32"),
    ("arith.index_cast", "a", "index"), ("arith.index_castui", "e", "index"),
    ("arith.bitcast", "x32", "i32"), ("arith.bitcast", "a", "f32"),
]


class Program:
    """The text of one function that applies every op to its arguments and
    returns each result sharded like its arguments."""

    def __init__(self) -> None:
        self.body: list[str] = []
        self.results: list[tuple[str, str, str]] = []  # (value, element type, description)

    def tensor(self, element: str) -> str:
        return f"tensor<{N}x{element}>"

    def add(self, what: str, expr: str, element: str) -> None:
        name = f"%r{len(self.results)}"
        self.body.append(f"  {name} = {expr}")
        self.results.append((name, element, what))

    def text(self) -> str:
        params = ", ".join(f"%{k}_in: {self.tensor(t)}" for k, (t, _) in ARGS.items())
        head = ["mesh.mesh @mesh(shape = 2)",
                f"func.func @f({params}) -> ({', '.join(self.tensor(t) for _, t, _ in self.results)}) {{",
                "  %split = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding"]
        head += [f"  %{k} = mesh.shard %{k}_in to %split : {self.tensor(t)}" for k, (t, _) in ARGS.items()]
        tail = [f"  %o{i} = mesh.shard {v} to %split : {self.tensor(t)}" for i, (v, t, _) in enumerate(self.results)]
        tail.append("  return " + ", ".join(f"%o{i}" for i in range(len(self.results))) + " : "
                    + ", ".join(self.tensor(t) for _, t, _ in self.results))
        return "\n".join(head + self.body + tail + ["}"])


def every_op_program() -> Program:
    p = Program()
    for bits in ("32", "64"):
        f = f"f{bits}"
        ty = p.tensor(f)
        for op, arg in FLOAT_UNARY.items():
            p.add(f"{op} {f}", f"{op} %{arg}{bits} : {ty}", f)
        for op, (lhs, rhs) in FLOAT_BINARY.items():
            p.add(f"{op} {f}", f"{op} %{lhs}{bits}, %{rhs}{bits} : {ty}", f)
        p.add(f"math.fma {f}", f"math.fma %x{bits}, %y{bits}, %p{bits} : {ty}", f)
        p.add(f"math.fpowi {f}", f"math.fpowi %p{bits}, %k : {ty}, {p.tensor('i32')}", f)
        for op in ("math.isnan", "math.isinf", "math.isfinite"):
            p.add(f"{op} {f}", f"{op} %n{bits} : {ty}", "i1")
        for pred in CMPF:
            p.add(f"arith.cmpf {pred} {f}", f"arith.cmpf {pred}, %n{bits}, %m{bits} : {ty}", "i1")
        p.add(f"arith.select {f}", f"arith.select %ba, %x{bits}, %y{bits} : {p.tensor('i1')}, {ty}", f)
        values = ", ".join(f"{v:.1f}" for v in range(N))
        p.add(f"arith.constant {f}", f"arith.constant dense<[{values}]> : {ty}", f)
    i32 = p.tensor("i32")
    for op, (lhs, rhs) in INT_BINARY.items():
        p.add(f"{op} i32", f"{op} %{lhs}, %{rhs} : {i32}", "i32")
    p.add("math.absi i32", f"math.absi %a : {i32}", "i32")
    p.add("math.ctpop i32", f"math.ctpop %a : {i32}", "i32")
    p.add("math.ctlz i32", f"math.ctlz %a : {i32}", "i32")
    p.add("math.cttz i32", f"math.cttz %a : {i32}", "i32")
    for pred in CMPI:
        p.add(f"arith.cmpi {pred} i32", f"arith.cmpi {pred}, %a, %b : {i32}", "i1")
    for op in BOOL_BINARY:
        p.add(f"{op} i1", f"{op} %ba, %bb : {p.tensor('i1')}", "i1")
    for op, arg, to in CONVERSIONS:
        p.add(f"{op} {ARGS[arg][0]} to {to}", f"{op} %{arg} : {p.tensor(ARGS[arg][0])} to {p.tensor(to)}", to)
    return p


TOLERANCE = {np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12}


def test_every_math_and_arith_op_runs_natively() -> None:
    """Every `math`/`arith` op the simulator supports, in f32 and f64 (and
    i32, i8, i1, index), on 2 ranks: the native results agree with the
    simulator's within the element type's tolerance (exactly for integers);
    libm's erf, erfc and cbrt also agree with Python's float64 `math`."""
    program = every_op_program()
    source = program.text()
    simulated = {n for n in OP_TABLE if n.startswith(("math.", "arith."))}
    tested = {what.split()[0] for _, _, what in program.results}
    assert simulated <= tested, f"ops the simulator runs but this test does not: {sorted(simulated - tested)}"

    inputs = [v for _, v in ARGS.values()]
    native = mpirun.run(source, "f", inputs, ranks=2)
    expected = sim.simulate(source, "f", inputs)
    assert len(native) == len(expected) == len(program.results)
    wrong = []
    for (_, _, what), got, want in zip(program.results, native, expected, strict=True):
        got, want = np.asarray(got), np.asarray(want)
        tol = TOLERANCE.get(want.dtype, 0.0)
        if got.dtype != want.dtype or not np.allclose(got, want, rtol=tol, atol=tol, equal_nan=True):
            wrong.append(f"{what}: native {got.tolist()} != simulated {want.tolist()}")
    assert not wrong, "\n".join(wrong)

    by_name = {what: np.asarray(got) for (_, _, what), got in zip(program.results, native)}
    for op, ref in (("math.erf", math.erf), ("math.erfc", math.erfc), ("math.cbrt", np.cbrt)):
        for bits, dtype in (("32", np.float32), ("64", np.float64)):
            x = ARGS[f"x{bits}"][1].astype(np.float64)
            want = np.array([ref(v) for v in x]).astype(dtype)
            tol = TOLERANCE[np.dtype(dtype)]
            np.testing.assert_allclose(by_name[f"{op} f{bits}"], want, rtol=tol, atol=tol, err_msg=f"{op} f{bits}")
    # Bit counts from Python's integers (32 for 0).
    bits32 = [int(v) & 0xFFFFFFFF for v in ARGS["a"][1]]
    assert by_name["math.ctlz i32"].tolist() == [32 - v.bit_length() for v in bits32]
    assert by_name["math.cttz i32"].tolist() == [(v & -v).bit_length() - 1 if v else 32 for v in bits32]


MISSING = """
mesh.mesh @mesh(shape = 2)
func.func private @no_such_fn(f32) -> f32
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.map ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>)
    (%v: f32, %o: f32) {
      %y = func.call @no_such_fn(%v) : (f32) -> f32
      linalg.yield %y : f32
    }
  return %r : tensor<8xf32>
}
"""


def test_a_missing_function_is_named_when_the_program_is_loaded() -> None:
    with pytest.raises(mpirun.RunError, match=r"loading the compiled code of @f failed: no definition of "
                                              r"_mlir_ciface_no_such_fn"):
        mpirun.run(MISSING, "f", [np.zeros(8, np.float32)], ranks=2)


SCALARS = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<8xf32>, %s: f32, %i: index) -> (tensor<8xf32>, f32, index) {
  %sh = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sa = mesh.shard %a to %sh : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %b = linalg.fill ins(%s : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %t = arith.mulf %sa, %b : tensor<8xf32>
  %o = mesh.shard %t to %sh : tensor<8xf32>
  %x = tensor.extract %t[%i] : tensor<8xf32>
  %c1 = arith.constant 1 : index
  %j = arith.addi %i, %c1 : index
  return %o, %x, %j : tensor<8xf32>, f32, index
}
"""


def test_scalar_arguments_and_results_run() -> None:
    a = np.arange(8, dtype=np.float32) - 3
    out, x, j = mpirun.run(SCALARS, "f", [a, np.float32(2.5), 5], ranks=2)
    np.testing.assert_array_equal(out, a * 2.5)
    assert x.shape == () and x.dtype == np.float32 and float(x) == float(a[5] * 2.5)
    assert j.shape == () and j.dtype == np.int64 and int(j) == 6


def test_a_partial_zero_d_argument_is_sharded_on_the_ranks() -> None:
    """A 0-d argument partial over an axis reaches one rank of each group
    (the others get 0), as in the simulator; before, every rank got it and
    the all_reduce doubled it."""
    x = np.arange(4, dtype=np.float32)
    (y,) = mpirun.run(SCALAR_PARTIAL, "f", [np.float32(0.5), x], ranks=2)
    np.testing.assert_array_equal(y, x + 0.5)


def _cli(tmp_path: Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "p.mlir"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "meshsdy.run", str(path), *args],
                          capture_output=True, text=True, timeout=300)


def test_cli_checks_scalar_and_index_arguments(tmp_path: Path) -> None:
    """`--check` makes an f32 and an index input (an index in range for the
    tensor it reads) and agrees with the unpartitioned run."""
    done = _cli(tmp_path, SCALARS, "--func", "f", "--ranks", "2", "--check")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == ["output 0: float32 [8]", "output 1: float32 []", "output 2: int64 []"]
    assert done.stdout.splitlines()[-1].startswith("agree")


DYNAMIC = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %sa = mesh.shard %a to %s : tensor<?x8xf32>
  %t = math.tanh %sa : tensor<?x8xf32>
  return %t : tensor<?x8xf32>
}
"""


def test_cli_refuses_dynamic_shapes_in_one_line(tmp_path: Path) -> None:
    done = _cli(tmp_path, DYNAMIC, "--func", "f", "--ranks", "2", "--check")
    assert done.returncode == 2
    assert done.stderr == ("error: an argument of type tensor<?x8xf32>: dynamic shapes are not supported by "
                           "the runner (its arguments and results need static shapes)\n")


def test_run_refuses_dynamic_shapes() -> None:
    with pytest.raises(mpirun.RunError, match="dynamic shapes are not supported"):
        mpirun.run(DYNAMIC, "f", [np.zeros((4, 8), np.float32)], ranks=2)


NO_MESH = """
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = math.tanh %a : tensor<4xf32>
  return %t : tensor<4xf32>
}
"""


def test_program_without_a_mesh_runs_whole_on_one_rank(tmp_path: Path) -> None:
    """Nothing to partition: the program runs whole on one rank, natively,
    and agrees with numpy; on more ranks it is refused with what to write,
    in the runner's words (not the comparison helper's it goes through)."""
    x = np.linspace(-2, 2, 4, dtype=np.float32)
    (got,) = mpirun.run(NO_MESH, "f", [x], ranks=1)
    np.testing.assert_allclose(got, np.tanh(x), rtol=1e-6)
    done = _cli(tmp_path, NO_MESH, "--func", "f", "--ranks", "2")
    assert done.returncode == 2
    assert done.stderr == ("error: the program has no mesh.mesh, so it runs whole on 1 rank, not 2 "
                           "(write one, e.g. `mesh.mesh @mesh(shape = 2)`, and shard on it)\n")