#!/usr/bin/env python3
"""The JAX model zoo: every model of examples/frontends/jax_*.py lowered by
JAX, imported by meshsdy.frontends, partitioned on the 2x2 mesh, run in the
simulator and on 4 MPI ranks, and compared with JAX's outputs; prints one
markdown table row per model (docs/frontends.md records it).

    .venv/bin/python examples/frontends/jax_zoo.py            # all models
    .venv/bin/python examples/frontends/jax_zoo.py mlp cumsum # some
    .venv/bin/python examples/frontends/jax_zoo.py --lower-only DIR  # JAX's half only

`--lower-only DIR` writes each model's StableHLO text, inputs and JAX's
outputs to DIR (jax_common.save), for a process without 4 jax devices to
check (the tests do).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import jax_attention
import jax_cnn
import jax_common
import jax_cond
import jax_cumsum
import jax_embedding
import jax_fori_loop
import jax_gpt2
import jax_llama
import jax_mlp
import jax_shard_map
import jax_shard_map_partial
import jax_transformer
import jax_vocab_parallel

#: Every model of the zoo, by name.
MODELS = {m.model().name: m.model for m in (
    jax_mlp, jax_attention, jax_transformer, jax_embedding, jax_fori_loop, jax_cond, jax_cumsum, jax_shard_map,
    jax_shard_map_partial, jax_gpt2, jax_cnn, jax_llama, jax_vocab_parallel)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", help=f"models to run (default: all of {', '.join(MODELS)})")
    parser.add_argument("--lower-only", type=Path, metavar="DIR", help="only lower with JAX, into DIR")
    args = parser.parse_args()
    names = args.models or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"unknown models {unknown}; expected some of {list(MODELS)}")
    if args.lower_only:
        for name in names:
            jax_common.save(jax_common.lower(MODELS[name]()), args.lower_only)
        return 0
    print(jax_common.TABLE_HEADER)
    ok = True
    for name in names:
        result = jax_common.check(jax_common.lower(MODELS[name]()))
        print(result.row(), flush=True)
        ok &= result.sim_agrees and result.mpi_agrees
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
