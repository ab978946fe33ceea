"""`python -m meshsdy.explain FILE --func F [--traversal T] [--html PAGE]`:
print, op by op, the sharding of each result and the collectives
partitioning inserts before it with their reason and cost, then the totals;
with --html, also write one self-contained page with pictures. Exit 0, or 2
with a one-line error."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from mlir import ir

from ..pipeline import TRAVERSALS
from ..sim.cli import error_line
from . import explain


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meshsdy.explain", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="annotated global program (mesh or sdy); - for stdin")
    parser.add_argument("--func", required=True, help="function to explain")
    parser.add_argument("--traversal", default="forward-backward", choices=TRAVERSALS)
    parser.add_argument("--html", metavar="PAGE", help="also write a self-contained HTML page")
    args = parser.parse_args(argv)
    try:
        source = sys.stdin.read() if args.file == "-" else Path(args.file).read_text()
        explanation = explain(source, args.func, traversal=args.traversal)
        print(explanation.text())
        if args.html:
            from .html import render

            Path(args.html).write_text(render(explanation))
    except ir.MLIRError as e:
        print(f"error: {error_line(e)}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
