"""`python -m meshsdy.viz`: see `meshsdy.viz.cli`."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
