"""`python -m meshsdy.frontends FILE [-o OUT]`: converts a program in a
foreign form (StableHLO text from JAX, torch-mlir's output, upstream
`shard` IR) into meshsdy's IR and prints it (or writes OUT). The source is
recognised from the text (`detect`). Bad input: one line on stderr, exit 2."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from importlib import import_module

from mlir import ir

from ..sim.cli import OneLineParser, error_line
from ._common import FrontendError

#: (source, the module and function converting its text), in detection order.
CONVERTERS = {
    "stablehlo": ("stablehlo", "from_stablehlo"),
    "shard": ("shard", "from_shard"),
    "torch-mlir": ("torch", "from_torch_mlir"),
}


def detect(text: str) -> str:
    """Which source `text` comes from: 'stablehlo' (stablehlo, chlo or mhlo
    ops), 'shard' (upstream shard ops or grids), 'torch-mlir' (torch-mlir's
    tm_tensor ops or torch resources), else 'meshsdy' (already ours)."""
    if re.search(r"\b(stablehlo|chlo|mhlo)\.[a-z_]+", text):
        return "stablehlo"
    if re.search(r"\bshard\.(grid|sharding|shard|all_[a-z_]+|reduce_scatter)\b", text):
        return "shard"
    if re.search(r"\btm_tensor\.|torch_tensor_", text):
        return "torch-mlir"
    return "meshsdy"


def convert(text: str) -> str:
    """`text` converted to meshsdy's IR, printed; raises FrontendError."""
    source = detect(text)
    if source == "meshsdy":
        from ..resources import ElidedResourceError, check_resources
        from ._common import check_no_foreign_ops

        import meshsdy  # noqa: F401  (registers the dialects)

        with ir.Context():
            try:
                module = ir.Module.parse(text)
            except ir.MLIRError as e:
                raise FrontendError(error_line(e)) from None
            check_no_foreign_ops(module, "input")
            try:
                check_resources(module)
            except ElidedResourceError as e:
                raise FrontendError(f"input: {e}") from None
            return str(module)
    module_name, function = CONVERTERS[source]
    convert_text = getattr(import_module(f"{__package__}.{module_name}"), function)
    return str(convert_text(text))


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m meshsdy.frontends", description=__doc__)
    parser.add_argument("file", help="the program (MLIR text; - reads stdin)")
    parser.add_argument("-o", "--output", help="where to write the converted program (default: stdout)")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
        converted = convert(text)
        if args.output:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(converted)
        else:
            sys.stdout.write(converted)
        return 0
    except (FrontendError, OSError, UnicodeDecodeError, ir.MLIRError, ValueError) as e:
        print(f"error: {error_line(e)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
