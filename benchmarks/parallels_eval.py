"""Parallels (the same rule in another game or code): draw a sample of laws, pool the top 5 of
each candidate method into one method-blind judging file, and score a judged file.

    python benchmarks/parallels_eval.py draw --sample a --out tests/parallels/sample-a-to-judge.jsonl
    python benchmarks/parallels_eval.py score tests/parallels/sample-a.jsonl
    python benchmarks/parallels_eval.py draw --sample b --methods built --out tests/parallels/sample-b-to-judge.jsonl
    python benchmarks/parallels_eval.py score --methods built tests/parallels/sample-b.jsonl
    python benchmarks/parallels_eval.py draw --sample c --methods built --ids-only \
        --out tests/parallels/sample-c-to-judge.jsonl --sheet ../notes/parallels-c

Sample A (seed 1) chose M1; sample B (seed 2, sample A's laws excluded) was drawn after M1 was
frozen and measured it. Both then served to choose M4 (so neither measures M4); sample C (seed 3,
the laws of A and B excluded) is drawn after M4 is frozen and measures it; with A and B it chose
M5's threshold, and sample D (seed 4, the laws of A, B and C excluded: M4's full top 5, so both are
measured) is drawn after M5 is frozen; sample E (seed 5, the laws of A–D excluded: M4's and M6's full
top 5 pooled) is drawn after M6 and M7 are frozen. A sampled law is a law
or clause of a catalogued book (not a seed excerpt, ``003_…``; not an excerpt's copy) of 8 words
or more.

The methods (each gives 5 laws of another code than the law's own, best first):

- ``M0``: the build's method before this benchmark: cosine of the sentence vectors, the 5 nearest
  in other games and the 3 nearest in other books of the same game, merged by score;
- ``M1``: cosine plus a bonus for sharing a reviewed situation the two laws decide (more for also
  sharing its remedy), minus a penalty when both decide situations and share none; any other code;
- ``M2``: laws deciding one of the situations the law decides first (by cosine), then the rest by
  cosine (plain cosine when the law decides none); any other code;
- ``M3``: M1, at most 2 laws from one code;
- ``M4``: M1, minus 0.10 when the two laws share almost no word: the cosine of their tf-idf word
  vectors (stemmed; a clause's words include its law's) is below 0.05;
- ``M5``: M4's top 5, only those scoring 0.70 or more (``SHOWN``; set on samples A, B and C): a
  law may have fewer than 5 parallels, or none;
- ``M6``: M4 plus 0.20 times the cosine of the two laws' plain questions (the mean vector of each
  law's questions, ``corpus/questions``; set on samples A–D);
- ``M7``: M6's top 5, only those scoring 0.80 or more (as many shown over the nine books as M5);
- ``built``: the ``parallels`` table of the database (the frozen method, as the build made it:
  M7 since sample E, M5 since sample D, M4 since sample C, M1 before; ``ingest/build/link.py``).

Judgments: ``same`` (the same rule: same situation and the same or an equivalent ruling),
``related`` (same situation, a different ruling, or a rule that partly overlaps), ``no``.
Scores per method: precision@5 (same or related), strict precision@5 (same), and the recall of
the same rule: of the sampled laws for which any judged candidate (of any method) is ``same``,
the share whose top 5 holds one. P@5 counts a slot a method leaves empty as wrong; "P shown" is
the share of the laws a method shows that are judged same or related, and "none" the sampled laws
it shows none for. A candidate nobody judged counts as wrong; ``judged`` is the
share of the method's top 5 that is judged (below 1, the method is measured on pairs it was not
pooled for, and its P@5 is a lower bound).

``--sheet DIR`` writes a judging sheet for people (``DIR/sheet.md``: the rules, then each law
with its candidates in shuffled order, no method or score) and ``DIR/answers.tsv`` (law,
candidate, judgment; the judgment empty); ``score`` reads such a TSV, once filled, as well.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ingest.build.link import asked_vectors, with_context, word_vectors  # the build's, for M4 and M6

ROOT = Path(__file__).resolve().parent.parent
DB = ROOT / "db" / "cardlaws.db"
SEEDS = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
SIZE = 100
TOP = 5
MIN_WORDS = 8
SEED_SOURCE = re.compile(r"^\d{3}_")
METHODS = ("M0", "M1", "M2", "M3", "M4", "M5", "M6", "M7")
# M1/M3 weights, set before judging
BONUS, REMEDY_BONUS, PENALTY = 0.10, 0.05, 0.10
# M4 (set on samples A and B): M1 minus UNLIKE when the word vectors' cosine is below WORDS
UNLIKE, WORDS = 0.10, 0.05
# M5 (set on samples A, B and C, before sample D was drawn): M4's top 5, only those scoring SHOWN or more
SHOWN = 0.70
# M6 (set on samples A–D, before sample E was drawn): M4 plus ASKED times the cosine of the two laws'
# plain questions; M7: M6's top 5, only those scoring SHOWN_M7 or more (the build's method since)
ASKED, SHOWN_M7 = 0.20, 0.80


@dataclass
class Corpus:
    ids: list[str]
    meta: dict[str, dict]
    matrix: np.ndarray
    situations: dict[str, set[str]] = field(default_factory=dict)  # reviewed decides, own ∪ clauses'
    remedies: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    clauses: dict[str, list[str]] = field(default_factory=dict)
    words: np.ndarray | None = None  # tf-idf word vectors, rows as ``ids``
    asked: np.ndarray | None = None  # mean vectors of the laws' plain questions (0 for none), rows as ``ids``


def load(db: Path) -> Corpus:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    meta = {r["id"]: dict(r) for r in conn.execute(
        "select id, source, game, code, kind, number, parent, text, witness_of, ordinal from laws order by ordinal")}
    vectors = dict(conn.execute("select law_id, vector from law_embeddings"))
    ids = [i for i in meta if i in vectors]
    matrix = np.frombuffer(b"".join(vectors[i] for i in ids), dtype=np.float32).reshape(len(ids), -1)
    c = Corpus(ids, meta, matrix)
    c.words = word_vectors([with_context(meta[i]["text"], meta[meta[i]["parent"]]["text"] if meta[i]["parent"] else None)
                            for i in ids])
    mean = asked_vectors({(law_id, n): v for n, (law_id, v) in enumerate(conn.execute("select law_id, vector from law_questions"))})
    c.asked = np.stack([mean.get(i, np.zeros(matrix.shape[1], dtype=np.float32)) for i in ids])
    for law_id, parent in ((i, m["parent"]) for i, m in meta.items()):
        if parent:
            c.clauses.setdefault(parent, []).append(law_id)

    def up(law_id):  # a clause's tags count for the law that lists it too
        while law_id:
            yield law_id
            law_id = meta[law_id]["parent"]

    for law_id, s in conn.execute("select law_id, situation_id from law_situations "
                                  "where grade = 'decides' and origin = 'reviewed'"):
        for x in up(law_id):
            c.situations.setdefault(x, set()).add(s)
    for law_id, s, r in conn.execute("select law_id, situation_id, remedy from law_remedies where origin = 'reviewed'"):
        for x in up(law_id):
            c.remedies.setdefault(x, set()).add((s, r))
    return c


def words(text: str) -> int:
    return len(text.split())


def eligible(c: Corpus, law_id: str) -> bool:
    m = c.meta[law_id]
    return not SEED_SOURCE.match(m["source"]) and not m["witness_of"] and words(m["text"]) >= MIN_WORDS


def draw(c: Corpus, sample: str) -> list[str]:
    """The sample's law ids (a sample leaves out the laws of the samples before it)."""
    taken = {i for earlier in SEEDS if earlier < sample for i in draw(c, earlier)}
    pool = [i for i in c.ids if eligible(c, i) and i not in taken]
    return random.Random(SEEDS[sample]).sample(pool, SIZE)


