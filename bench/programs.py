"""Generators of benchmark programs, written with either our `mesh` dialect
or upstream MLIR's `shard` dialect (same program, different names), so that
both toolchains are timed on identical work.

Every generator returns MLIR text of one module with a `mesh.mesh` (or
`shard.grid`) symbol and one function `@main` whose first argument carries a
sharding annotation; the rest is left for propagation to decide.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Names:
    """Spelling of the sharding constructs in one dialect."""

    dialect: str
    mesh_op: str
    sharding_type: str

    def mesh(self, name: str, shape: str) -> str:
        return f"{self.dialect}.{self.mesh_op} @{name}(shape = {shape})"

    def annotate(self, value: str, mesh: str, split_axes: str, tensor: str, tmp: str) -> list[str]:
        return [
            f"  %{tmp}_s = {self.dialect}.sharding @{mesh} split_axes = {split_axes} : {self.sharding_type}",
            f"  %{tmp} = {self.dialect}.shard {value} to %{tmp}_s : {tensor}",
        ]


MESH = Names("mesh", "mesh", "!mesh.sharding")
SHARD = Names("shard", "grid", "!shard.sharding")
DIALECTS = {"mesh": MESH, "shard": SHARD}


def _elementwise(kind: str, ins: list[str], tensor: str, result: str) -> list[str]:
    operands = ", ".join(ins)
    types = ", ".join([tensor] * len(ins))
    return [
        f"  %{result}_e = tensor.empty() : {tensor}",
        f"  %{result} = linalg.{kind} ins({operands} : {types}) outs(%{result}_e : {tensor}) -> {tensor}",
    ]


def chain(n_ops: int, names: Names, size: int = 64) -> str:
    """A chain of unary elementwise ops (exp), `n_ops` ops in all."""
    tensor = f"tensor<{size}x{size}xf32>"
    body = names.annotate("%arg0", "mesh", "[[0]]", tensor, "x0")
    prev = "%x0"
    for i in range((n_ops - 2) // 2):
        body += _elementwise("exp", [prev], tensor, f"v{i}")
        prev = f"%v{i}"
    return _module(names, "4", [tensor], tensor, body, prev)


def shared_weight(n_ops: int, names: Names, size: int = 64) -> str:
    """A chain where every op also reads one shared weight `%arg1`: the
    weight has a use per op, which is what makes use-scanning quadratic."""
    tensor = f"tensor<{size}x{size}xf32>"
    body = names.annotate("%arg0", "mesh", "[[0]]", tensor, "x0")
    prev = "%x0"
    for i in range((n_ops - 2) // 2):
        body += _elementwise("add", [prev, "%arg1"], tensor, f"v{i}")
        prev = f"%v{i}"
    return _module(names, "4", [tensor, tensor], tensor, body, prev)


def mlp(n_ops: int, names: Names, size: int = 64) -> str:
    """MLP layers (matmul, bias add, exp), 9 ops a layer, batch split on
    mesh axis 0 of a 2-D mesh and each weight split on axis 1."""
    tensor = f"tensor<{size}x{size}xf32>"
    body = names.annotate("%arg0", "mesh", "[[0]]", tensor, "x0")
    prev = "%x0"
    for i in range(max(1, (n_ops - 3) // 9)):
        body += names.annotate(f"%arg1", "mesh", "[[], [1]]", tensor, f"w{i}")
        body += [
            f"  %m{i}_e = tensor.empty() : {tensor}",
            f"  %m{i}_z = linalg.fill ins(%zero : f32) outs(%m{i}_e : {tensor}) -> {tensor}",
            f"  %m{i} = linalg.matmul ins({prev}, %w{i} : {tensor}, {tensor}) outs(%m{i}_z : {tensor}) -> {tensor}",
        ]
        body += _elementwise("add", [f"%m{i}", "%arg2"], tensor, f"b{i}")
        body += _elementwise("exp", [f"%b{i}"], tensor, f"h{i}")
        prev = f"%h{i}"
    body.insert(0, "  %zero = arith.constant 0.0 : f32")
    return _module(names, "2x2", [tensor] * 3, tensor, body, prev)


def _module(names: Names, shape: str, args: list[str], result: str, body: list[str], ret: str) -> str:
    params = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(args))
    return "\n".join(
        [
            names.mesh("mesh", shape),
            f"func.func @main({params}) -> {result} {{",
            *body,
            f"  return {ret} : {result}",
            "}",
            "",
        ]
    )


GENERATORS: dict[str, Callable[[int, Names], str]] = {
    "chain": chain,
    "shared-weight": shared_weight,
    "mlp": mlp,
}


def count_ops(text: str) -> int:
    """Number of operations in a generated program (one op per line, plus
    the implicit module)."""
    return 1 + sum(1 for line in text.splitlines() if line.strip() not in ("", "}"))
