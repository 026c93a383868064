"""Link: the relations between records, made after tagging and before loading.

- :func:`attach_footnotes`: a law's note gains the footnotes its text cites (``[21]``);
- :func:`link_excerpts`: an excerpt's law becomes a witness of its book's law (``witness_of``);
- :func:`cross_references`: the citations inside laws, resolved to laws;
- :func:`ruling_citations`: the citations in rulings, resolved to laws;
- :func:`short_citations`: each law's short citation, the shortest the resolver reads back as it;
- :func:`parallels`: each law's parallels in other codes: nearest by sentence vector and by the
  situations the two decide, never two laws that share almost no word.

Every function takes and returns typed records (:mod:`ingest.models`); none touches the database.
"""

from __future__ import annotations

import re

import numpy as np

from ..citation import law_label, short_candidates
from ..cite import CitableCode, CitableLaw, CitableSource, Resolver
from ..cite.find import ORDINALS
from ..models import CrossReference, Document, Law, Parallel, Ruling, RulingCitation, Segmentation
from ..text import letter_words, stem
from .segment.notes import FOOTNOTE_RE


def attach_footnotes(laws: list[Law], notes: dict[int, str]) -> None:
    """Append to each law's note the text of the footnotes its raw text cites (``[21]``);
    ``notes`` maps footnote number → text (from the book's footnote areas)."""
    for law in laws:
        cited = [int(n) for n in FOOTNOTE_RE.findall(law.raw_text) if n.isdigit() and int(n) in notes]
        if cited:
            extra = "\n\n".join(f"[{n}] {notes[n]}" for n in dict.fromkeys(cited))
            law.note = f"{law.note}\n\n{extra}" if law.note else extra


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def link_excerpts(segmented: list[tuple[Document, list[Segmentation]]]) -> list[str]:
    """Set ``witness_of`` on each law of an excerpt (a source with ``excerpt_of``) to the law of
    the book with the same number and text (an excerpt cut off mid-word matches the book's law
    that begins with it). Returns a warning (file and line) for each excerpt law with no match in
    a built book."""
    by_source = {d.source.slug: [law for s in segs for law in s.laws] for d, segs in segmented}
    unmatched = []
    for doc, segs in segmented:
        book = doc.source.excerpt_of
        if not book or book not in by_source:
            continue
        index: dict[str, list[Law]] = {}
        for law in by_source[book]:
            index.setdefault(law.number, []).append(law)
        for s in segs:
            for law in s.laws:
                key = _key(law.text)
                match = next((b for b in index.get(law.number, []) if key and _key(b.text).startswith(key)), None)
                if match:
                    law.witness_of = match.id
                else:
                    unmatched.append(f"{doc.source.path}:{law.line_start}: {law.id} has no law with its text in {book}")
    return unmatched


def citables(docs: list[Document], laws: list[Law], games: dict[str, str]
              ) -> tuple[list[CitableSource], list[CitableLaw], list[CitableCode]]:
    """What a citation resolver is given of the records being built (``games``: the games the
    laws belong to, slug → name): the sources, the laws and the codes, as ``Resolver`` takes them
    after ``games``."""
    sources = [CitableSource(d.source.slug, d.source.title, d.source.author, d.source.year, d.source.kind)
               for d in docs]
    codes = [CitableCode(f"{d.source.slug}/{c.slug}", d.source.slug, c.game, c.title or games.get(c.game, c.game),
                         c.authority, c.year, c.edition, c.aliases, c.numbering != "unnumbered", c.kind)
             for d in docs for c in d.source.codes]
    citable = [CitableLaw(law.id, law.source, law.game, law.code_id, law.number, law.kind, law.parent,
                          law.ordinal, law.numbered, law.witness_of, law.text) for law in laws]
    return sources, citable, codes


def resolver_for(docs: list[Document], laws: list[Law], games: dict[str, str]) -> Resolver:
    """A citation resolver over the laws being built (``games``: the games they belong to)."""
    return Resolver(games, *citables(docs, laws, games))


