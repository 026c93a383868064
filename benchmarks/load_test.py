"""Load test with wrk against a local server (127.0.0.1 only), bounded in time.

    python benchmarks/load_test.py --db PATH [--seconds 30] [--connections 8]

Starts ``cardlaws serve`` on a free port, then for each of the laws table, a law page, search,
compare and cite runs ``wrk -t2 -c<connections> -d<seconds>s --latency`` and prints requests/s,
p50 and p99 latency and errors, and the server's resident memory before and after each run (to
see it stay flat). Needs Debian's ``wrk``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

from ingest.evaluate.server import spawn

PATHS = {
    "laws table": "/cardlaws/laws",
    "law page": "/law/hoffmann-hoyles-games-modernized-1909/ecarte/31",
    "search": "/-/search?q=dealer+accidentally+flipped+a+card",
    "compare": "/compare/exposed-card-in-dealing",
    "cite": "/-/cite?text=Under+%C3%89cart%C3%A9+law+31+(Hoyle%27s+Games+Modernized)+and+Bridge+Law+42",
}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def ms(value: str) -> float:
    m = re.match(r"([\d.]+)(us|ms|s)", value)
    number, unit = float(m.group(1)), m.group(2)
    return number / 1000 if unit == "us" else number * 1000 if unit == "s" else number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (apt-get install wrk)")
    server, base = spawn(args.db)
    try:
        for path in PATHS.values():  # warm: model, tagger and vectors loaded
            urllib.request.urlopen(base + path, timeout=30).read()
        print(f"{'endpoint':<12}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'RSS MB before→after':>24}")
        for name, path in PATHS.items():
            before = rss_mb(server.pid)
            out = subprocess.run(["wrk", "-t2", f"-c{args.connections}", f"-d{args.seconds}s", "--latency", base + path],
                                 capture_output=True, text=True, timeout=args.seconds + 60, check=True).stdout
            rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
            p50 = ms(re.search(r"\s50%\s+(\S+)", out).group(1))
            p99 = ms(re.search(r"\s99%\s+(\S+)", out).group(1))
            errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
            non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
            errors += int(non2xx.group(1)) if non2xx else 0
            print(f"{name:<12}{rps:>9.1f}{p50:>9.1f}{p99:>9.1f}{errors:>8}{before:>13.0f} → {rss_mb(server.pid):.0f}")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
