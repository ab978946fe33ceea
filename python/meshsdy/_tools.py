"""Console-script entry points for the native tools shipped in the wheel."""

from __future__ import annotations

import os
import sys


def mesh_opt() -> None:
    """Runs `meshsdy/bin/mesh-opt` with this process's arguments."""
    exe = os.path.join(os.path.dirname(__file__), "bin", "mesh-opt")
    os.execv(exe, [exe] + sys.argv[1:])
