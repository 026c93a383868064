"""Citation strings for a law, as a referee would write them in a ruling (shared: the build
chooses each law's short citation, the query side formats the rest).

A law is named by :func:`law_label`: ``Écarté law 31``; a clause under its law, ``Bridge law 39
(V)``, ``Duplicate Whist law III (2) (a)``; a law printed without a number by its paragraph,
``Bridge ¶ 37``; an etiquette rule, ``Whist etiquette 3``; a range entry, ``Auction Bridge laws 5
to 10``. The short citation adds the shortest name of the book (and, where the book has several
codes of the game, of the code) that makes it unique: ``Écarté law 31 (Hoffmann 1909)``,
``Whist law 3 (Hoffmann 1909, Dummy)``. The full citation names the law, the code with its
authority and year, the book, its author and year, and the pages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping


def law_path(law_id: str) -> list[str]:
    """The numbers of a law and its clauses from its id: ``…/bridge/39/V`` → ``["39", "V"]``."""
    return law_id.split("/", 2)[2].split("/") if law_id.count("/") >= 2 else [law_id]


def law_label(kind: str, law_id: str, game_name: str, numbered: bool = True) -> str:
    """How a law is named in lists and citations (module docstring); ``law_id`` gives its number
    and its clauses' (a duplicated number's ``~2`` is not printed)."""
    path = [re.sub(r"~\d+$", "", p) for p in law_path(law_id)]
    head, clauses = path[0], "".join(f" ({p})" for p in path[1:])
    if kind == "reference" and "-to-" in head:
        return f"{game_name} laws {head.replace('-to-', ' to ')}"
    if kind == "etiquette" and numbered:
        return f"{game_name} etiquette {head}{clauses}"
    if not numbered:
        return f"{game_name} ¶ {head}{clauses}"
    return f"{game_name} law {head}{clauses}"


def who(source: Mapping) -> str:
    """A book as a citation names it: its author's last name and its year (``Hoffmann 1909``), or
    for an anonymous book its title up to any colon (``Enquire Within Upon Everything 1894``)."""
    if source.get("author"):
        name = source["author"].split("(")[0].strip().split()[-1]
    else:
        name = source["title"].split(":")[0].split("(")[0].strip()
    return f"{name} {source['year']}" if source.get("year") else name


def short_candidates(label: str, source: Mapping, code_names: list[str]) -> list[str]:
    """Short citations for a law, from the shortest: the book alone, then the book with each name
    of the code (its aliases, then its title)."""
    book = who(source)
    return [f"{label} ({book})"] + [f"{label} ({book}, {name})" for name in code_names]


def pages(law: Mapping) -> str | None:
    """``p. 48``, ``pp. 48–49``, or ``None`` when the source prints no pages."""
    start, end = law.get("page_start"), law.get("page_end")
    if start is None:
        return None
    return f"p. {start}" if end in (None, start) else f"pp. {start}–{end}"


def full_citation(label: str, law: Mapping, source: Mapping, code: Mapping | None) -> str:
    """The law, its code with the code's authority and year, the book, its author and year, and the
    pages: ``Bridge law 42, The Laws of Bridge (1904) (a joint committee of the Portland and Turf
    Clubs, 1904), in Hoyle's Games Modernized, Professor Hoffmann, 1909, p. 236``."""
    parts = [label]
    if code:
        made = ", ".join(str(x) for x in (code.get("authority"), code.get("year")) if x)
        parts.append(f"{code['title']} ({made})" if made else code["title"])
    parts.append(f"in {source['title']}")
    parts += [str(x) for x in (source.get("author"), source.get("year"), pages(law)) if x]
    return ", ".join(parts)


def _key(source: Mapping) -> str:
    name = (source.get("author") or source["title"]).split("(")[0].strip().split()[-1]
    return re.sub(r"[^A-Za-z0-9]", "", f"{name}{source.get('year') or ''}") or "source"


def csl_json(label: str, law: Mapping, source: Mapping) -> dict:
    """The source as a CSL-JSON item (a book), with the law as its ``locator``."""
    item = {"id": _key(source), "type": "book", "title": source["title"], "locator": label, "label": "section"}
    if source.get("author"):
        item["author"] = [{"literal": source["author"]}]
    if source.get("year"):
        item["issued"] = {"date-parts": [[int(source["year"])]]}
    if source.get("edition"):
        item["edition"] = source["edition"]
    if source.get("url"):
        item["URL"] = source["url"]
    if pages(law):
        item["page"] = pages(law).split(" ", 1)[1]
    return item


def bibtex(label: str, law: Mapping, source: Mapping) -> str:
    """The source as a BibTeX ``@book`` entry, the law in its ``note``."""

    def esc(s: str) -> str:
        return s.replace("\\", "\\textbackslash{}").replace("{", "\\{").replace("}", "\\}").replace("&", "\\&")

    fields = [("title", source["title"])]
    if source.get("author"):
        fields.append(("author", "{" + source["author"] + "}"))
    if source.get("year"):
        fields.append(("year", str(source["year"])))
    if source.get("edition"):
        fields.append(("edition", source["edition"]))
    if source.get("url"):
        fields.append(("url", source["url"]))
    if pages(law):
        fields.append(("pages", pages(law).split(" ", 1)[1].replace("–", "--")))
    fields.append(("note", label))
    body = ",\n".join(f"  {k} = {{{esc(v) if k != 'author' else v}}}" for k, v in fields)
    return f"@book{{{_key(source)},\n{body}\n}}"
