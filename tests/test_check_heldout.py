"""The held-out set checker (benchmarks/check_heldout.py) on a small set built here, with known faults:
each fault is reported as a FAIL, and what is right passes."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from benchmarks.check_heldout import overlap

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["bezique", "bridge", "cinch", "cribbage", "ecarte", "euchre", "hearts", "piquet", "poker", "skat"]


def test_overlap_folds_plurals_accents_and_stop_words():
    # {dealer, exposed, card} both ways: "The", "a", "were" are stop words, "cards" folds to "card"
    assert overlap("The dealer's cards were exposed", "dealer exposed a card") == 1.0
    # {ecarte, deal} against {ecarte, misdeal}: one of three
    assert overlap("Écarté deals", "ecarte misdeal") == 1 / 3
    assert overlap("grass", "grass") == 1.0  # -ss is not a plural


def _set(folder: Path, db: Path) -> None:
    """40 queries: i01–i10 name a game each; i11 repeats a training query; i12 is tagged
    ``negation`` without a negative word; the rest are plain sentences of a made-up subject."""
    queries = [{"_id": f"i{n + 1:02d}", "text": f"{g} quorum{n} zebra{n} walrus{n}", "types": ["game"]}
               for n, g in enumerate(GAMES)]
    training = json.loads((ROOT / "tests" / "search" / "queries.jsonl").read_text(encoding="utf-8").splitlines()[0])["text"]
    queries.append({"_id": "i11", "text": training, "types": []})
    queries.append({"_id": "i12", "text": "quorum lantern zebra walrus", "types": ["negation"]})
    queries += [{"_id": f"i{n:02d}", "text": f"lantern{n} harbour{n} teapot{n}", "types": []} for n in range(13, 41)]
    (folder / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8")
    conn = sqlite3.connect(db)
    conn.execute("create table laws (id text primary key, parent text, game text, witness_of text)")
    conn.executemany("insert into laws values (?, ?, ?, null)",
                     [(f"{g}/1", None, g) for g in GAMES] + [("whist/5", None, "whist"), ("whist/5/a", "whist/5", "whist")])
    conn.commit()
    rows = [(q["_id"], f"{GAMES[n]}/1", 2) for n, q in enumerate(queries[:10])]
    rows[0] = ("i01", "whist/1-missing", 2)  # a law the database lacks
    rows[1] = ("i02", "whist/5", 2)  # another game's law graded 2 for a query naming bridge
    rows += [(q["_id"], "whist/5/a", 2) for q in queries[10:]]  # its parent whist/5 not graded: a chain gap
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(f"{a}\t{b}\t{g}\n" for a, b, g in rows),
                                      encoding="utf-8")
    pools: dict[str, list[str]] = {}
    for a, b, _ in rows:
        pools.setdefault(a, []).append(b)
    pools["i03"].append("whist/5")  # the writer pooled it for i03 and never graded it
    pools["i04"].remove("cribbage/1")  # graded beyond the writer's pool, as the search's results are
    (folder / "pools.json").write_text(json.dumps(pools), encoding="utf-8")
    lines = [f"walrus migration number {n}" for n in range(11)] + ["the best card shop in town"]
    (folder / "nonsense.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_each_fault_fails_and_the_rest_passes(tmp_path):
    db = tmp_path / "judge.db"
    _set(tmp_path, db)
    out = subprocess.run([sys.executable, "benchmarks/check_heldout.py", str(tmp_path), "--db", str(db)],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert out.returncode == 1, out.stderr
    lines = out.stdout.splitlines()
    failed = {line for line in lines if line.startswith("FAIL")}
    assert any("types agree" in line and "'i12', ['negation']" in line for line in failed)
    assert any(line.startswith("FAIL highest word overlap") and "1.000 (i11)" in line for line in failed)
    assert "FAIL no query repeats a training query" in failed
    assert "FAIL every law judged is in the database, witness_of NULL" in failed
    assert any("no other game's law graded 2" in line and "('i02', 'whist/5')" in line for line in failed)
    # every missing parent is listed, not the first five (the fixture's i11–i40 all grade whist/5/a 2, not whist/5)
    assert any("parents graded 1 or more: 30 (query, parent) missing or below 1:" in line and "('i40', 'whist/5')" in line
               for line in failed)
    assert any("no card-law vocabulary" in line and "[12]" in line for line in failed)
    assert "FAIL every law of pools.json is graded in qrels.tsv" in failed
    assert "INFO judgments beyond the writer's pool (the search's results, graded apart): 1" in lines
    assert "PASS 40 queries i01–i40, sorted" in lines
    assert "PASS game-named queries over 10 games (9 or more)" in lines
    assert "PASS every query has a law graded 2" in lines
    assert "PASS nonsense.txt: 12 different lines" in lines
    assert lines[-1] == f"{len(failed)} failed"
