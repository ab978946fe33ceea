"""The PyTorch part of the model zoo: small models that real exports look
like, with the Megatron shardings of their weights, by parameter name.

- `mlp`: two linear layers and a GELU;
- `block`: a pre-LayerNorm transformer block (causal attention, 4 heads,
  GELU feed-forward);
- `gpt`: a 2-layer GPT: token and position embeddings (gathers), causal
  mask, LayerNorm, blocks as above, a language-model head;
- `hf-gpt2`: Hugging Face `transformers`' GPT-2 from a small `GPT2Config`
  (random weights, nothing downloaded; eager attention). Its `Conv1D`
  weights are [in, out];
- `llama`: a LLaMA-style decoder block: RMSNorm, rotary position
  embeddings (`rotate_half`'s `torch.cat`), causal attention, a SwiGLU
  feed-forward, bias-free linear layers;
- `hf-llama`: Hugging Face `transformers`' LlamaForCausalLM from a small
  `LlamaConfig` (2 layers, 4 heads sharing 2 key/value heads: grouped-query
  attention; random weights, eager attention). Its rotary `inv_freq` is a
  non-persistent buffer.

Megatron shardings on a `data` x `model` mesh: the batch on `data`; q, k, v
and the first feed-forward layer split on their output features, the
attention output and second feed-forward layer on their input features,
over `model`. Each `ZooModel` builds the model (seeded) and its inputs.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch import nn

from meshsdy.sharding import P, PartitionSpec

os.environ.setdefault("HF_HUB_OFFLINE", "1")


class MLP(nn.Module):
    def __init__(self, features: int = 16, hidden: int = 64) -> None:
        super().__init__()
        self.fc1 = nn.Linear(features, hidden)
        self.fc2 = nn.Linear(hidden, features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.nn.functional.gelu(self.fc1(x)))


class Block(nn.Module):
    """Pre-LayerNorm causal self-attention and feed-forward, with residuals."""

    def __init__(self, width: int = 32, heads: int = 4, hidden: int = 64) -> None:
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(width)
        self.q = nn.Linear(width, width)
        self.k = nn.Linear(width, width)
        self.v = nn.Linear(width, width)
        self.o = nn.Linear(width, width)
        self.ln2 = nn.LayerNorm(width)
        self.fc1 = nn.Linear(width, hidden)
        self.fc2 = nn.Linear(hidden, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, width = x.shape
        h = self.ln1(x)

        def split(t: torch.Tensor) -> torch.Tensor:
            return t.view(batch, seq, self.heads, width // self.heads).transpose(1, 2)

        q, k, v = split(self.q(h)), split(self.k(h)), split(self.v(h))
        scores = q @ k.transpose(-2, -1) / (width // self.heads) ** 0.5
        causal = torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(causal, float("-inf"))
        attention = torch.softmax(scores, dim=-1) @ v
        x = x + self.o(attention.transpose(1, 2).reshape(batch, seq, width))
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln2(x))))


class RMSNorm(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


class LlamaBlock(nn.Module):
    """RMSNorm, causal attention with rotary embeddings, RMSNorm, SwiGLU."""

    def __init__(self, width: int = 32, heads: int = 4, hidden: int = 64, positions: int = 16) -> None:
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = RMSNorm(width), RMSNorm(width)
        self.q, self.k, self.v, self.o = (nn.Linear(width, width, bias=False) for _ in range(4))
        self.gate = nn.Linear(width, hidden, bias=False)
        self.up = nn.Linear(width, hidden, bias=False)
        self.down = nn.Linear(hidden, width, bias=False)
        dim = width // heads
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, dim, 2).float() / dim))
        angles = torch.arange(positions).float()[:, None] * inv_freq[None, :]
        angles = torch.cat([angles, angles], dim=-1)
        self.register_buffer("cos", angles.cos(), persistent=False)
        self.register_buffer("sin", angles.sin(), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, seq, width = x.shape
        h = self.norm1(x)

        def split(t: torch.Tensor) -> torch.Tensor:
            return t.view(batch, seq, self.heads, width // self.heads).transpose(1, 2)

        cos, sin = self.cos[:seq], self.sin[:seq]
        q, k, v = split(self.q(h)), split(self.k(h)), split(self.v(h))
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        scores = q @ k.transpose(-2, -1) / (width // self.heads) ** 0.5
        causal = torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1)
        attention = torch.softmax(scores.masked_fill(causal, float("-inf")), dim=-1) @ v
        x = x + self.o(attention.transpose(1, 2).reshape(batch, seq, width))
        y = self.norm2(x)
        return x + self.down(torch.nn.functional.silu(self.gate(y)) * self.up(y))


class GPT(nn.Module):
    """Token and position embeddings, blocks, final LayerNorm, LM head."""

    def __init__(self, vocab: int = 64, width: int = 32, heads: int = 4, layers: int = 2,
                 positions: int = 16) -> None:
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Embedding(positions, width)
        self.blocks = nn.ModuleList(Block(width, heads, 2 * width) for _ in range(layers))
        self.ln = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        x = self.tokens(ids) + self.positions(torch.arange(ids.shape[1]))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


def hf_gpt2() -> nn.Module:
    """transformers' GPT2LMHeadModel from a small config (random weights)."""
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(vocab_size=64, n_positions=16, n_embd=32, n_layer=2, n_head=4, use_cache=False,
                        bos_token_id=0, eos_token_id=0)
    config._attn_implementation = "eager"
    return GPT2LMHeadModel(config)