def short_citations(resolver: Resolver, docs: list[Document], laws: list[Law], games: dict[str, str]) -> list[str]:
    """Set each law's ``citation``: of :func:`~ingest.citation.short_candidates`, the first that the
    resolver reads back as exactly this law (a range entry: as the laws it points to); an excerpt's
    law takes the citation of the book's law it witnesses. Returns the ids of laws no candidate
    names alone (they keep the most specific one); a number printed twice is cited as "…, the
    second so numbered"."""
    sources = {d.source.slug: d.source for d in docs}
    codes = {f"{d.source.slug}/{c.slug}": c for d in docs for c in d.source.codes}
    by_id = {law.id: law for law in laws}
    alone_not = []
    for law in laws:
        if law.witness_of:
            continue
        src, code = sources[law.source], codes[law.code_id]
        label = law_label(law.kind, law.id, games[law.game], code.numbering != "unnumbered")
        names = [*code.aliases, code.title or games[law.game]]
        candidates = short_candidates(label, {"author": src.author, "title": src.title, "year": src.year}, names)
        if src.kind == "excerpt":  # an excerpt whose book is not built: cite the book it is taken from
            law.citation = candidates[0]
            continue
        law.citation = next((c for c in candidates if _names_alone(resolver, c, law)), None)
        if law.citation is None:
            copies = sorted(i for i in by_id if re.sub(r"~\d+$", "", i) == re.sub(r"~\d+$", "", law.id))
            if len(copies) > 1:  # a number the book prints twice: say which
                law.citation = f"{candidates[0]}, the {ORDINALS[copies.index(law.id)]} so numbered"
            else:
                law.citation = candidates[-1]
                alone_not.append(law.id)
    for law in laws:
        if law.witness_of and law.witness_of in by_id:
            law.citation = by_id[law.witness_of].citation
    return alone_not


def _names_alone(resolver: Resolver, citation: str, law: Law) -> bool:
    found = resolver.cite(citation)
    if len(found) != 1 or found[0].status != "resolved" or found[0].citation.text != citation:
        return False
    return law.kind == "reference" or found[0].laws == [law.id]


def cross_references(resolver: Resolver, laws: list[Law]) -> list[CrossReference]:
    """The citations inside every law's text (its own law as the context), one record per law
    cited (``target_id`` None when unresolved); offsets are into ``Law.text``. An excerpt's copy
    of a book's law is skipped (the book's law carries them)."""
    out = []
    for law in sorted(laws, key=lambda x: x.ordinal):
        if law.witness_of:
            continue
        for r in resolver.cite(law.text, context=law.id):
            c = r.citation
            out += [CrossReference(law.id, target, c.text, c.start, c.end, r.status)
                    for target in r.laws or [None] if target != law.id]
    return out


def ruling_citations(resolver: Resolver, rulings: list[Ruling], rules: dict[str, str]) -> list[RulingCitation]:
    """The citations in each ruling's raw text, one record per law cited (``law_id`` None when
    unresolved); offsets are into ``Ruling.raw_text``. The decisions of a book of cases read
    "Law 51" as a law of the book it rules on, ``rules[ruling.source]`` (Cavendish's Cases and
    Decisions rule on his Laws of Piquet)."""
    out = []
    for r in rulings:
        for res in resolver.cite(r.raw_text, book=rules.get(r.source)):
            c = res.citation
            out += [RulingCitation(r.id, law_id, c.text, c.start, c.end, res.status) for law_id in res.laws or [None]]
    return out


