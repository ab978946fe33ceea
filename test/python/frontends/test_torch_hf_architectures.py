"""Twelve more of Hugging Face `transformers`' architectures, each from a
small config (random weights, nothing downloaded), through torch-mlir,
with the batch split over "data" and every 2-D weight split over "model"
along one dimension or the other (alternating: column- and row-parallel
layers, and layouts no one would pick, which must agree all the same),
partitioned on a 2x2 mesh, run on 4 MPI ranks and compared with torch.
Between them: BERT's token types, erf GELU and post-LayerNorm, T5's
relative position buckets and RMSNorm, OPT's learned offset positions,
BLOOM's ALiBi, GPT-NeoX's partial rotary and parallel residual,
Mistral's and Qwen2's grouped queries, Phi's partial rotary with a
parallel block, Gemma's GeGLU and scaled embeddings, DistilBERT, GPT-2
with PyTorch's fused attention, Mixtral's mixture of experts (top-2 of
4 experts per token)."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np
import pytest
from mlir import ir

os.environ["HF_HUB_OFFLINE"] = "1"
torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")
T = pytest.importorskip("transformers")

import meshsdy.run as mpirun  # noqa: E402
from meshsdy.frontends.torch import from_torch, to_numpy  # noqa: E402
from meshsdy.sharding import PartitionSpec as P  # noqa: E402

_SMALL = dict(vocab_size=64, hidden_size=32, num_attention_heads=4, intermediate_size=64, num_hidden_layers=2)

#: Each architecture's model from a small config.
_MODELS: dict[str, Callable[[], Any]] = {
    "bert": lambda: T.BertModel(T.BertConfig(**_SMALL, max_position_embeddings=16)),
    "t5": lambda: T.T5EncoderModel(T.T5Config(vocab_size=64, d_model=32, d_kv=8, d_ff=64, num_layers=2,
                                              num_heads=4)),
    # GPT-2 with its default attention (scaled_dot_product_attention), whose
    # `view` torch-mlir's decompositions refused (frontends/_torch_export.py
    # views_as_reshapes; the zoo's GPT-2 runs the eager attention).
    "gpt2-sdpa": lambda: T.GPT2LMHeadModel(T.GPT2Config(vocab_size=64, n_positions=16, n_embd=32, n_layer=2,
                                                         n_head=4)),
    # Mixture of experts: exported with transformers' batched_mm experts
    # (frontends/_torch_export.py static_experts); its default sized its work by
    # the routing (aten.histc), which torch-mlir refused.
    "mixtral": lambda: T.MixtralForCausalLM(T.MixtralConfig(**_SMALL, num_key_value_heads=2, max_position_embeddings=16,
                                                            num_local_experts=4, num_experts_per_tok=2)),
    "opt": lambda: T.OPTForCausalLM(T.OPTConfig(vocab_size=64, hidden_size=32, num_attention_heads=4, ffn_dim=64,
                                                num_hidden_layers=2, max_position_embeddings=16,
                                                word_embed_proj_dim=32)),
    "bloom": lambda: T.BloomForCausalLM(T.BloomConfig(vocab_size=64, hidden_size=32, n_head=4, n_layer=2)),
    "gpt-neox": lambda: T.GPTNeoXForCausalLM(T.GPTNeoXConfig(**_SMALL, max_position_embeddings=16)),
    "mistral": lambda: T.MistralForCausalLM(T.MistralConfig(**_SMALL, num_key_value_heads=2,
                                                            max_position_embeddings=16)),
    "qwen2": lambda: T.Qwen2ForCausalLM(T.Qwen2Config(**_SMALL, num_key_value_heads=2, max_position_embeddings=16)),
    "phi": lambda: T.PhiForCausalLM(T.PhiConfig(**_SMALL, max_position_embeddings=16)),
    "gemma": lambda: T.GemmaForCausalLM(T.GemmaConfig(**_SMALL, num_key_value_heads=2, head_dim=8,
                                                      max_position_embeddings=16)),
    "distilbert": lambda: T.DistilBertModel(T.DistilBertConfig(vocab_size=64, dim=32, n_heads=4, hidden_dim=64,
                                                               n_layers=2, max_position_embeddings=16)),
}


class _FirstOutput(torch.nn.Module):
    """The model's first output (hidden states or logits), without a cache;
    its input (token ids, images) first."""

    def __init__(self, model: Any) -> None:
        super().__init__()
        self.model = model

    def forward(self, x):  # noqa: ANN001, ANN201
        if "use_cache" in self.model.forward.__code__.co_varnames:
            return self.model(x, use_cache=False)[0]
        return self.model(x)[0]


@pytest.mark.parametrize("name", sorted(_MODELS))
def test_architecture_partitioned_on_4_ranks_agrees_with_torch(name: str) -> None:
    torch.manual_seed(0)
    model = _FirstOutput(_MODELS[name]()).eval()
    ids = torch.randint(0, 64, (4, 8))
    with torch.no_grad():
        want = model(ids).numpy()
    shardings = {}
    for k, (parameter, value) in enumerate(model.named_parameters()):
        if value.ndim == 2 and value.shape[0] % 2 == 0 and value.shape[1] % 2 == 0:
            shardings[parameter] = P("model", None) if k % 2 else P(None, "model")
    assert len(shardings) >= 8
    with ir.Context():
        module, weights = from_torch(model, (ids,), mesh={"data": 2, "model": 2}, shardings=shardings,
                                     input_specs=[P("data", None)])
        source = str(module)
    got = mpirun.run(source, "main", [*weights, to_numpy(ids)], ranks=4, timeout=900)
    np.testing.assert_allclose(np.asarray(got[0]), want, rtol=1e-5, atol=1e-5)


def test_a_model_returning_its_cache_is_refused_with_the_way_out() -> None:
    """A causal LM with its default `use_cache=True` returns a
    `DynamicCache`, which torch.export cannot flatten: the error says how
    to turn it off."""
    from meshsdy.frontends import FrontendError

    model = T.GPT2LMHeadModel(T.GPT2Config(vocab_size=64, n_positions=16, n_embd=32, n_layer=1, n_head=4)).eval()
    with pytest.raises(FrontendError, match=r"DynamicCache.*set config\.use_cache=False"):
        from_torch(model, (torch.randint(0, 64, (2, 8)),))
    model.config.use_cache = False
    module, _ = from_torch(model, (torch.randint(0, 64, (2, 8)),))
    assert "func.func" in str(module)


def test_the_experts_implementation_is_the_users_again_after_the_export() -> None:
    model = _FirstOutput(_MODELS["mixtral"]()).eval()
    chosen = model.model.config._experts_implementation
    assert chosen not in (None, "batched_mm")
    from_torch(model, (torch.randint(0, 64, (2, 8)),))
    assert model.model.config._experts_implementation == chosen


def test_a_swin_transformer_split_on_its_batch_agrees_with_torch() -> None:
    """Swin reads its relative position bias table at a buffer of indices
    (`table[index]`), which torch-mlir's importer refused inside
    `aten.index`'s list of indices; the list holds a copy now
    (frontends/_torch_export.py listed_constants_as_copies)."""
    torch.manual_seed(0)
    config = T.SwinConfig(image_size=16, patch_size=2, embed_dim=8, depths=[1, 1], num_heads=[2, 2], window_size=4)
    model = _FirstOutput(T.SwinModel(config)).eval()
    images = torch.randn(4, 3, 16, 16)
    with torch.no_grad():
        want = model(images).numpy()
    with ir.Context():
        module, weights = from_torch(model, (images,), mesh={"data": 2},
                                     input_specs=[P("data", None, None, None)])
        source = str(module)
    got = mpirun.run(source, "main", [*weights, to_numpy(images)], ranks=2, timeout=900)
    np.testing.assert_allclose(np.asarray(got[0]), want, rtol=1e-5, atol=1e-5)

