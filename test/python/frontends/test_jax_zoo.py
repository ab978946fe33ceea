"""The JAX model zoo (examples/frontends/jax_*.py): each model lowered by
JAX (in a process with 4 CPU devices), imported by
meshsdy.frontends.from_stablehlo, partitioned on the 2x2 mesh, run in the
simulator and on 4 MPI ranks, and compared with JAX's own outputs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import jax  # noqa: F401

ZOO = Path(__file__).resolve().parents[3] / "examples" / "frontends"
sys.path.insert(0, str(ZOO))

import jax_common  # noqa: E402

#: meshsdy's collectives for each model (kind: count), as partitioning
#: inserts them; where XLA's differ, the docs' table says how.
EXPECTED_COLLECTIVES = {
    "mlp": {"mesh.all_reduce": 1},
    "attention": {"mesh.all_reduce": 1},
    "transformer_block": {"mesh.all_reduce": 2},
    # The ids are read in place (an operand of the lookup); the argmax
    # gathers its per-device (max, index) partials.
    "embedding_argmax_one_hot": {"mesh.all_gather": 2},
    # The loop is partitioned: the state's constraint gathers it in the body.
    "fori_loop": {"mesh.all_gather": 1, "mesh.all_slice": 1},
    # Both branches' ops run on the pieces (scf.if and scf.index_switch).
    "cond_switch": {"mesh.all_reduce": 1},
    # The padded dimension's axis is gathered (cheaper than moving it).
    "cumsum": {"mesh.all_gather": 2, "mesh.all_slice": 4},
    # One mesh collective per StableHLO one the shard_map body writes.
    "shard_map": {"mesh.all_reduce": 1, "mesh.all_gather": 2, "mesh.reduce_scatter": 1, "mesh.all_to_all": 2,
                  "mesh.shift": 1},
    # The psum over 'data' keeps the piece split over 'model'.
    "shard_map_partial": {"mesh.all_gather": 1, "mesh.all_reduce": 1},
    # The Megatron all_reduces; the fused q/k/v split contiguously over
    # 'model' moves its pieces to the heads' split by all_to_all (XLA:
    # two collective-permutes per layer, more bytes).
    "gpt2_fused_qkv": {"mesh.all_reduce": 4, "mesh.all_to_all": 8},
    # The convolutions keep the batch and feature splits (their windows stay
    # whole): the second one's partial sums, reduced once, as XLA does.
    "cnn": {"mesh.all_reduce": 1},
    # The rotary embedding's concatenation stays inside each device's heads.
    "llama_block": {"mesh.all_reduce": 2},
    # Each device looks up the tokens of its rows of the table; one
    # all_reduce sums them (the table used to be gathered whole).
    "vocab_parallel_embedding": {"mesh.all_reduce": 1},
}

#: Models whose collectives are XLA's, kind for kind.
SAME_AS_XLA = {"mlp": {"all-reduce": 1}, "attention": {"all-reduce": 1}, "transformer_block": {"all-reduce": 2},
               "shard_map_partial": {"all-gather": 1, "all-reduce": 1},
               "embedding_argmax_one_hot": {"all-gather": 2}, "cnn": {"all-reduce": 1},
               "llama_block": {"all-reduce": 2}, "vocab_parallel_embedding": {"all-reduce": 1}}


@pytest.fixture(scope="module")
def lowered_zoo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every model lowered by JAX, with its inputs and JAX's outputs."""
    directory = tmp_path_factory.mktemp("jax_zoo")
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=4", JAX_PLATFORMS="cpu")
    result = subprocess.run([sys.executable, str(ZOO / "jax_zoo.py"), "--lower-only", str(directory)],
                            capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stderr
    yield directory


@pytest.mark.parametrize("name", list(EXPECTED_COLLECTIVES))
def test_zoo_model_agrees_with_jax(name: str, lowered_zoo: Path) -> None:
    lowered = jax_common.load(name, lowered_zoo)
    result = jax_common.check(lowered)
    assert result.sim_agrees, f"simulator: max |meshsdy - JAX| = {result.sim_max_diff}, tolerances {result.tolerances}"
    assert result.mpi_agrees, f"MPI: max |meshsdy - JAX| = {result.mpi_max_diff}, tolerances {result.tolerances}"
    assert result.collectives == EXPECTED_COLLECTIVES[name]
    assert result.bytes_per_device > 0
    if name in SAME_AS_XLA:
        assert lowered.xla_collectives == SAME_AS_XLA[name]
        assert {k.removeprefix("mesh.").replace("_", "-"): v for k, v in result.collectives.items()} == \
            lowered.xla_collectives


def test_argmax_and_one_hot_over_the_split_vocabulary_are_exact(lowered_zoo: Path) -> None:
    """The vocabulary (the last dimension) is split over 'model': the argmax
    must still pick JAX's token, and the one_hot mark it."""
    lowered = jax_common.load("embedding_argmax_one_hot", lowered_zoo)
    result = jax_common.check(lowered)
    _, token, one_hot = result.mpi_outputs
    np.testing.assert_array_equal(token, lowered.outputs[1])
    np.testing.assert_array_equal(one_hot, lowered.outputs[2])
    # Not a vacuous agreement: tokens from both halves of the vocabulary.
    assert (token < 16).any() and (token >= 16).any()
    # Only the (max, index) partials move: 2 x 8 rows of 4-byte values and
    # 4-byte indices per device, to the other device of 'model' (2112 bytes
    # when the logits and indices were gathered, 64 more for the ids).
    assert result.bytes_per_device == 2 * 8 * (4 + 4)


def test_from_jax_keeps_the_users_shardings_and_source_lines() -> None:
    """from_jax in a process where jax has 4 devices: the user's shardings
    on the arguments and result, and locations naming the model's file."""
    script = (
        "import sys; sys.path.insert(0, %r)\n"
        "import jax_mlp\n"
        "from meshsdy.frontends import from_jax\n"
        "m = jax_mlp.model()\n"
        "module = from_jax(m.fn, *m.inputs, **m.jit_kwargs)\n"
        "print(module)\n"
        "print('-- locations --')\n"
        "print(module.operation.get_asm(enable_debug_info=True))\n" % str(ZOO))
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=4", JAX_PLATFORMS="cpu")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    text, locations = result.stdout.split("-- locations --")
    assert 'sdy.mesh @mesh = <["data"=2, "model"=2]>' in text
    assert 'sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>' in text
    assert 'sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>' in text
    assert "linalg.matmul" in text and "stablehlo." not in text.replace("stablehlo.mesh", "")
    # The user's lines, not the front door's.
    assert "jax_mlp.py\":" in locations and "frontends/stablehlo.py" not in locations


@pytest.mark.parametrize(("name", "source"), [("transformer_block", "jax_transformer.py"),
                                              ("embedding_argmax_one_hot", "jax_embedding.py")])
def test_explain_names_the_users_python_lines(name: str, source: str, lowered_zoo: Path) -> None:
    """meshsdy.explain on an imported JAX program: each collective names the
    line of the model's Python source JAX recorded (not a line of the MLIR
    text, nor one of jax's own files), and shardings read as sdy ones."""
    from mlir import ir

    from meshsdy.explain import explain
    from meshsdy.frontends import from_stablehlo

    lowered = jax_common.load(name, lowered_zoo)
    with ir.Context():
        text = from_stablehlo(lowered.text).operation.get_asm(enable_debug_info=True)
    explanation = explain(text, "main")
    collectives = [c for op in explanation.ops for c in op.collectives]
    assert collectives and explanation.sdy
    for c in collectives:
        # The model's own file, or a zoo file it calls (the block's attention).
        where = c.value_where
        assert where is not None and Path(where.file).parent == ZOO and where.file.endswith(".py"), c
        assert 1 <= where.line <= len(Path(where.file).read_text().splitlines())
        assert "split_axes" not in c.source_sharding + c.target_sharding
    assert any(Path(c.value_where.file).name == source for c in collectives)
    assert f"({Path(collectives[0].value_where.file).name}:" in explanation.text()
