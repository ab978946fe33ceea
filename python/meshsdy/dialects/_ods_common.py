"""Lets the ODS-generated modules here import the host's `_ods_common`."""

from mlir.dialects._ods_common import *  # noqa: F401,F403
from mlir.dialects._ods_common import _cext  # noqa: F401