#: Megatron shardings of `Block`'s weights (nn.Linear weights are [out, in]).
BLOCK_SHARDINGS: dict[str, PartitionSpec] = {
    "*q.weight": P("model", None), "*q.bias": P("model"),
    "*k.weight": P("model", None), "*k.bias": P("model"),
    "*v.weight": P("model", None), "*v.bias": P("model"),
    "*o.weight": P(None, "model"),
    "*fc1.weight": P("model", None), "*fc1.bias": P("model"),
    "*fc2.weight": P(None, "model"),
}

def hf_llama() -> nn.Module:
    """transformers' LlamaForCausalLM from a small config (random weights)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=16,
                         use_cache=False)
    config._attn_implementation = "eager"
    return LlamaForCausalLM(config)


#: Megatron shardings of Hugging Face LLaMA's weights (nn.Linear, [out, in]).
HF_LLAMA_SHARDINGS: dict[str, PartitionSpec] = {
    "*.q_proj.weight": P("model", None), "*.k_proj.weight": P("model", None),
    "*.v_proj.weight": P("model", None), "*.o_proj.weight": P(None, "model"),
    "*.gate_proj.weight": P("model", None), "*.up_proj.weight": P("model", None),
    "*.down_proj.weight": P(None, "model"),
}

#: Megatron shardings of `LlamaBlock`'s weights: q, k, v, gate and up on
#: their output features, o and down on their input features.
LLAMA_SHARDINGS: dict[str, PartitionSpec] = {
    "q.weight": P("model", None), "k.weight": P("model", None), "v.weight": P("model", None),
    "gate.weight": P("model", None), "up.weight": P("model", None),
    "o.weight": P(None, "model"), "down.weight": P(None, "model"),
}

#: GPT-2's Conv1D weights are [in, out]: the same split, transposed.
HF_GPT2_SHARDINGS: dict[str, PartitionSpec] = {
    "*.attn.c_attn.weight": P(None, "model"), "*.attn.c_attn.bias": P("model"),
    "*.attn.c_proj.weight": P("model", None),
    "*.mlp.c_fc.weight": P(None, "model"), "*.mlp.c_fc.bias": P("model"),
    "*.mlp.c_proj.weight": P("model", None),
}


@dataclass
class ZooModel:
    """A model of the zoo: how to build it and its inputs, and its shardings."""

    name: str
    build: Callable[[], nn.Module]
    inputs: Callable[[torch.Generator], tuple[torch.Tensor, ...]]
    input_specs: list[PartitionSpec]
    shardings: dict[str, PartitionSpec] = field(default_factory=dict)

    def make(self, seed: int = 0) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
        """The model (eval mode, seeded weights) and seeded inputs."""
        torch.manual_seed(seed)
        model = self.build().eval()
        return model, self.inputs(torch.Generator().manual_seed(seed + 1))


ZOO: dict[str, ZooModel] = {
    "mlp": ZooModel("mlp", MLP, lambda g: (torch.randn(8, 16, generator=g),), [P("data", None)],
                    {"fc1.weight": P("model", None), "fc1.bias": P("model"), "fc2.weight": P(None, "model")}),
    "block": ZooModel("block", Block, lambda g: (torch.randn(4, 8, 32, generator=g),), [P("data", None, None)],
                      BLOCK_SHARDINGS),
    "gpt": ZooModel("gpt", GPT, lambda g: (torch.randint(0, 64, (4, 8), generator=g),), [P("data", None)],
                    BLOCK_SHARDINGS),
    "hf-gpt2": ZooModel("hf-gpt2", hf_gpt2, lambda g: (torch.randint(0, 64, (4, 8), generator=g),),
                        [P("data", None)], HF_GPT2_SHARDINGS),
    "llama": ZooModel("llama", LlamaBlock, lambda g: (torch.randn(4, 8, 32, generator=g),),
                      [P("data", None, None)], LLAMA_SHARDINGS),
    "hf-llama": ZooModel("hf-llama", hf_llama, lambda g: (torch.randint(0, 64, (4, 8), generator=g),),
                         [P("data", None)], HF_LLAMA_SHARDINGS),
}
