"""Annotations: the reviewed situation and remedy tags (``corpus/annotations/<book>.csv``, written
by people who read every law of the book; the folder's README gives the columns and the rules),
and each law's final tags: reviewed where a person read it, else predicted by the tagger.

A row's evidence must be words of its law's text. Where the build has since split a law into the
cases it lists (its clauses), a tag whose evidence now stands in one of those clauses moves to it
(with a warning saying so); evidence found nowhere is an error naming the file and line.

A remedy printed only in a law's stem reaches the cases it lists: "There must be a new deal— (a) …
(c) If any card be faced in the pack." gives the new deal for each case. So a case (a clause) that
decides a situation and gives no remedy of its own for it inherits the reviewed remedies of its
parent law (the stem, not further up), tagged ``reviewed`` with the stem's words as evidence and
no offsets (NULL ``evidence_start`` and ``evidence_end``: the words are not in the case's own text). A case with a remedy of its own for the
situation keeps only its own, and a stem that lists exceptions ("A renounce in error may be
corrected …, except in the following cases") passes nothing on.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np

from .. import vocabulary
from ..models import CorpusError, Law, LawVector, Tag
from ..situation_model import LawInput, SituationModel

COLUMNS = ["law_id", "situation", "grade", "remedy", "evidence", "opening"]
GRADES = ("decides", "touches")
EXCEPT = re.compile(r"\bexcept\b", re.IGNORECASE)  # a stem listing the exceptions to its rule


def read_annotations(folder: Path, laws: list[Law]) -> tuple[dict[str, list[Tag]], list[str]]:
    """The reviewed tags of the laws being built, by law id (a law reviewed as deciding nothing has
    an empty list), and warnings. Files of books not being built are skipped. Raises
    :class:`CorpusError` naming the file and line for a wrong header, an unknown law of a built
    book, situation, remedy or grade, a remedy for a situation the law does not decide, or
    evidence that is not in the law's text (nor in one of its clauses)."""
    by_id = {law.id: law for law in laws}
    sources = {law.source for law in laws}
    children: dict[str, list[Law]] = {}
    for law in laws:
        if law.parent:
            children.setdefault(law.parent, []).append(law)
    situations = {s.id for s in vocabulary.situations()}
    remedies = set(vocabulary.remedies())
    reviewed: dict[str, list[Tag]] = {}
    warnings: list[str] = []
    for path in sorted(folder.glob("*.csv")) if folder.is_dir() else []:
        if path.stem not in sources:
            continue
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames != COLUMNS:
                raise CorpusError(f"{path}:1: the header must be {','.join(COLUMNS)}")
            for line, row in enumerate(reader, start=2):
                where = f"{path}:{line}"
                law = by_id.get(row["law_id"])
                if law is None:
                    raise CorpusError(f"{where}: law_id {row['law_id']!r}: no such law in the book")
                reviewed.setdefault(law.id, [])
                if not row["situation"]:
                    continue
                _check(row, where, situations, remedies)
                evidence = row["evidence"]
                target, start = _locate(law, evidence, children)
                if target is None:  # the evidence runs on into the cases the law now lists: keep its opening
                    evidence = _opening_in(law.text, evidence)
                    target, start = (law, law.text.find(evidence)) if evidence else (None, -1)
                    if target is None:
                        raise CorpusError(f"{where}: evidence {row['evidence'][:60]!r} is not in the text of {law.id}")
                    warnings.append(f"{where}: only the opening of the evidence is in {law.id} ({evidence!r}); kept")
                if target is not law:
                    warnings.append(f"{where}: the evidence stands in {target.id}, a case {law.id} lists; the tag moves there")
                    reviewed.setdefault(target.id, [])
                reviewed[target.id].append(Tag(row["situation"], row["grade"], "reviewed", evidence, start,
                                               start + len(evidence), row["remedy"] or None))
    for law_id, tags in reviewed.items():
        decided = {t.situation for t in tags if t.grade == "decides" and t.remedy is None}
        for t in [t for t in tags if t.remedy and t.situation not in decided]:
            # its situation moved to a case the law lists: the law decides it through its list
            tags.append(Tag(t.situation, "decides", "reviewed", t.evidence, t.start, t.end))
            decided.add(t.situation)
            warnings.append(f"{law_id}: decides {t.situation} through the cases it lists (its remedy {t.remedy} stays)")
    _inherit_stem_remedies(reviewed, by_id)
    return reviewed, warnings


