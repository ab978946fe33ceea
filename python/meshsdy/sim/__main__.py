"""`python -m meshsdy.sim`: see `meshsdy.sim.cli`."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
