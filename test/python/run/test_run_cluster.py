"""Compile once and more than one machine (issue 29, items 2 and 6): the
shared object is built once and then taken from the on-disk cache
(`--no-cache` builds it anew and leaves the cache alone); `--hostfile` and
`--mpiexec-arg` reach mpiexec (a hostfile naming this machine twice, MPICH's
`-launcher fork` instead of ssh); `--launched` runs inside a job someone
else started, rank 0 reading the inputs from a .npz and sending the pieces,
and its outputs agree with the simulator."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np

from meshsdy import sim
from meshsdy.run import mpiexec

ROOT = Path(__file__).resolve().parents[3]
MLP = ROOT / "examples" / "mlp.mlir"
BUILT = re.compile(r"^compiled: \d+\.\d\d s, \d+\.\d\d s of CPU \(once per host\); ran: \d+\.\d{4} s "
                   r"\(slowest of 4 ranks\)$", re.M)
CACHED = re.compile(r"^compiled: from the cache \(once per host\); ran: \d+\.\d{4} s \(slowest of 4 ranks\)$", re.M)


def _run(args: list[str], cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meshsdy.run", str(MLP), "--func", "mlp", *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MESHSDY_CACHE_DIR": str(cache)})


def test_built_once_then_from_the_cache_and_no_cache_builds_anew(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _run(["--ranks", "4"], cache)
    assert first.returncode == 0, first.stderr
    assert BUILT.search(first.stdout), first.stdout
    objects = sorted(cache.glob("*.so"))
    assert len(objects) == 1  # one build for the 4 ranks
    second = _run(["--ranks", "4"], cache)
    assert second.returncode == 0 and CACHED.search(second.stdout), second.stdout + second.stderr
    fresh = _run(["--ranks", "4", "--no-cache"], cache)
    assert fresh.returncode == 0 and BUILT.search(fresh.stdout), fresh.stdout + fresh.stderr
    assert sorted(cache.glob("*.so")) == objects
    # Another seed is the same program: still from the cache, other values.
    other = _run(["--ranks", "4", "--seed", "3", "--check"], cache)
    assert other.returncode == 0 and CACHED.search(other.stdout) and "agree" in other.stdout, other.stdout


def test_the_cache_keeps_the_programs_used_last_within_its_limit(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """Past $MESHSDY_CACHE_MAX_MB, the least recently used programs go;
    one used in the last ten minutes stays whatever the size."""
    from meshsdy.run import build

    monkeypatch.setenv("MESHSDY_CACHE_MAX_MB", "2")
    now = 1_000_000.0
    ages = {"old": 7200, "older": 9000, "recent": 3600, "in-use": 60}
    for name, age in ages.items():
        path = tmp_path / f"{name}.so"
        path.write_bytes(b"\0" * (1024 * 1024))
        os.utime(path, (now - age, now - age))
    # 4 MB against a 2 MB limit: the two least recently used go.
    removed = build._prune_cache(tmp_path, now=now)
    assert sorted(p.name for p in removed) == ["old.so", "older.so"]
    assert sorted(p.name for p in tmp_path.glob("*.so")) == ["in-use.so", "recent.so"]
    # Programs in use stay even over the limit.
    monkeypatch.setenv("MESHSDY_CACHE_MAX_MB", "0")
    assert [p.name for p in build._prune_cache(tmp_path, now=now)] == ["recent.so"]
    assert [p.name for p in tmp_path.glob("*.so")] == ["in-use.so"]


def test_a_cache_limit_that_is_no_number_is_named(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    import pytest

    from meshsdy.run import build

    monkeypatch.setenv("MESHSDY_CACHE_MAX_MB", "1G")
    with pytest.raises(build.BuildError, match="MESHSDY_CACHE_MAX_MB must be a whole number of megabytes, not '1G'"):
        build._prune_cache(tmp_path)


def test_a_cache_hit_marks_the_program_used(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert _run(["--ranks", "4"], cache).returncode == 0
    (program,) = cache.glob("*.so")
    os.utime(program, (1.0, 1.0))
    assert _run(["--ranks", "4"], cache).returncode == 0
    assert program.stat().st_mtime > 1.0


def _hostfile(tmp_path: Path) -> Path:
    """This machine, twice: two 'hosts' of 2 ranks each for MPICH."""
    path = tmp_path / "hosts"
    path.write_text(f"{socket.gethostname()}:2\n{socket.gethostname()}:2\n")
    return path


def test_hostfile_and_mpiexec_args_reach_mpiexec(tmp_path: Path) -> None:
    hosts = _hostfile(tmp_path)
    proc = _run(["--ranks", "4", "--check", "--hostfile", str(hosts), "--mpiexec-arg=-launcher",
                 "--mpiexec-arg=fork", "--workdir", str(tmp_path)], tmp_path / "cache")
    assert proc.returncode == 0 and "agree" in proc.stdout and "disagree" not in proc.stdout, \
        proc.stdout + proc.stderr
    # An argument mpiexec does not know is passed on: mpiexec refuses it.
    bad = _run(["--ranks", "4", "--mpiexec-arg=-no-such-option"], tmp_path / "cache")
    assert bad.returncode == 2 and bad.stderr.startswith("error: "), bad.stderr
    missing = _run(["--ranks", "4", "--hostfile", str(tmp_path / "nope")], tmp_path / "cache")
    assert missing.returncode == 2 and "no hostfile" in missing.stderr, missing.stderr


def test_launched_job_reads_the_npz_on_rank_0_and_agrees_with_the_simulator(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    inputs = [rng.standard_normal(s).astype(np.float32) for s in ((8, 16), (16, 16), (16,), (16, 16), (16,))]
    np.savez(tmp_path / "in.npz", **{f"arg{i}": x for i, x in enumerate(inputs)})
    out = tmp_path / "out.npz"
    command = [mpiexec(), "-f", str(_hostfile(tmp_path)), "-launcher", "fork", "-n", "4", sys.executable, "-m",
               "meshsdy.run", str(MLP), "--func", "mlp", "--launched", "--inputs", str(tmp_path / "in.npz"),
               "--save-outputs", str(out)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MESHSDY_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # Rank 0 alone prints, once.
    assert proc.stdout.count("output 0: float32 [8, 16]") == 1 and len(BUILT.findall(proc.stdout)) == 1, proc.stdout
    (want,) = sim.simulate(MLP.read_text(), "mlp", inputs)
    with np.load(out) as data:
        np.testing.assert_allclose(data["out0"], want, rtol=1e-5, atol=1e-5)


def test_launched_refuses_what_belongs_to_the_mpiexec_it_does_not_start(tmp_path: Path) -> None:
    for extra in (["--check"], ["--hostfile", str(_hostfile(tmp_path))]):
        proc = _run(["--launched", *extra], tmp_path / "cache")
        assert proc.returncode == 2 and proc.stderr.startswith("error: "), (extra, proc.stderr)