# Parallels (benchmarks/parallels_eval.py: M1 chosen on tests/parallels/sample-a.jsonl, M4 on samples A
# and B): cosine of the sentence vectors, plus SHARED when the two laws decide a situation in common (plus
# REMEDY when they also give the same remedy for it), minus APART when both decide situations and share
# none, minus UNLIKE when their words hardly meet (cosine of their tf-idf word vectors below WORDS; a
# clause's words include those of the law that lists it): the sentence vectors alone pair "In no case can
# a player be compelled to play a card which would oblige him to revoke" with "A card … cannot be
# withdrawn after it has been once thrown face upwards"; of the M1 pairs judged in samples A and B that
# this moves out of the top 5, 4 in 51 had been judged same rule or related. M5 (set on samples A, B
# and C): only a law scoring SHOWN or more is a parallel, so a rule with nothing like it elsewhere
# (bezique's marriages, skat's announcements) has none rather than five laws sharing a broad tag; on
# sample C it kept 411 of the 500 pairs, the share of them judged same or related rising from 0.62 to 0.71;
# on sample D, drawn after it was frozen, 0.73–0.74 of those shown (tests/parallels/README.md).
# M6 adds ASKED times the cosine of the two laws' plain questions (the mean vector of each law's
# questions, corpus/questions): two books word a rule differently, a player asks it the same way. On
# the pairs judged in samples A–D it put a judged same-or-related law above a judged unrelated one in
# 0.75–0.84 of cases (M4: 0.66–0.83); SHOWN rose to 0.80 with it, which shows about as many parallels
# as M5 did at 0.70 (6,129 in the nine books), of which those judged in A–D were 0.80 same or related
# (M5's: 0.77). Sample E, drawn after M6 was frozen, measures it (tests/parallels/README.md).
PARALLELS, SHARED, REMEDY, APART, UNLIKE, WORDS, ASKED, SHOWN = 5, 0.10, 0.05, 0.10, 0.10, 0.05, 0.20, 0.80
PARALLELS_METHOD = "embedding+situations+words+questions"


def asked_vectors(questions: dict[tuple[str, int], bytes]) -> dict[str, np.ndarray]:
    """Each law's plain questions as one vector: the mean of its questions' vectors (float32 bytes
    by (law id, position)), unit length; by law id, for the laws that have questions."""
    sums: dict[str, np.ndarray] = {}
    for (law_id, _), vector in questions.items():
        v = np.frombuffer(vector, dtype=np.float32)
        sums[law_id] = sums[law_id] + v if law_id in sums else v.copy()
    return {law_id: v / n for law_id, v in sums.items() if (n := float(np.linalg.norm(v))) > 0}


