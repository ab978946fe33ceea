"""python -m meshsdy.run FILE --func F --ranks N [--inputs random|zeros|ones|FILE.npz] [--seed S]
                         [--check] [--partitioned] [--save-outputs FILE.npz] [--opt-level 0-3]
                         [--threads T] [--no-cache] [--hostfile FILE] [--mpiexec-arg ARG ...]
python -m meshsdy.run FILE --func F --launched ...   (every rank of an MPI job started by someone else)

Runs the annotated global program natively on N MPI ranks (see
meshsdy.run). With --check, also runs it unpartitioned natively on one process (a
program with manual regions: in the simulator, see run_unpartitioned) and
prints `agree` (exit 0) or `disagree` with the largest difference (exit 1);
errors exit 2 with one line of message. Prints the compile time (the
shared object is built once per host and cached by the program's hash;
--no-cache builds it anew) and the run time of the slowest rank.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from mlir import ir

from . import Launch, RunError, _global_types, run, run_unpartitioned
from .. import sim
from ..sim.cli import OneLineParser, error_line, inputs_kind, non_negative_int
from ..sim.npz import save_arrays
from ..sim.tolerance import agree, default_tolerance, max_abs_difference


def _inputs(source: str, func: str, kind: str, seed: int) -> list[np.ndarray]:
    """Global inputs of `func`: zeros, ones, the arrays `arg0`, `arg1`, ...
    of a .npz file, or random values (normal floats, integers in [-8, 8),
    `index` values in [0, n), integers used as positions in [0, the size
    they index); see meshsdy.sim.inputs); scalar arguments get 0-d arrays.
    Dynamic shapes are refused."""
    from ..sim.inputs import index_bound, is_index, position_bounds, random_indices
    from ..sim.irutil import dtype_of, is_float, static_shape
    from ..sim.npz import is_npz, load_inputs
    from .scalars import check_runnable_types

    with ir.Context():
        module = ir.Module.parse(source)
        for op in module.body.operations:
            if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == func:
                ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
                types = _global_types(op.operation, "arguments", ftype.inputs)
                positions = position_bounds(op.operation)
                break
        else:
            raise RunError(f"no function @{func} in the module")
        try:
            check_runnable_types(types, "an argument")
        except ValueError as e:
            raise RunError(str(e)) from None
        if is_npz(kind):
            return load_inputs(kind, len(types), [dtype_of(t) for t in types])
        bound = index_bound(list(types) + list(ftype.results))
        rng = np.random.default_rng(seed)
        result = []
        for i, t in enumerate(types):
            shape, dtype = list(static_shape(t) or ()), dtype_of(t)
            if kind == "zeros":
                result.append(np.zeros(shape, dtype))
            elif kind == "ones":
                result.append(np.ones(shape, dtype))
            elif i in positions and (is_index(t) or np.issubdtype(dtype, np.integer)):
                result.append(random_indices(rng, shape, positions[i]).astype(dtype))
            elif is_index(t):
                result.append(random_indices(rng, shape, bound))
            elif is_float(dtype):
                result.append(rng.standard_normal(shape).astype(dtype))
            else:
                result.append(rng.integers(-8, 8, shape).astype(dtype))
        return result


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m meshsdy.run", description=__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path)
    parser.add_argument("--func", required=True)
    parser.add_argument("--inputs", type=inputs_kind, default="random", metavar="random|zeros|ones|FILE.npz",
                        help="the inputs: random (default), zeros, ones, or arrays arg0, arg1, ... of a .npz file")
    parser.add_argument("--save-outputs", metavar="FILE.npz",
                        help="write the (global) outputs to FILE.npz as out0, out1, ...")
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--check", action="store_true",
                        help="compare with the unpartitioned program run natively on one process")
    parser.add_argument("--partitioned", action="store_true",
                        help="FILE is already partitioned (mesh-opt --mesh-spmdize-pipeline output)")
    parser.add_argument("--timeout", type=_positive_float, default=300.0, help="seconds (default 300)")
    parser.add_argument("--opt-level", type=int, choices=(0, 1, 2, 3), default=2,
                        help="LLVM's optimisation level (default 2)")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads per rank (the BLAS's; default 1: run as many ranks as cores)")
    parser.add_argument("--no-cache", action="store_true",
                        help="build the program anew instead of taking it from the cache (~/.cache/meshsdy, "
                             "or $MESHSDY_CACHE_DIR)")
    parser.add_argument("--hostfile", metavar="FILE", help="MPICH's host file (mpiexec -f FILE): ranks on other hosts")
    parser.add_argument("--mpiexec-arg", action="append", default=[], metavar="ARG",
                        help="passed on to mpiexec (repeat for each argument: --mpiexec-arg=-launcher "
                             "--mpiexec-arg=ssh)")
    parser.add_argument("--workdir", metavar="DIR",
                        help="where the ranks' files go (default: a temporary directory; with --hostfile, "
                             "a directory every host sees)")
    parser.add_argument("--launched", action="store_true",
                        help="this is one rank of an MPI job started by someone else (mpiexec, srun): "
                             "rank 0 partitions and sends the pieces, no mpiexec is started")
    parser.add_argument("--ranks", type=int, help="how many ranks to start (not with --launched: the job's size)")
    args = parser.parse_args(argv)
    if args.ranks is None and not args.launched:
        parser.error("the following arguments are required: --ranks")
    try:
        if args.launched:
            return _launched(args)
        if args.ranks < 1:
            raise RunError(f"--ranks must be positive, got {args.ranks}")
        if args.partitioned and args.check:
            raise RunError("--check needs the global program; it cannot be used with --partitioned")
        options = Launch(timeout=args.timeout, opt_level=args.opt_level, threads=args.threads,
                         cache=not args.no_cache, hostfile=args.hostfile, mpiexec_args=tuple(args.mpiexec_arg),
                         workdir=args.workdir)
        source = args.file.read_text()
        inputs = _inputs(source, args.func, args.inputs, args.seed)
        timings: list[dict[str, float]] = []
        outputs = run(source, args.func, inputs, ranks=args.ranks, partitioned=args.partitioned,
                      timings=timings, launch_options=options)
        for i, out in enumerate(outputs):
            print(f"output {i}: {out.dtype} {list(out.shape)}")
        print(_times(timings))
        if args.save_outputs:
            save_arrays(args.save_outputs, {f"out{i}": out for i, out in enumerate(outputs)})
        if not args.check:
            return 0
        # The reference: the global program, natively on one process.
        expected = run_unpartitioned(source, args.func, inputs, launch_options=options)
        worst = max((max_abs_difference(a, e) for a, e in zip(outputs, expected)), default=0.0)
        with ir.Context():
            tolerances = [default_tolerance(ir.Module.parse(source), args.func, np.asarray(e).dtype) for e in expected]
        ok = all(agree(a, e, t, t) for a, e, t in zip(outputs, expected, tolerances))
        tol = f"rtol = atol = {max(tolerances, default=0.0):.3g}"
        print(f"agree (max abs difference {worst:.3g}, {tol})" if ok
              else f"disagree: max abs difference {worst:.3g} ({tol})")
        return 0 if ok else 1
    except (RunError, OSError, ValueError, TypeError, sim.SimulationError, ir.MLIRError) as e:
        print(f"error: {error_line(e)}", file=sys.stderr)
        return 2


def _times(timings: list[dict[str, float]]) -> str:
    """The compile and run times of a run, one line."""
    if not timings:
        return "compiled: -"
    built = "from the cache" if all(t.get("cached") for t in timings) else \
        f"{max(t['compile_s'] for t in timings):.2f} s, {max(t['compile_cpu_s'] for t in timings):.2f} s of CPU"
    return (f"compiled: {built} (once per host); ran: {max(t['run_s'] for t in timings):.4f} s "
            f"(slowest of {len(timings)} ranks)")


def _launched(args: argparse.Namespace) -> int:
    """--launched: this process is one rank of an MPI job (meshsdy.run.launched)."""
    from .launched import run_launched

    if args.check:
        raise RunError("--check starts a run of its own; it cannot be used with --launched")
    if args.hostfile or args.mpiexec_arg:
        raise RunError("--hostfile and --mpiexec-arg are for the mpiexec meshsdy.run starts, not with --launched")
    if args.threads < 1:
        raise RunError(f"--threads must be positive, got {args.threads}")
    source = args.file.read_text()

    def save(outputs: list[np.ndarray]) -> None:
        if args.save_outputs:
            save_arrays(args.save_outputs, {f"out{i}": out for i, out in enumerate(outputs)})

    return run_launched(source, args.func, lambda: _inputs(source, args.func, args.inputs, args.seed),
                        partitioned=args.partitioned, opt_level=args.opt_level, threads=args.threads,
                        cache=not args.no_cache, save=save)


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


if __name__ == "__main__":
    sys.exit(main())
