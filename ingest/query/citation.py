"""Citation strings for a law, as a referee would write them in a ruling.

Short form: ``Écarté law 31 (Hoffmann 1909)``. Full form: ``Écarté law 31, in Hoyle's Games
Modernized: Laws of Écarté (excerpt), Professor Hoffmann, 1909, p. 58``. A clause is cited
under its law (``Bridge law 39 (V)``), or alone when its law is not in the text
(``Bridge clause V``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping


def _label(law: Mapping, parent_number: str | None, game_name: str) -> str:
    if law["kind"] == "clause":
        if parent_number:
            return f"{game_name} law {parent_number} ({law['number']})"
        return f"{game_name} clause {law['number']}"
    return f"{game_name} law {law['number']}"


def pages(law: Mapping) -> str | None:
    """``p. 48``, ``pp. 48–49``, or ``None`` when the source prints no pages."""
    start, end = law.get("page_start"), law.get("page_end")
    if start is None:
        return None
    return f"p. {start}" if end in (None, start) else f"pp. {start}–{end}"


def short_citation(law: Mapping, source: Mapping, game_name: str, parent_number: str | None = None) -> str:
    """``Écarté law 31 (Hoffmann 1909)``: the author's last name, or for an anonymous book its
    title up to any colon (``Whist law iv (Enquire Within Upon Everything 1894)``)."""
    if source.get("author"):
        who = source["author"].split("(")[0].strip().split()[-1]
    else:
        who = source["title"].split(":")[0].split("(")[0].strip()
    when = f" {source['year']}" if source.get("year") else ""
    return f"{_label(law, parent_number, game_name)} ({who}{when})"


def full_citation(law: Mapping, source: Mapping, game_name: str, parent_number: str | None = None,
                  code_title: str | None = None) -> str:
    """Law, code, book, author, edition, year and page, e.g. for ``cardlaws show``:
    ``Écarté law 31, The Laws of Écarté (the Club Code), in Hoyle's Games Modernized, Professor
    Hoffmann, New edition …, 1909``."""
    label = _label(law, parent_number, game_name)
    parts = [f"{label}, {code_title}, in {source['title']}" if code_title else f"{label}, in {source['title']}"]
    if source.get("author"):
        parts.append(source["author"])
    if source.get("edition"):
        parts.append(source["edition"])
    if source.get("year"):
        parts.append(str(source["year"]))
    if pages(law):
        parts.append(pages(law))
    return ", ".join(parts)


def _key(source: Mapping) -> str:
    who = (source.get("author") or source["title"]).split("(")[0].strip().split()[-1]
    return re.sub(r"[^A-Za-z0-9]", "", f"{who}{source.get('year') or ''}") or "source"


def csl_json(law: Mapping, source: Mapping, game_name: str, parent_number: str | None = None) -> dict:
    """The source as a CSL-JSON item (a book), with the law as its ``locator``."""
    item = {
        "id": _key(source), "type": "book", "title": source["title"],
        "locator": _label(law, parent_number, game_name), "label": "section",
    }
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


def bibtex(law: Mapping, source: Mapping, game_name: str, parent_number: str | None = None) -> str:
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
    fields.append(("note", _label(law, parent_number, game_name)))
    body = ",\n".join(f"  {k} = {{{esc(v) if k != 'author' else v}}}" for k, v in fields)
    return f"@book{{{_key(source)},\n{body}\n}}"