def candidate(c: Corpus, j: int) -> bool:
    """Whether law ``j`` may be anyone's parallel under M1–M3: a rule, not a cross-reference."""
    return c.meta[c.ids[j]]["kind"] != "reference"


def rank(c: Corpus, law_id: str, method: str) -> list[str]:
    i = c.ids.index(law_id)
    m = c.meta[law_id]
    cos = c.matrix @ c.matrix[i]
    game = np.array([c.meta[x]["game"] for x in c.ids], dtype=object)
    source = np.array([c.meta[x]["source"] for x in c.ids], dtype=object)
    code = np.array([c.meta[x]["code"] for x in c.ids], dtype=object)
    if method == "M0":
        out = []
        for keep, n in ((game != m["game"], 5), ((game == m["game"]) & (source != m["source"]), 3)):
            s = np.where(keep, cos, -np.inf)
            out += [(float(s[j]), c.ids[j]) for j in np.argsort(-s)[:n] if np.isfinite(s[j])]
        return [x for _, x in sorted(out, reverse=True)[:TOP]]
    keep = (code != m["code"]) & np.array([candidate(c, j) for j in range(len(c.ids))])
    mine = c.situations.get(law_id, set())
    score = cos.copy()
    for j, other in enumerate(c.ids):
        theirs = c.situations.get(other, set())
        shared = mine & theirs
        if method in ("M1", "M3", "M4", "M5", "M6", "M7"):
            if shared:
                score[j] += BONUS
                if {r for r in c.remedies.get(law_id, set()) if r[0] in shared} & c.remedies.get(other, set()):
                    score[j] += REMEDY_BONUS
            elif mine and theirs:
                score[j] -= PENALTY
        elif method == "M2" and shared:
            score[j] += 10.0  # those deciding a shared situation first
    if method in ("M4", "M5", "M6", "M7"):
        score -= UNLIKE * (c.words @ c.words[i] < WORDS)
    if method in ("M6", "M7"):
        score += ASKED * (c.asked @ c.asked[i])
    score = np.where(keep, score, -np.inf)
    out, per_code = [], defaultdict(int)
    for j in np.argsort(-score, kind="stable"):
        if (not np.isfinite(score[j]) or len(out) == TOP or (method == "M5" and score[j] < SHOWN)
                or (method == "M7" and score[j] < SHOWN_M7)):
            break
        if method == "M3" and per_code[code[j]] == 2:
            continue
        per_code[code[j]] += 1
        out.append(c.ids[j])
    return out


