"""Soak test: the load test for a long run (10 minutes by default), on 127.0.0.1 only, watching the
server's resident memory.

    python benchmarks/soak_test.py --db PATH [--seconds 600] [--connections 8]

Starts ``cardlaws serve`` on a free port, warms it (model, tagger, vectors), then runs one
``wrk`` for ``--seconds`` whose requests are drawn at random from a mix of the site's pages (law
pages, the laws table in several sort orders and pages, search, compare, cite, JSON, not-found
pages). The server's resident memory (RSS) is sampled every 10 s. Prints requests/s, latency,
errors, the RSS samples, and the RSS after the first minute against the RSS at the end: the
server passes when the end is within 10 % of the first minute. A one-hour soak is the same
command with ``--seconds 3600``. Needs Debian's ``wrk``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from benchmarks.load_test import ms, rss_mb
from ingest.evaluate.server import spawn

QUERIES = ["dealer accidentally flipped a card", "deck wasn't cut", "renege", "misdeal new deal", "exposed card",
           "elder hand discards", "trump card turned", "wrong number of cards", "bystander remarks", "revoke penalty"]
CITES = ["Under Écarté law 31 (Hoyle's Games Modernized)", "Bridge Law 42 and Whist law xii", "Laws of Piquet 11, 32, and 38"]


def paths(db: Path) -> list[str]:
    """A mix of addresses: every kind of page, with varied parameters (so caches do not make it easy)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    laws = [r[0] for r in conn.execute("select id from laws order by random() limit 40")]
    situations = [r[0] for r in conn.execute("select id from situations")]
    out = [f"/law/{i}" for i in laws] + [f"/law/{i}.json" for i in laws[:10]]
    out += [f"/cardlaws/laws?_sort={c}" for c in ("game", "source", "kind", "number")]
    out += [f"/cardlaws/laws.json?_sort_desc={c}&_size=50" for c in ("game", "page_start", "section")]
    out += [f"/-/search?q={urllib.parse.quote_plus(q)}" for q in QUERIES]
    out += [f"/-/search.json?q={urllib.parse.quote_plus(q)}&game=whist" for q in QUERIES[:4]]
    out += [f"/compare/{s}" for s in situations[:8]] + ["/compare", "/compare.json"]
    out += [f"/-/cite?text={urllib.parse.quote_plus(t)}" for t in CITES]
    out += ["/ecarte/31", "/Whist/29", "/law/no/such/law", "/cardlaws/laws?game=poker"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (apt-get install wrk)")
    mix = paths(args.db)
    server, base = spawn(args.db)
    samples: list[tuple[float, float]] = []
    try:
        for path in mix:  # warm: every page once, model, tagger and vectors loaded
            try:
                urllib.request.urlopen(base + path, timeout=60).read()
            except urllib.error.HTTPError:
                pass
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
            script.write("paths = {" + ",".join(f'"{p}"' for p in mix) + "}\n"
                         "request = function() return wrk.format(nil, paths[math.random(#paths)]) end\n")
        stop = threading.Event()
        t0 = time.monotonic()

        def sample() -> None:
            while not stop.wait(10):
                samples.append((time.monotonic() - t0, rss_mb(server.pid)))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        samples.append((0.0, rss_mb(server.pid)))
        out = subprocess.run(["wrk", "-t2", f"-c{args.connections}", f"-d{args.seconds}s", "--latency", "--timeout", "10s",
                              "-s", script.name, base], capture_output=True, text=True, timeout=args.seconds + 120,
                             check=True).stdout
        stop.set()
        sampler.join()
        samples.append((time.monotonic() - t0, rss_mb(server.pid)))
    finally:
        server.terminate()
        server.wait(timeout=10)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    p50, p99 = (ms(re.search(rf"\s{q}%\s+(\S+)", out).group(1)) for q in (50, 99))
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    print(f"{len(mix)} addresses, {args.connections} connections, {args.seconds} s: {total} requests, {rps:.1f} req/s, "
          f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, socket errors {errors}, "
          f"non-2xx/3xx {non2xx.group(1) if non2xx else 0} (the mix has not-found pages on purpose)")
    print("RSS MB every 10 s: " + " ".join(f"{mb:.0f}" for _, mb in samples))
    first_minute = next(mb for t, mb in samples if t >= 60) if any(t >= 60 for t, _ in samples) else samples[-1][1]
    end = samples[-1][1]
    change = (end - first_minute) / first_minute * 100
    verdict = "within" if abs(change) <= 10 else "OUTSIDE"
    print(f"RSS after 1 min {first_minute:.1f} MB, after {samples[-1][0] / 60:.1f} min {end:.1f} MB: "
          f"{change:+.1f} % ({verdict} 10 %)")


if __name__ == "__main__":
    main()
