"""A served instance in another process, for the browser tests and the load test."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def spawn(db_path: Path, timeout: float = 30.0, plain: bool = False):
    """Start ``cardlaws serve`` for ``db_path`` (or, ``plain``, Datasette alone serving it
    immutable: the load test's baseline) in another process on a free port of 127.0.0.1 and wait
    until it answers; returns ``(process, base URL)``. For browser tests and load tests. Raises
    :class:`RuntimeError` if it does not answer within ``timeout`` seconds."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = (["datasette", "serve", "--immutable", str(db_path)] if plain
               else ["ingest.cli", "serve", "--db", str(db_path)])
    proc = subprocess.Popen([sys.executable, "-m", *command, "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/", timeout=1)
            return proc, base
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError(f"{'datasette' if plain else 'cardlaws'} serve did not answer at {base} within {timeout:.0f} s")