def _inherit_stem_remedies(reviewed: dict[str, list[Tag]], by_id: dict[str, Law]) -> None:
    """Give each reviewed case the remedies its stem (parent law) was reviewed as giving, for
    each situation the case decides without a remedy of its own (the module's docstring)."""
    for law_id, tags in reviewed.items():
        parent = by_id[law_id].parent
        stem = [t for t in reviewed.get(parent, []) if t.remedy] if parent else []
        if not stem or EXCEPT.search(by_id[parent].text):
            continue
        given = {t.situation for t in tags if t.remedy}
        decided = [t.situation for t in tags if t.grade == "decides" and t.remedy is None and t.situation not in given]
        inherited = {t.remedy: t for t in stem}  # one each remedy, the first row's words
        for situation in dict.fromkeys(decided):
            tags += [Tag(situation, "decides", "reviewed", t.evidence, None, None, remedy) for remedy, t in inherited.items()]


def _check(row: dict, where: str, situations: set[str], remedies: set[str]) -> None:
    """Raise :class:`CorpusError` naming ``where`` for a row naming an unknown situation, grade or
    remedy, a remedy row not graded decides, or no evidence."""
    if row["situation"] not in situations:
        raise CorpusError(f"{where}: situation {row['situation']!r} is not in ingest/vocabulary/situations.toml")
    if row["grade"] not in GRADES:
        raise CorpusError(f"{where}: grade must be decides or touches, not {row['grade']!r}")
    if row["remedy"] and row["remedy"] not in remedies:
        raise CorpusError(f"{where}: remedy {row['remedy']!r} is not in ingest/vocabulary/situations.toml")
    if row["remedy"] and row["grade"] != "decides":
        raise CorpusError(f"{where}: a remedy row must have grade decides")
    if not row["evidence"]:
        raise CorpusError(f"{where}: evidence is empty")


def _opening_in(text: str, evidence: str) -> str:
    """The longest opening of ``evidence`` (three words or more) found in ``text``; empty if none."""
    words = evidence.split()
    for n in range(len(words) - 1, 2, -1):
        opening = " ".join(words[:n])
        if opening in text:
            return opening
    return ""


def _locate(law: Law, evidence: str, children: dict[str, list[Law]]) -> tuple[Law | None, int]:
    """The law whose text holds ``evidence`` — ``law``, else one of its cases (clauses, nested) —
    and the offset there."""
    todo = [law]
    while todo:
        x = todo.pop(0)
        k = x.text.find(evidence)
        if k >= 0:
            return x, k
        todo += children.get(x.id, [])
    return None, -1


def final_tags(laws: list[Law], reviewed: dict[str, list[Tag]], vectors: dict[str, LawVector] | None = None,
               model: SituationModel | None = None) -> None:
    """Set each law's ``tags``: its reviewed tags, else proposals, graded ``decides``: the model's
    situations and remedies (for a law with a vector; score = its confidence, each remedy tied to a
    proposed situation it answers) or, without a model, the cue tagger's (score = cue matches),
    with the remedies the cues find tied to each situation."""
    vectors = vectors or {}
    by_id = {law.id: law for law in laws}
    todo = [law for law in laws if law.id not in reviewed and law.decision is not None]
    for law in laws:
        if law.id in reviewed:
            law.tags = list(reviewed[law.id])
    modelled = [law for law in todo if model is not None and law.id in vectors]
    inputs = [LawInput(np.frombuffer(vectors[law.id].vector, dtype=np.float32), law.decision.situations,
                       set(law.decision.remedies), law.text, _context(law, by_id), vocabulary.family_of(law.game))
              for law in modelled]
    proposals = dict(zip((law.id for law in modelled), model.propose(inputs) if model and inputs else []))
    for law in todo:
        d = law.decision
        if law.id in proposals:
            situations, remedies = proposals[law.id]
        else:
            situations = {s: float(n) for s, n in d.situations.items()}
            remedies = {}
        tags = []
        for sid, score in sorted(situations.items()):
            start, end = d.spans.get(sid, (0, 0))
            tags.append(Tag(sid, "decides", "predicted", law.text[start:end], start, end, None, score))
        pairs = ([(s, r, p) for r, (s, p) in remedies.items()] if law.id in proposals
                 else [(s, r, 1.0) for s in situations for r in d.remedies])
        for sid, remedy, score in sorted(pairs):
            rs, re_ = d.spans.get(f"remedy:{remedy}", (0, 0))
            tags.append(Tag(sid, "decides", "predicted", d.remedies.get(remedy, law.text[rs:re_]), rs, re_, remedy, score))
        law.tags = tags


def _context(law: Law, by_id: dict[str, Law]) -> str:
    """The law's section heading and its parent law's text (what the model reads around it)."""
    parent = by_id.get(law.parent) if law.parent else None
    return " ".join(x for x in (law.section, parent.text if parent else None) if x)
