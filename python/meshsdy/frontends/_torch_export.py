"""What `from_torch` does to a model and its exported program before
torch-mlir takes them: each rewrite here turns something torch-mlir's
importer or decompositions refused into the same computation in a form
they take (frontends/torch.py `_export`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

__all__ = ["listed_constants_as_copies", "persistent_buffers", "static_experts", "strided_copies_as_clones",
           "views_as_reshapes"]


def views_as_reshapes(program: Any) -> int:
    """Makes each `aten.view` of the exported program that no op mutates
    through an `aten.reshape` (the same values; a copy where the strides
    do not allow a view); returns how many. torch-mlir's decompositions
    retrace the program with strides of their own: Hugging Face GPT-2's
    `x.view(-1, x.size(-1))` of its attention's output was refused there
    ("Cannot view a tensor with shape [2, 32, 64] and strides (64, 128,
    1)") with the default `scaled_dot_product_attention`."""
    import torch

    aten = torch.ops.aten
    views = [n for n in program.graph.nodes if n.op == "call_function" and n.target == aten.view.default
             and not any(isinstance(u.target, torch._ops.OpOverload) and u.target._schema.is_mutable
                         for u in n.users)]
    for node in views:
        node.target = aten.reshape.default
    if views:
        program.graph_module.recompile()
    return len(views)


def strided_copies_as_clones(program: Any) -> int:
    """Makes each `prims.copy_strided` of the decomposed program an
    `aten.clone` (the same values: torch-mlir's tensors have no strides);
    returns how many. torch's decompositions write it for a copy that keeps
    a view's strides (an in-place `index_fill_` on the clone of a
    transposed tensor), and torch-mlir has no lowering for it."""
    import torch

    copies = [n for n in program.graph.nodes
              if n.op == "call_function" and n.target == torch.ops.prims.copy_strided.default]
    for node in copies:
        node.target = torch.ops.aten.clone.default
        node.args = node.args[:1]
        node.kwargs = {}
    if copies:
        program.graph_module.recompile()
    return len(copies)


def listed_constants_as_copies(program: Any) -> int:
    """Gives each buffer, parameter or constant the exported program takes
    that an op reads from inside a list (`x[index_buffer]`: `aten.index`'s
    indices) a copy (`aten.clone`) for the list to hold; returns how many
    lists changed. torch-mlir's importer bakes those inputs in as tensors
    and refused them inside a list ("Heterogeneous lists are not
    supported: expected vtensor, got <class 'torch.Tensor'>": Swin's
    relative position index)."""
    import torch

    signature = program.graph_signature
    baked = {*signature.inputs_to_buffers, *signature.inputs_to_parameters,
             *signature.inputs_to_lifted_tensor_constants}
    graph = program.graph_module.graph
    changed = 0
    for node in list(graph.nodes):
        if node.op != "call_function":
            continue
        args = list(node.args)
        for i, arg in enumerate(args):
            if not isinstance(arg, (list, tuple)):
                continue
            listed = [a for a in arg if isinstance(a, torch.fx.Node) and a.op == "placeholder" and a.name in baked]
            if not listed:
                continue
            copies = {}
            for value in listed:
                with graph.inserting_before(node):
                    copies[value] = graph.call_function(torch.ops.aten.clone.default, (value,))
                copies[value].meta = dict(value.meta)
            args[i] = type(arg)(copies.get(a, a) if isinstance(a, torch.fx.Node) else a for a in arg)
            node.args = tuple(args)
            changed += 1
    if changed:
        program.graph_module.recompile()
    return changed


@contextlib.contextmanager
def persistent_buffers(module: Any) -> Iterator[None]:
    """Makes `module`'s non-persistent buffers persistent while it is
    exported, and restores them. torch.export keeps such a buffer (Hugging
    Face LLaMA's rotary `inv_freq`) out of the state dict, where
    torch-mlir's importer looks for it ("Could not find state mapping for
    buffer"); a persistent one is baked in as a constant."""
    hidden = [(m, set(m._non_persistent_buffers_set)) for m in module.modules() if m._non_persistent_buffers_set]
    for m, _ in hidden:
        m._non_persistent_buffers_set.clear()
    try:
        yield
    finally:
        for m, names in hidden:
            m._non_persistent_buffers_set.update(names)


@contextlib.contextmanager
def static_experts(module: Any) -> Iterator[None]:
    """Has `module`'s Hugging Face mixture-of-experts layers use
    transformers' `batched_mm` experts while it is exported, and restores
    their choice. Each token's k experts are then one batched matmul of
    gathered weights; the default implementations size their work by the
    routing (`histc` and grouped matmuls, or a loop over the experts a
    `nonzero` finds), which a program of static shapes cannot hold
    (torch-mlir refused `aten.histc` in Mixtral). The same sums, in
    another order."""
    configs = {id(m.config): m.config for m in module.modules()
               if getattr(getattr(m, "config", None), "_experts_implementation", None) not in (None, "batched_mm")}
    chosen = {key: config._experts_implementation for key, config in configs.items()}
    for config in configs.values():
        config._experts_implementation = "batched_mm"
    try:
        yield
    finally:
        for key, config in configs.items():
            config._experts_implementation = chosen[key]
