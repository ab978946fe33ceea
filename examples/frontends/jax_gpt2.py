#!/usr/bin/env python3
"""GPT-2 as Hugging Face `transformers` writes it, in JAX: token and position
embeddings, 2 pre-LayerNorm blocks whose attention projects q, k and v with
ONE fused `c_attn` weight ([in, 3*out], split into q, k, v contiguously),
the tanh GELU, a final LayerNorm and the head tied to the token table.

The shardings are the zoo's PyTorch GPT-2's (examples/frontends/
torch_models.py HF_GPT2_SHARDINGS) on the 2x2 mesh: the batch over 'data';
`c_attn` and `c_fc` split on their output features, both `c_proj` on their
input features, over 'model'. A split of the fused output features gives
one device all of q and the first half of k's heads, not half the heads of
each: this is the program on which XLA's partition of the fused layout is
compared with ours (bench/zoo_bench.py), next to Megatron-LM's count, which
assumes weights converted to a per-head layout first.

    .venv/bin/python examples/frontends/jax_gpt2.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_common import JaxModel, main, sharding

import jax
import jax.numpy as jnp

VOCAB, POSITIONS, WIDTH, HEADS, LAYERS = 64, 16, 32, 4, 2
#: Names of one block's parameters, in argument order.
BLOCK_PARAMETERS = ("ln_1.g", "ln_1.b", "attn.c_attn.w", "attn.c_attn.b", "attn.c_proj.w", "attn.c_proj.b",
                    "ln_2.g", "ln_2.b", "mlp.c_fc.w", "mlp.c_fc.b", "mlp.c_proj.w", "mlp.c_proj.b")


def layer_norm(x: jax.Array, g: jax.Array, b: jax.Array) -> jax.Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * g + b


def attention(x: jax.Array, c_attn_w, c_attn_b, c_proj_w, c_proj_b) -> jax.Array:  # noqa: ANN001
    batch, seq, width = x.shape
    q, k, v = jnp.split(x @ c_attn_w + c_attn_b, 3, axis=-1)
    heads = lambda t: t.reshape(batch, seq, HEADS, width // HEADS).transpose(0, 2, 1, 3)  # noqa: E731
    q, k, v = heads(q), heads(k), heads(v)
    scores = q @ k.transpose(0, 1, 3, 2) / jnp.sqrt(width // HEADS).astype(x.dtype)
    causal = jnp.tril(jnp.ones((seq, seq), bool))
    scores = jnp.where(causal, scores, jnp.finfo(x.dtype).min)
    out = (jax.nn.softmax(scores, axis=-1) @ v).transpose(0, 2, 1, 3).reshape(batch, seq, width)
    return out @ c_proj_w + c_proj_b


def gpt2(ids: jax.Array, wte: jax.Array, wpe: jax.Array, *rest: jax.Array) -> jax.Array:
    *blocks, ln_f_g, ln_f_b = rest
    x = wte[ids] + wpe[: ids.shape[1]]
    for layer in range(LAYERS):
        ln1g, ln1b, aw, ab, apw, apb, ln2g, ln2b, fw, fb, pw, pb = blocks[layer * 12:(layer + 1) * 12]
        x = x + attention(layer_norm(x, ln1g, ln1b), aw, ab, apw, apb)
        x = x + jax.nn.gelu(layer_norm(x, ln2g, ln2b) @ fw + fb, approximate=True) @ pw + pb
    return layer_norm(x, ln_f_g, ln_f_b) @ wte.T


def model() -> JaxModel:
    rng = np.random.default_rng(7)
    normal = lambda *s: (rng.standard_normal(s) * 0.2).astype(np.float32)  # noqa: E731
    shapes = {"ln_1.g": (WIDTH,), "ln_1.b": (WIDTH,), "attn.c_attn.w": (WIDTH, 3 * WIDTH),
              "attn.c_attn.b": (3 * WIDTH,), "attn.c_proj.w": (WIDTH, WIDTH), "attn.c_proj.b": (WIDTH,),
              "ln_2.g": (WIDTH,), "ln_2.b": (WIDTH,), "mlp.c_fc.w": (WIDTH, 4 * WIDTH),
              "mlp.c_fc.b": (4 * WIDTH,), "mlp.c_proj.w": (4 * WIDTH, WIDTH), "mlp.c_proj.b": (WIDTH,)}
    column, row, replicated = sharding(None, "model"), sharding("model", None), sharding()
    specs = {"attn.c_attn.w": column, "attn.c_attn.b": sharding("model"), "attn.c_proj.w": row,
             "mlp.c_fc.w": column, "mlp.c_fc.b": sharding("model"), "mlp.c_proj.w": row}
    inputs = [rng.integers(0, VOCAB, (4, 8)).astype(np.int32), normal(VOCAB, WIDTH), normal(POSITIONS, WIDTH)]
    in_shardings = [sharding("data", None), replicated, replicated]
    for _ in range(LAYERS):
        for name in BLOCK_PARAMETERS:
            inputs.append(1 + normal(*shapes[name]) if name.endswith(".g") else normal(*shapes[name]))
            in_shardings.append(specs.get(name, replicated))
    inputs += [1 + normal(WIDTH), normal(WIDTH)]
    in_shardings += [replicated, replicated]
    return JaxModel("gpt2_fused_qkv", gpt2, inputs, dict(in_shardings=tuple(in_shardings),
                                                         out_shardings=sharding("data")))


if __name__ == "__main__":
    sys.exit(main(model()))
