"""Load test with wrk: each page of the site against its counterpart in plain Datasette serving
the same database in the same run (127.0.0.1 only, bounded in time).

    python benchmarks/load_test.py --db PATH [--seconds 10] [--connections 8] [--runs 3]

Starts ``cardlaws serve`` and plain ``datasette serve --immutable`` (no metadata, plugins or
templates) on free ports, then, ``--runs`` times, for each pair in ``PAIRS`` runs
``wrk -t2 -c<connections> -d<seconds>s --latency`` against our page and then against its pair, and
prints the median requests/s and p50 latency of each, their ratio, the target (ours at least the
pair's; search at least twice) and errors of each side (non-2xx answers, socket errors and wrk's
2-second timeouts, over the runs), and our server's
resident memory before and after. A page this version of the site does not have yet (it answers
with a redirect or a 404) is listed as not measured. Needs Debian's ``wrk``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from ingest.evaluate.server import spawn

LAW = "hoffmann-hoyles-games-modernized-1909/ecarte/31"
CODE = "hoffmann-hoyles-games-modernized-1909/ecarte"
QUERY = "dealer+exposed+a+card"
# (name, our page, the plain Datasette page it stands beside, how many times its req/s ours must reach)
PAIRS = [
    ("front door", "/", "/cardlaws", 1.0),
    ("laws list", "/cardlaws/laws", "/cardlaws/laws", 1.0),
    ("law page", f"/law/{LAW}", "/cardlaws/laws/" + LAW.replace("/", "~2F"), 1.0),
    ("code page", f"/law/{CODE}", "/cardlaws/laws?code=" + CODE.replace("/", "%2F") + "&_size=max", 1.0),
    ("search", f"/-/search?q={QUERY}", f"/cardlaws/laws?_search={QUERY}", 2.0),
]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def ms(value: str) -> float:
    m = re.match(r"([\d.]+)(us|ms|s)", value)
    number, unit = float(m.group(1)), m.group(2)
    return number / 1000 if unit == "us" else number * 1000 if unit == "s" else number


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def status_of(url: str) -> int:
    """The status ``url`` answers with, redirects not followed (so a page that only redirects shows)."""
    try:
        return urllib.request.build_opener(NoRedirect).open(url, timeout=60).status
    except urllib.error.HTTPError as e:
        return e.code


def wrk(url: str, seconds: int, connections: int) -> tuple[float, float, int]:
    """``(requests/s, p50 ms, errors)`` of one wrk run against ``url``."""
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url],
                         capture_output=True, text=True, timeout=seconds + 120, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = ms(re.search(r"\s50%\s+(\S+)", out).group(1))
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, p50, errors + (int(non2xx.group(1)) if non2xx else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (apt-get install wrk)")
    ours, ours_base = spawn(args.db, timeout=120)
    plain, plain_base = spawn(args.db, timeout=60, plain=True)
    try:
        pairs, missing = [], []
        for name, page, counterpart, target in PAIRS:  # warm both (model, tagger, vectors) and see what exists
            if status_of(ours_base + page) == 200 and status_of(plain_base + counterpart) == 200:
                pairs.append((name, page, counterpart, target))
            else:
                missing.append(name)
        rss_before = rss_mb(ours.pid)
        results: dict[str, list[tuple]] = {name: [] for name, *_ in pairs}
        for _ in range(args.runs):  # ours and its pair one after the other, so both meet the same load
            for name, page, counterpart, _target in pairs:
                results[name].append((wrk(ours_base + page, args.seconds, args.connections),
                                      wrk(plain_base + counterpart, args.seconds, args.connections)))
        print(f"median of {args.runs} runs of wrk -t2 -c{args.connections} -d{args.seconds}s; "
              "ours = cardlaws serve, plain = datasette serve --immutable, same database")
        print(f"{'page':<12}{'ours req/s':>11}{'plain req/s':>12}{'ratio':>7}{'target':>8}{'ours p50':>10}"
              f"{'plain p50':>10}{'errors ours/plain':>18}  plain page")
        for name, _page, counterpart, target in pairs:
            runs = results[name]
            ours_rps = statistics.median(r[0][0] for r in runs)
            plain_rps = statistics.median(r[1][0] for r in runs)
            ratio = ours_rps / plain_rps if plain_rps else float("inf")
            print(f"{name:<12}{ours_rps:>11.1f}{plain_rps:>12.1f}{ratio:>7.2f}{'≥' + format(target, 'g'):>8}"
                  f"{statistics.median(r[0][1] for r in runs):>9.1f}ms{statistics.median(r[1][1] for r in runs):>8.1f}ms"
                  f"{str(sum(r[0][2] for r in runs)) + '/' + str(sum(r[1][2] for r in runs)):>18}  {counterpart}{'' if ratio >= target else '  (below target)'}")
        for name in missing:
            print(f"{name:<12}  not measured: this version of the site has no such page yet")
        print(f"our server's resident memory: {rss_before:.0f} MB before, {rss_mb(ours.pid):.0f} MB after")
    finally:
        for proc in (ours, plain):
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
