"""Check a held-out search set before it is scored: the rules its writer follows, by script.

    python benchmarks/check_heldout.py FOLDER --db JUDGE_DB [--prefix i] [--training tests/search]

FOLDER holds ``queries.jsonl``, ``qrels.tsv``, ``nonsense.txt`` and, when the writer keeps it,
``pools.json`` and the ``written-apart-*.md`` account (tests/search/README.md, grading-guide.md).
Checked, each printed PASS or FAIL (exit status 1 on any FAIL):

- 40 queries ``<prefix>01``–``<prefix>40``, sorted, each ``{"_id", "text", "types"}``; at most
  two types of ``game``, ``question``, ``negation``, ``one-word`` (none: plain);
- the types agree with the texts: a negative word exactly for ``negation``; a closing question
  mark exactly for ``question``, and no query outside it opening with a question word; two words
  or fewer exactly for ``one-word``; a game's name (``vocabulary/games.toml``, names and aliases)
  opening the text exactly for ``game``, and no game's name elsewhere in a query not so tagged;
  game-named queries over at least 9 games;
- word overlap (:func:`overlap`) of every query with each training query at most one third, and
  no query repeating one;
- ``qrels.tsv``: its header, grades 0/1/2, no pair twice, every law in the judged database with
  ``witness_of`` NULL, every query with a law graded 2, every graded-2 clause's parent chain
  graded 1 or more, no law of another game graded 2 for a game-named query; ``pools.json`` (when
  present) holding the same laws;
- ``nonsense.txt``: 12 different lines, none repeating a line of the training set's
  ``nonsense.txt`` or ``everyday.txt`` nor overlapping one by more than a third, none holding
  card-law vocabulary (:data:`NONSENSE_SUBSTRINGS`, :data:`NONSENSE_WORDS`);
- the account (when present) quoting no query: no run of 6 words of a query, no one-word query whole.

The script reads the judged database (``--db``, the writer's copy) with sqlite3, the vocabulary's
``games.toml`` as TOML, and nothing of the search: a writer may run it without seeing how the
search works.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import tomllib
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES_TOML = ROOT / "ingest" / "vocabulary" / "games.toml"
TYPES = {"game", "question", "negation", "one-word"}
NEGATION = re.compile(r"\b(not|no|nobody|never|without|nothing|none|neither|nor)\b|n't\b", re.IGNORECASE)
QUESTION_WORDS = ("can ", "may ", "who ", "what ", "when ", "where ", "why ", "how ", "is ", "are ", "does ",
                  "do ", "should ", "must ", "which ", "will ", "am ", "if ")
NONSENSE_SUBSTRINGS = ("claim", "deal", "bet", "card", "trick", "hand", "score", "stake", "pack", "suit", "game",
                       "play", "turn", "player")
NONSENSE_WORDS = ("ace", "cut", "bid", "pot", "pool", "lead", "deck", "draw", "pass", "fold", "refund", "tax",
                  "stand", "call", "miss", "blind", "raise", "bank", "round", "table", "rule", "point", "count",
                  "win", "lose")
# the stop words of the overlap rule, as the writer of test18 applied it (earlier writers kept their own lists)
STOP = {
    "a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "for", "with", "by", "from",
    "as", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "have",
    "has", "had", "having", "i", "me", "my", "mine", "we", "us", "our", "ours", "you", "your", "yours",
    "he", "him", "his", "she", "her", "it", "its", "they", "them", "their", "theirs", "this", "that",
    "these", "those", "there", "here", "what", "which", "who", "whom", "whose", "when", "where", "why",
    "how", "can", "could", "may", "might", "must", "shall", "should", "will", "would", "not", "no", "nor",
    "so", "than", "too", "very", "just", "only", "also", "any", "all", "each", "both", "some", "such",
    "own", "same", "other", "another", "into", "onto", "out", "up", "down", "over", "under", "again",
    "further", "then", "once", "about", "after", "before", "while", "until", "against", "between",
    "through", "during", "above", "below", "off", "more", "most", "few", "s", "t", "don't", "doesn't",
    "didn't", "isn't", "aren't", "wasn't", "weren't", "won't", "can't", "couldn't", "i'd", "i'm", "i've",
    "it's", "he's", "he'd", "that's", "what's", "there's", "let's", "still", "yet", "ever", "even", "one"
}


def fold(text: str) -> str:
    """Lower case, accents and curly apostrophes folded."""
    text = unicodedata.normalize("NFKD", text.replace("\u2019", "'"))
    return "".join(c for c in text if not unicodedata.combining(c)).lower()


def content_words(text: str) -> set[str]:
    """The words that count for :func:`overlap`: stop words out, possessive 's and a plural -s folded."""
    out = set()
    for w in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", fold(text)):
        w = w.replace("'s", "")
        if not w or w in STOP:
            continue
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.add(w)
    return out