def parallels(vectors: dict[str, bytes], laws: dict[str, Law], decides: dict[str, set[str]] | None = None,
              remedies: dict[str, set[tuple[str, str]]] | None = None, asked: dict[str, np.ndarray] | None = None,
              top: int = PARALLELS) -> list[Parallel]:
    """Each law's ``top`` parallels: the laws of other codes (of any game; kind ``other-game`` or
    ``other-code``) nearest to it by cosine of their vectors (float32 bytes by law id), moved up when
    the two decide a situation in common, down when both decide situations but none in common, down
    when they share almost no word (:func:`word_vectors`), and up by ``ASKED`` times the cosine of
    their plain questions (``asked``: :func:`asked_vectors`; a law without questions gains nothing).
    ``decides`` and ``remedies`` are the reviewed situations (and (situation, remedy) pairs) a law
    decides, by law id; a law counts those of the cases it lists too. A cross-reference ("As in
    Bridge.") is nobody's parallel, and no law scoring under ``SHOWN`` is anyone's: a law may have
    fewer than ``top`` parallels, or none."""
    ids = sorted(vectors, key=lambda i: laws[i].ordinal)
    if not ids:
        return []
    situations, answers = _listed_up(decides or {}, laws), _listed_up(remedies or {}, laws)
    s_cols = {s: k for k, s in enumerate(sorted({s for v in situations.values() for s in v}))}
    r_cols = {r: k for k, r in enumerate(sorted({r for v in answers.values() for r in v}))}
    tagged = np.zeros((len(ids), len(s_cols)), dtype=np.float32)
    answered = np.zeros((len(ids), len(r_cols)), dtype=np.float32)
    for row, law_id in enumerate(ids):
        tagged[row, [s_cols[s] for s in situations.get(law_id, ())]] = 1
        answered[row, [r_cols[r] for r in answers.get(law_id, ())]] = 1
    has = tagged.any(axis=1)
    matrix = np.frombuffer(b"".join(vectors[i] for i in ids), dtype=np.float32).reshape(len(ids), -1)
    words = word_vectors([with_context(laws[i].text, laws[laws[i].parent].text if laws[i].parent in laws else None)
                          for i in ids])
    game = [laws[i].game for i in ids]
    code = np.unique([laws[i].code_id for i in ids], return_inverse=True)[1]
    rule = np.array([laws[i].kind != "reference" for i in ids])
    shared = tagged @ tagged.T > 0
    same_remedy = shared & (answered @ answered.T > 0)  # a remedy tag implies its situation
    unlike = words @ words.T < WORDS
    bonus = (SHARED * shared + REMEDY * same_remedy - APART * (~shared & has[:, None] & has[None, :])
             - UNLIKE * unlike)
    scores = matrix @ matrix.T + bonus.astype(np.float32)
    if asked:
        questions = np.stack([asked.get(i, np.zeros(matrix.shape[1], dtype=np.float32)) for i in ids]).astype(np.float32)
        scores += ASKED * (questions @ questions.T)
    scores = np.where(rule[None, :] & (code[:, None] != code[None, :]), scores, -np.inf)
    rows = []
    for i, law_id in enumerate(ids):
        for j in _best(scores[i], top):
            if np.isfinite(scores[i, j]) and scores[i, j] >= SHOWN:
                kind = "other-game" if game[j] != game[i] else "other-code"
                rows.append(Parallel(law_id, ids[j], float(scores[i, j]), kind, PARALLELS_METHOD))
    return rows


def _best(row: np.ndarray, top: int) -> np.ndarray:
    """The indexes of the ``top`` highest values of ``row``, highest first, ties in index order (as
    ``np.argsort(-row, kind="stable")[:top]``, without sorting the whole row)."""
    if len(row) <= top:
        return np.argsort(-row, kind="stable")
    floor = np.partition(row, len(row) - top)[len(row) - top]  # the top-th highest value
    near = np.flatnonzero(row >= floor)  # every index at or above it, ties at the floor included
    return near[np.argsort(-row[near], kind="stable")][:top]


def with_context(text: str, parent_text: str | None) -> str:
    """The words a law is compared by: its text, and for a clause ("(h) To call the attention of
    the declarer to an established adverse revoke;") the text of the law that lists it too."""
    return f"{parent_text} {text}" if parent_text else text


def word_vectors(texts: list[str]) -> np.ndarray:
    """One row per text: the tf-idf vector of its stemmed words (accents folded), unit length, with
    term weight (1 + log tf) · log(N / df) over ``texts``; a word every text has weighs nothing, so no
    list of common words is needed."""
    docs = [[stem(w) for w in letter_words(t)] for t in texts]
    vocab = {w: k for k, w in enumerate(sorted({w for d in docs for w in d}))}
    out = np.zeros((len(docs), len(vocab)), dtype=np.float32)
    for row, d in enumerate(docs):
        for w in d:
            out[row, vocab[w]] += 1
    df = (out > 0).sum(axis=0)
    out = np.where(out > 0, 1 + np.log(np.maximum(out, 1)), 0) * np.log(len(docs) / np.maximum(df, 1))
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return (out / np.where(norms > 0, norms, 1)).astype(np.float32)


def _listed_up(tags: dict[str, set], laws: dict[str, Law]) -> dict[str, set]:
    """``tags`` by law id, each law also holding those of the cases (clauses) it lists."""
    out: dict[str, set] = {}
    for law_id, values in tags.items():
        while law_id in laws:
            out.setdefault(law_id, set()).update(values)
            law_id = laws[law_id].parent
    return out
