"""`python -m meshsdy.viz FILE [--func F] [--value NAME | --all] [--out PATH]`.

Draws how values of a `mesh` or `sdy` program (before or after
propagation) are split over the devices: in the terminal, or as SVG/PNG
with `--out`. Values are named as in the printed IR (`%arg0`, `%0`,
`%sharded_1`) or as in FILE (`%x_s`); a function result whose result
attributes give it an sdy sharding is `result0`, `result1`, ...; FILE `-`
is stdin. Without `--value`, draws every value that has a sharding (a
tensor of dynamic shape is described in words instead: its pieces' sizes
are not known). With `--out` and several values, writes one file per
value, `PATH` with `-NAME` before the suffix. Exit status: 0 ok, 2 error
(one line on stderr).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from mlir import ir

from .api import save, terminal
from .layout import VizError
from .picture import describe
from .program import ValueSharding, value_shardings

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"error: {message} (see --help)", file=sys.stderr)
        raise SystemExit(2)


def _dims(text: str) -> list[int]:
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if not parts or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"dims {text!r} are not like 0,1")
    return [int(p) for p in parts]


def _load(path: str, ctx: ir.Context) -> tuple[ir.Module, str]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise VizError(f"cannot read {path}: {reason}") from None
    try:
        with ctx, ir.Location.unknown():
            return ir.Module.parse(text), text
    except ir.MLIRError as e:
        diags = e.error_diagnostics
        if diags:
            d = diags[0]
            where = f"{d.location.start_line}:{d.location.start_col}: " if d.location.is_a_file() else ""
            raise VizError(f"cannot parse {path}: {where}{d.message}") from None
        raise VizError(f"cannot parse {path}: {e.message}") from None


def _select(values: list[ValueSharding], wanted: Sequence[str], func: str) -> list[ValueSharding]:
    chosen = []
    for w in wanted:
        name = w if w.startswith("%") else "%" + w
        match = ([v for v in values if v.name == name] or [v for v in values if v.source_name == name]
                 or [v for v in values if v.name == w])  # `result0`: a function result
        if not match:
            raise VizError(f"no tensor value {name} in @{func}")
        v = match[0]
        if v.layout is None:
            raise VizError(f"{v.names} cannot be drawn: {v.reason}")
        chosen.append(v)
    return chosen


def _out_path(out: Path, v: ValueSharding, many: bool) -> Path:
    if not many:
        return out
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", v.name.lstrip("%"))
    return out.with_name(f"{out.stem}-{stem}{out.suffix}")


def _run(args: argparse.Namespace) -> int:
    import meshsdy  # noqa: F401  (registers the dialects)

    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    module, text = _load(args.file, ctx)
    with ctx:
        values = value_shardings(module, args.func, source=text)
        func = args.func.lstrip("@") if args.func else _func_name(module)
        described: list[ValueSharding] = []
        if args.value:
            chosen = _select(values, args.value, func)
        else:
            chosen = [v for v in values if v.layout is not None]
            # A tensor of dynamic shape is described in words in the terminal.
            described = [v for v in values if v.description is not None and args.out is None]
            skipped = [v for v in values if v.layout is None and v.reason != "it has no sharding"
                       and v not in described]
            for v in skipped:
                print(f"skipped {v.names}: {v.reason}", file=sys.stderr)
            if not chosen and not described:
                raise VizError(f"no value of @{func} can be drawn" if skipped else f"no value of @{func} has a sharding")
    if args.out is not None:
        out = Path(args.out)
        if out.suffix.lower() not in (".svg", ".png"):
            raise VizError(f"cannot write '{out}': the file name must end in .svg or .png")
        for v in chosen:
            assert v.layout is not None
            path = _out_path(out, v, len(chosen) > 1)
            try:
                save(v.layout, path, title=f"{v.names}: {v.type}", dims=args.dims)
            except OSError as e:
                raise VizError(f"cannot write {path}: {e.strerror or e}") from None
            print(f"wrote {path}")
        return 0
    from rich.console import Console

    console = Console(highlight=False)
    for k, v in enumerate(chosen):
        assert v.layout is not None
        if k:
            console.print()
        console.print(terminal(v.layout, title=f"{v.names}: {v.type}", dims=args.dims, width=args.width, ascii=args.ascii))
    for k, v in enumerate(described):
        assert v.description is not None
        if k or chosen:
            console.print()
        console.print(describe(v.description, title=f"{v.names}: {v.type}"), markup=False, soft_wrap=True)
    return 0


def _func_name(module: ir.Module) -> str:
    from .program import find_function

    return ir.StringAttr(find_function(module, None).attributes["sym_name"]).value


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `python -m meshsdy.viz`; returns the exit status."""
    p = _Parser(prog="python -m meshsdy.viz", description=(__doc__ or "").split("\n\n")[1])
    p.add_argument("file", help="MLIR file (mesh or sdy annotations); - reads stdin")
    p.add_argument("--func", help="function (default: the first one)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--value", action="append", metavar="NAME", help="value to draw (%%0, %%arg0, ...); repeatable")
    which.add_argument("--all", action="store_true", help="every value with a sharding (the default)")
    p.add_argument("--out", metavar="PATH", help="write an image (.svg or .png) instead of printing")
    p.add_argument("--dims", type=_dims, help="the two dims drawn as rows and columns, e.g. 0,1 (default: the last two cut into pieces)")
    p.add_argument("--width", type=int, default=40, help="width of a terminal picture in characters")
    p.add_argument("--ascii", action="store_true", help="draw borders with +-| only")
    args = p.parse_args(argv)
    try:
        return _run(args)
    except VizError as e:
        print("error: " + " ".join(str(e).split()), file=sys.stderr)
        return 2
    except BrokenPipeError:  # `... | head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
