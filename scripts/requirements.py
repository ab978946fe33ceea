#!/usr/bin/env python3
"""Prints, one per line, what must be installed before building meshsdy
without build isolation: the build-system requirements and the `build` and
`test`, `mpi` and `frontends` extras of pyproject.toml, so that the pins live in one place."""

from __future__ import annotations

import pathlib
import tomllib

project = tomllib.loads(
    (pathlib.Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
)
requirements = list(project["build-system"]["requires"])
for extra in ("build", "test", "mpi", "frontends"):
    requirements += project["project"]["optional-dependencies"][extra]
requirements += project["project"]["dependencies"]
print("\n".join(dict.fromkeys(requirements)))
