"""The child process the fuzz drivers (fuzz_counts.py, frontends/jax_fuzz.py,
frontends/torch_fuzz.py) run their seeds in: its stdout read line by line,
its stderr kept (the last 50 lines) for the message of a crash, and a
deadline that kills it when one seed takes too long (`arm` at each seed's
start)."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator, Mapping, Sequence


class WatchedWorker:
    """`cmd` started with `env`; killed if `first_timeout` seconds pass
    before the first `arm` (the first seed pays for the imports)."""

    def __init__(self, cmd: Sequence[str], *, env: Mapping[str, str], first_timeout: float) -> None:
        self.proc = subprocess.Popen(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=dict(env))
        self._deadline = time.monotonic() + first_timeout
        self._stderr: list[str] = []
        threading.Thread(target=self._watch, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def arm(self, timeout: float) -> None:
        """Gives the seed starting now `timeout` seconds."""
        self._deadline = time.monotonic() + timeout

    def lines(self) -> Iterator[str]:
        """The child's stdout, line by line, until it exits."""
        assert self.proc.stdout is not None
        yield from self.proc.stdout

    def wait(self) -> int:
        """The child's exit code."""
        return self.proc.wait()

    def stderr_tail(self) -> list[str]:
        """The last 50 lines the child wrote to stderr."""
        return list(self._stderr)

    def _watch(self) -> None:
        while self.proc.poll() is None:
            if time.monotonic() > self._deadline:
                self.proc.kill()
                return
            time.sleep(0.5)

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._stderr.append(line)
            del self._stderr[:-50]