def overlap(a: str, b: str) -> float:
    """Jaccard of the two texts' :func:`content_words` (0–1; two texts of none: 1)."""
    x, y = content_words(a), content_words(b)
    return len(x & y) / len(x | y) if x | y else 1.0


def game_names(path: Path = GAMES_TOML) -> list[tuple[str, str]]:
    """(folded name, game slug) of every game's name, slug and alias, longest first."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    names = {}
    for slug, name in data.get("games", {}).items():
        # "general" (the laws of all card games) is an everyday word, not a game a player names
        for n in ((slug, slug.replace("-", " ")) if slug != "general" else ()) + (name,):
            names[fold(n)] = slug
    for alias, slug in data.get("aliases", {}).items():
        names[fold(alias)] = slug if isinstance(slug, str) else slug[0]
    return sorted(names.items(), key=lambda kv: -len(kv[0]))


def opening_game(text: str, names: list[tuple[str, str]]) -> str | None:
    t = fold(text)
    return next((slug for n, slug in names if re.match(re.escape(n) + r"\b", t)), None)


def games_inside(text: str, names: list[tuple[str, str]]) -> list[str]:
    # "put" (a game) is an everyday verb: only an opening "put" names the game
    t = fold(text)
    return [n for n, _ in names if n != "put" and re.search(r"\b" + re.escape(n) + r"\b", t)]


def read_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]


class Report:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.failures = 0

    def check(self, ok: bool, what: str) -> None:
        self.lines.append(("PASS " if ok else "FAIL ") + what)
        self.failures += not ok

    def info(self, what: str) -> None:
        self.lines.append("INFO " + what)


def check(folder: Path, db: Path, prefix: str, training: Path) -> Report:
    """Every check of the module's docstring on the set in ``folder``, judged against ``db``."""
    r = Report()
    names = game_names()
    queries = [json.loads(line) for line in read_lines(folder / "queries.jsonl")]
    r.check([q.get("_id") for q in queries] == [f"{prefix}{n:02d}" for n in range(1, 41)],
            f"40 queries {prefix}01–{prefix}40, sorted")
    r.check(all(set(q) == {"_id", "text", "types"} for q in queries), "each line has exactly _id, text, types")
    r.check(all(len(q["types"]) <= 2 and set(q["types"]) <= TYPES for q in queries), "at most two types, all known")
    wrong = []
    for q in queries:
        text, types, errors = q["text"], set(q["types"]), []
        if bool(NEGATION.search(fold(text))) != ("negation" in types):
            errors.append("negation")
        if text.rstrip().endswith("?") != ("question" in types):
            errors.append("question mark")
        if "question" not in types and fold(text).startswith(QUESTION_WORDS):
            errors.append("opens with a question word")
        if (len(text.split()) <= 2) != ("one-word" in types):
            errors.append("one-word")
        if (opening_game(text, names) is not None) != ("game" in types):
            errors.append("game name opening")
        if "game" not in types and games_inside(text, names):
            errors.append("game name inside")
        if errors:
            wrong.append((q["_id"], errors))
    r.check(not wrong, f"types agree with the texts {wrong or ''}")
    counts = Counter(t for q in queries for t in q["types"])
    counts["plain"] = sum(not q["types"] for q in queries)
    r.info(f"queries per type {dict(counts)}; with two types {sum(len(q['types']) == 2 for q in queries)}")
    named = {q["_id"]: opening_game(q["text"], names) for q in queries if "game" in q["types"]}
    r.check(len(set(named.values())) >= 9, f"game-named queries over {len(set(named.values()))} games (9 or more)")

    train = [json.loads(line)["text"] for line in read_lines(training / "queries.jsonl")]
    highest = max((max((overlap(q["text"], t) for t in train), default=0.0), q["_id"]) for q in queries)
    r.check(highest[0] <= 1 / 3 + 1e-9, f"highest word overlap with the {len(train)} training queries {highest[0]:.3f} ({highest[1]})")
    r.check(not ({fold(q["text"]) for q in queries} & {fold(t) for t in train}), "no query repeats a training query")

    lines = (folder / "qrels.tsv").read_text(encoding="utf-8").splitlines()
    r.check(bool(lines) and lines[0] == "query-id\tcorpus-id\tscore", "qrels.tsv header")
    rows = [line.split("\t") for line in lines[1:] if line.strip()]
    r.check(all(len(x) == 3 and x[2] in ("0", "1", "2") for x in rows), "grades 0, 1 or 2")
    rows = [x for x in rows if len(x) == 3 and x[2] in ("0", "1", "2")]
    r.check(len({(a, b) for a, b, _ in rows}) == len(rows), "no (query, law) pair twice")
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    laws = {i: (parent, game, witness) for i, parent, game, witness in conn.execute("select id, parent, game, witness_of from laws")}
    r.check(all(b in laws and laws[b][2] is None for _, b, _ in rows), "every law judged is in the database, witness_of NULL")
    r.check({a for a, _, _ in rows} == {q["_id"] for q in queries}, "qrels.tsv judges exactly the queries")
    grades: dict[str, dict[str, int]] = defaultdict(dict)
    for a, b, g in rows:
        grades[a][b] = int(g)
    r.check(all(2 in grades[q["_id"]].values() for q in queries), "every query has a law graded 2")
    chain = []
    for qid, judged in grades.items():
        for law, g in judged.items():
            parent = laws.get(law, (None,))[0] if g == 2 else None
            while parent:
                if judged.get(parent, 0) < 1:
                    chain.append((qid, law, parent))
                parent = laws.get(parent, (None,))[0]
    missing = sorted({(qid, parent) for qid, _, parent in chain})  # every one, to be added at 1 in one go
    r.check(not chain, "every graded-2 clause's parents graded 1 or more"
            + (f": {len(missing)} (query, parent) missing or below 1: {missing}" if missing else ""))
    off = [(qid, law) for qid, game in named.items() for law, g in grades[qid].items() if g == 2 and law in laws and laws[law][1] != game]
    r.check(not off, f"no other game's law graded 2 for a game-named query {off[:5] or ''}")
    if (folder / "pools.json").exists():
        pools = json.loads((folder / "pools.json").read_text(encoding="utf-8"))
        # the writer's pool; once the search's results are graded too (benchmarks/search_pool.py), qrels.tsv holds more
        r.check(set(pools) == set(grades) and all(set(pools[q]) <= set(grades[q]) for q in pools),
                "every law of pools.json is graded in qrels.tsv")
        beyond = sum(len(set(grades[q]) - set(pools.get(q, []))) for q in grades)
        r.info(f"judgments beyond the writer's pool (the search's results, graded apart): {beyond}")
    c = Counter(g for judged in grades.values() for g in judged.values())
    r.info(f"judgments {len(rows)}: graded 2 {c[2]}, 1 {c[1]}, 0 {c[0]}")

    nonsense = read_lines(folder / "nonsense.txt")
    known = read_lines(training / "nonsense.txt") + read_lines(training / "everyday.txt")
    r.check(len(nonsense) == 12 and len(set(nonsense)) == 12, "nonsense.txt: 12 different lines")
    bad = [n for n, line in enumerate(nonsense, 1) if any(s in fold(line) for s in NONSENSE_SUBSTRINGS)
           or set(re.findall(r"[a-z]+", fold(line))) & set(NONSENSE_WORDS)]
    r.check(not bad, f"nonsense.txt: no card-law vocabulary {bad or ''}")
    near = max((overlap(line, k) for line in nonsense for k in known), default=0.0)
    folded = {fold(k) for k in known}
    r.check(near <= 1 / 3 + 1e-9 and not any(fold(line) in folded for line in nonsense),
            f"nonsense.txt: no line repeats the lists; highest overlap {near:.3f}")

    for account in sorted(folder.glob("written-apart-*.md")):
        words = re.findall(r"[a-z0-9']+", fold(account.read_text(encoding="utf-8")))
        runs = {" ".join(words[i:i + 6]) for i in range(len(words) - 5)}
        quoted = []
        for q in queries:
            qw = re.findall(r"[a-z0-9']+", fold(q["text"]))
            if len(qw) <= 2:
                if re.search(r"\b" + re.escape(" ".join(qw)) + r"\b", " ".join(words)):
                    quoted.append(q["_id"])
            elif any(" ".join(qw[i:i + 6]) in runs for i in range(len(qw) - 5)):
                quoted.append(q["_id"])
        r.check(not quoted, f"{account.name} quotes no query {quoted or ''}")
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="the held-out set's folder")
    ap.add_argument("--db", type=Path, required=True, help="the database copy the set was judged against")
    ap.add_argument("--prefix", default=None, help="the queries' id letter (default: the first query's)")
    ap.add_argument("--training", type=Path, default=ROOT / "tests" / "search", help="the training set's folder")
    args = ap.parse_args()
    for path in (args.folder / "queries.jsonl", args.folder / "qrels.tsv", args.folder / "nonsense.txt", args.db):
        if not path.exists():
            sys.exit(f"{path}: not found")
    prefix = args.prefix
    if prefix is None:
        first = json.loads(read_lines(args.folder / "queries.jsonl")[0])["_id"]
        prefix = first.rstrip("0123456789")
    report = check(args.folder, args.db, prefix, args.training)
    print("\n".join(report.lines))
    print(f"{report.failures} failed")
    sys.exit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