def built(db: Path, law_id: str) -> list[str]:
    conn = sqlite3.connect(db)
    return [r[0] for r in conn.execute("select other_id from parallels where law_id = ? order by score desc limit ?",
                                       [law_id, TOP])]


def shown(c: Corpus, law_id: str) -> str:
    """The law's text as a judge reads it: with the cases it lists."""
    text = c.meta[law_id]["text"]
    cases = [f"({c.meta[k]['number'].split('/')[-1]}) {c.meta[k]['text']}" for k in c.clauses.get(law_id, [])]
    return text + (" " + " ".join(cases) if cases else "")


def tops(c: Corpus, db: Path, ids: list[str], methods: list[str]) -> dict[str, dict[str, list[str]]]:
    return {m: {i: built(db, i) if m == "built" else rank(c, i, m) for i in ids} for m in methods}


def cmd_draw(args) -> None:
    c = load(args.db)
    ids = draw(c, args.sample)
    ranked = tops(c, args.db, ids, args.methods)
    rows = []
    for i in ids:
        for other in dict.fromkeys(x for m in args.methods for x in ranked[m][i]):
            o = c.meta[other]
            rows.append({"law": i, "law_code": c.meta[i]["code"], "law_text": shown(c, i),
                         "candidate": other, "candidate_game": o["game"], "candidate_code": o["code"],
                         "candidate_text": shown(c, other), "judgment": ""})
    random.Random(SEEDS[args.sample] + 100).shuffle(rows)
    rows.sort(key=lambda r: ids.index(r["law"]))  # one law's candidates together, in shuffled order
    keep = ("law", "candidate", "judgment") if args.ids_only else None
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps({k: r[k] for k in keep} if keep else r, ensure_ascii=False) + "\n"
                                for r in rows), encoding="utf-8")
    print(f"{len(rows)} pairs for {len(ids)} laws → {args.out}")
    if args.sheet:
        write_sheet(args.db, c, args.sample, ids, rows, args.sheet)


RULES = """Each numbered section below is one law of a card-game code (its id, its game and its full text;
a law that lists cases is shown with them: "(a) …"). Under it are candidate laws from other games
or other codes (5 or more), in no particular order. For each candidate, decide:

- **same**: the same rule: the same situation and the same or an equivalent ruling, in another code
  or game (the wording may differ; "a fresh cut" and "reshuffle and cut again" are equivalent; a
  bridge law adapting a whist rule to dummy is the same rule if the ruling is the same);
- **related**: the same situation with a different ruling, or a rule that only partly overlaps
  (one law covers part of what the other rules; the same remedy for a neighbouring case);
- **no**: otherwise (another situation, even if the words look alike).

"Situation" is the circumstance the law rules on (a revoke, a card exposed in dealing, the order of
dealing, what happens when nobody bids, …), read as the circumstance the law itself rules on. Judge
from the texts alone, each candidate on its own (there may be any number of each kind, including
none), without looking up how the candidates were found.

Write your answers in your own copy of `answers.tsv` (tab-separated: law, candidate, judgment): fill
the third column of each line with `same`, `related` or `no`, and keep the ids as they are. Optional,
for the recall figure: if you know a law of another code that states the same rule as a sampled law
and is not among its candidates, add a line: the sampled law's id, that law's id, `same`."""


def write_sheet(db: Path, c: Corpus, sample: str, ids: list[str], rows: list[dict], folder: Path) -> None:
    """``folder/sheet.md`` (the rules, then each law and its candidates as drawn, without method or
    score) and ``folder/answers.tsv`` (law, candidate, judgment; the judgment empty)."""
    games = dict(sqlite3.connect(db).execute("select slug, name from games"))
    out = [f"# Parallels: sample {sample.upper()}, to judge\n", RULES, ""]
    for n, i in enumerate(ids, 1):
        out += [f"## {n}. `{i}` ({games.get(c.meta[i]['game'], c.meta[i]['game'])})", "", f"> {shown(c, i)}", ""]
        for k, r in enumerate((r for r in rows if r["law"] == i), 1):
            o = r["candidate"]
            out += [f"{n}.{k}. `{o}` ({games.get(c.meta[o]['game'], c.meta[o]['game'])})", "", f"> {shown(c, o)}", ""]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sheet.md").write_text("\n".join(out), encoding="utf-8")
    (folder / "answers.tsv").write_text("law\tcandidate\tjudgment\n" + "".join(
        f"{r['law']}\t{r['candidate']}\t\n" for r in rows), encoding="utf-8")
    print(f"judging sheet → {folder / 'sheet.md'}; answers → {folder / 'answers.tsv'}")


def read_judged(path: Path) -> list[dict]:
    """A judged file's lines: JSON lines, or a filled ``answers.tsv`` (law, candidate, judgment)."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if path.suffix == ".tsv":
        return [dict(zip(("law", "candidate", "judgment"), (line.split("\t") + [""])[:3])) for line in lines[1:]]
    return [json.loads(line) for line in lines]


def cmd_score(args) -> None:
    c = load(args.db)
    judged, ids = {}, []  # the sample is the judged file's laws (as drawn when it was written)
    for r in read_judged(args.judged):
        judged[(r["law"], r["candidate"])] = r["judgment"].strip()
        ids += [r["law"]] if r["law"] not in ids else []
    ranked = tops(c, args.db, ids, args.methods)
    has_same = {i for (i, _), j in judged.items() if j == "same" and i in ids}
    print(f"{args.judged.name}: {len(ids)} laws; {len(has_same)} with a judged same-rule parallel")
    print(f"{'method':<8}{'P@5':>7}{'strict':>8}{'recall':>8}{'judged':>8}{'shown':>7}{'none':>6}{'P shown':>9}")
    for m in args.methods:
        p = strict = found = judged_share = p_shown = 0
        n_shown = none = 0
        for i in ids:
            got = [judged.get((i, x)) for x in ranked[m][i]]
            n = max(len(got), 1)
            judged_share += sum(g not in (None, "") for g in got) / n if got else 0
            p += sum(g in ("same", "related") for g in got) / TOP
            p_shown += sum(g in ("same", "related") for g in got)
            n_shown += len(got)
            none += not got
            strict += sum(g == "same" for g in got) / TOP
            found += i in has_same and "same" in got
        print(f"{m:<8}{p / len(ids):>7.3f}{strict / len(ids):>8.3f}"
              f"{(found / len(has_same) if has_same else 0):>8.3f}{judged_share / max(len(ids) - none, 1):>8.3f}"
              f"{n_shown:>7}{none:>6}{p_shown / max(n_shown, 1):>9.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=DB)
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw")
    s = sub.add_parser("score")
    for p in (d, s):
        p.add_argument("--methods", type=lambda v: v.split(","), default=list(METHODS))
    d.add_argument("--sample", choices=sorted(SEEDS), default="a")
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--ids-only", action="store_true", help="write law, candidate and judgment only (no texts)")
    d.add_argument("--sheet", type=Path, help="folder for a judging sheet for people (sheet.md, answers.tsv)")
    s.add_argument("judged", type=Path)
    args = parser.parse_args()
    {"draw": cmd_draw, "score": cmd_score}[args.cmd](args)


if __name__ == "__main__":
    main()
