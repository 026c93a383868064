"""The build from the command line: bad input gets a clear error naming the file, exit status 1,
and the previous database is left untouched; good builds are deterministic with stable ids."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.cli import main
from ingest.paths import SEEDS

GOOD_SIDECAR = 'title = "A small code"\ngame = "whist"\n'
GOOD_TEXT = "1. The dealer deals.\n2. The elder hand leads.\n"


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)))


@pytest.fixture
def previous_db(tmp_path, write_source):
    """A good database built first, whose bytes a failed build must not change."""
    corpus = tmp_path / "good"
    write_source(corpus, "small", GOOD_TEXT, GOOD_SIDECAR)
    db = tmp_path / "out.db"
    result = run("build", "--corpus", corpus, "--db", db)
    assert result.exit_code == 0, result.output
    return db, hashlib.sha256(db.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    "name, text, sidecar, message",
    [
        ("empty", b"", GOOD_SIDECAR, r"empty\.txt: empty file"),
        ("binary", b"1. A law.\n\x00\xff\xfe", GOOD_SIDECAR, r"binary\.txt:2: binary file"),
        ("nosidecar", GOOD_TEXT, None, r"nosidecar\.txt: no sidecar"),
        ("badtoml", GOOD_TEXT, 'title = "x\ngame = "whist"\n', r"badtoml\.toml: malformed TOML"),
        ("unknownkey", GOOD_TEXT, GOOD_SIDECAR + 'colour = "red"\n', r"unknownkey\.toml: unknown key 'colour'"),
        ("notitle", GOOD_TEXT, 'game = "whist"\n', r"notitle\.toml: field 'title' is required"),
        ("badyear", GOOD_TEXT, GOOD_SIDECAR + 'year = "1909"\n', r"badyear\.toml: field 'year' must be int"),
        ("badgame", GOOD_TEXT, 'title = "x"\ngame = "Écarté"\n', r"badgame\.toml: field 'game' = 'Écarté' is not a game slug"),
        ("unknowngame", GOOD_TEXT, 'title = "x"\ngame = "snap"\n', r"unknowngame\.toml: game 'snap' is not in"),
        ("bothgames", GOOD_TEXT, GOOD_SIDECAR + '[[sections]]\ngame = "whist"\nstart_line = 1\nend_line = 2\n',
         r"bothgames\.toml: give either 'game'"),
        ("outside", GOOD_TEXT, 'title = "x"\n[[sections]]\ngame = "whist"\nstart_line = 1\nend_line = 9\n',
         r"outside\.toml: sections\[1\] lines 1–9 fall outside the file \(2 lines\)"),
        ("badurl", GOOD_TEXT, GOOD_SIDECAR + 'url = "javascript:alert(1)"\n', r"badurl\.toml: field 'url' must be an http"),
        ("bigyear", GOOD_TEXT, GOOD_SIDECAR + 'year = 99999999999999\n', r"bigyear\.toml: field 'year' = 99999999999999 is not a year"),
        ("badmarker", GOOD_TEXT, GOOD_SIDECAR + 'page_marker = "(N)"\n', r"badmarker\.toml: field 'page_marker'"),
        ("nolaws", "Just a paragraph of prose about whist.\n", GOOD_SIDECAR, r"nolaws\.txt:1: no numbered laws found"),
    ],
)
def test_bad_input_names_the_file_and_leaves_the_database(tmp_path, previous_db, name, text, sidecar, message, write_source):
    db, digest = previous_db
    corpus = tmp_path / "bad"
    write_source(corpus, "fine", GOOD_TEXT, GOOD_SIDECAR)
    write_source(corpus, name, text, sidecar)
    result = run("build", "--corpus", corpus, "--db", db)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    import re

    assert re.search(message, result.stderr), result.stderr
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    assert not list(db.parent.glob(".out.db.building-*"))


def test_missing_corpus_folder_is_a_user_error(tmp_path):
    result = run("build", "--corpus", tmp_path / "nowhere", "--db", tmp_path / "x.db")
    assert result.exit_code == 1 and "corpus folder not found" in result.stderr


def test_bad_usage_exits_2():
    assert run("build", "--no-such-option").exit_code == 2


def test_latin1_text_is_read_correctly(tmp_path, write_source):
    corpus = tmp_path / "latin1"
    write_source(corpus, "ecarte", "1. L'écarté se joue à deux.\n2. Le donneur coupe.\n".encode("latin-1"),
                 'title = "Écarté"\ngame = "ecarte"\n')
    db = tmp_path / "l.db"
    assert run("build", "--corpus", corpus, "--db", db).exit_code == 0
    text = sqlite3.connect(db).execute("select text from laws where id = 'ecarte/ecarte/1'").fetchone()[0]
    assert text == "L'écarté se joue à deux."


@pytest.mark.parametrize("key", ["codes", "sections"])
def test_codes_in_a_sidecar_get_their_own_ids(tmp_path, write_source, key):
    corpus = tmp_path / "book"
    text = "PREFACE\n\n1. Laws of whist.\n2. More whist.\n\nPOKER\n1. Ante up.\n2. Deal five.\n"
    sidecar = ('title = "A book"\n'
               f'[[{key}]]\ngame = "whist"\nstart_line = 3\nend_line = 4\n'
               f'[[{key}]]\ngame = "poker"\ntitle = "Poker"\nstart_line = 7\nend_line = 8\n')
    write_source(corpus, "book", text, sidecar)
    db = tmp_path / "b.db"
    result = run("build", "--corpus", corpus, "--db", db)
    assert result.exit_code == 0, result.output
    rows = sqlite3.connect(db).execute("select id, line_start from laws order by ordinal").fetchall()
    assert rows == [("book/whist/1", 3), ("book/whist/2", 4), ("book/poker/1", 7), ("book/poker/2", 8)]
    # the old name of [[codes]] is still read, with a warning naming the file
    deprecated = "book.toml: [[sections]] is deprecated; call the tables [[codes]]"
    assert (deprecated in result.stderr) == (key == "sections")


def _dump(db):
    conn = sqlite3.connect(db)
    tables = [r[0] for r in conn.execute("select name from sqlite_master where type='table' order by name")]
    return {t: conn.execute(f"select * from [{t}] order by 1, 2").fetchall() for t in tables}


def test_build_is_deterministic_and_ids_are_stable(tmp_path, seed_db):
    again = tmp_path / "again.db"
    assert run("build", "--corpus", SEEDS, "--db", again).exit_code == 0
    assert _dump(again) == _dump(seed_db)


def test_show_prints_citation_and_provenance(seed_db):
    result = run("show", "002_acea09cb2742a4b7/ecarte/31", "--db", seed_db)
    assert result.exit_code == 0
    out = result.output
    assert out.splitlines()[0] == "Écarté law 31 (Hoffmann 1909)"
    assert "31. If the dealer give his adversary more cards than he has asked for" in out
    assert "Cite as:  Écarté law 31, Laws of Écarté, in Hoyle's Games Modernized: Laws of Écarté (excerpt), Professor Hoffmann, 1909" in out
    assert "Source:   002_acea09cb2742a4b7.txt, lines 1–2" in out
    page = run("show", "004_6dbc7a77bd2684ce/poker/14", "--db", seed_db).output
    assert "Poker law 14 (Baxter-Wray 1891)" in page and "pp. 48–49" in page


def test_show_unknown_law_suggests_close_ids(seed_db):
    result = run("show", "002_acea09cb2742a4b7/ecarte/3", "--db", seed_db)
    assert result.exit_code == 1
    assert "no law with id" in result.stderr and "did you mean 002_acea09cb2742a4b7/ecarte/3" in result.stderr


def test_show_without_database(tmp_path):
    result = run("show", "x", "--db", tmp_path / "none.db")
    assert result.exit_code == 1 and "run 'cardlaws build --db" in result.stderr


def test_help_explains_each_command():
    for cmd in ("build", "serve", "show"):
        result = run(cmd, "--help")
        assert result.exit_code == 0 and "--db" in result.output


def test_a_rebuild_with_nothing_changed_never_loads_spacy_and_gives_the_same_database(tmp_path, seed_db):
    """Every law's tagging is kept from the previous database, so the taggers (and spaCy, 1.8 s of
    a 5 s rebuild) are not loaded; the database is the same as the first build's."""
    import shutil
    import subprocess
    import sys

    db = tmp_path / "again.db"
    shutil.copy(seed_db, db)
    code = ("import sys; from pathlib import Path; from ingest.build.pipeline import build; "
            f"r = build([Path({str(SEEDS)!r})], Path({str(db)!r})); "
            "print(r.tagged, r.embedded, r.citations_kept, 'spacy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "0", "True", "False"]
    assert _dump(db) == _dump(seed_db)


def test_the_tagging_fingerprint_follows_the_vocabulary_tagging_reads(tmp_path):
    """Editing a modern word (search_terms.toml), a game's name (games.toml) or a comment re-tags
    no law; a new phrase for an entity does; a missing tagging file is named."""
    import shutil

    from ingest import vocabulary
    from ingest.build.tagging import fingerprint

    def copy(name):
        folder = tmp_path / name
        shutil.copytree(Path(vocabulary.__file__).parent, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
        return folder

    def append(path, text):
        with open(path, "a", encoding="utf-8") as f:
            f.write(text)

    before = fingerprint(copy("as-is"))
    query_side = copy("query-side")
    append(query_side / "search_terms.toml", '"tabled" = ["laid on the table"]\n')
    append(query_side / "games.toml", "\n# a comment\n")
    append(query_side / "entities.toml", "\n# a comment\n")
    assert fingerprint(query_side) == before
    entity = copy("entity")
    text = (entity / "entities.toml").read_text(encoding="utf-8")
    assert '  "revoke", "renounce",' in text  # the revoke entity's phrases, as the file writes them
    (entity / "entities.toml").write_text(text.replace('  "revoke", "renounce",', '  "revoke", "renegue", "renounce",', 1),
                                          encoding="utf-8")
    assert fingerprint(entity) != before
    missing = copy("missing")
    (missing / "lemmas.toml").unlink()
    with pytest.raises(vocabulary.VocabularyError, match="lemmas.toml: cannot be read"):
        fingerprint(missing)


def test_citations_are_resolved_again_when_a_law_changes(tmp_path, write_source):
    """A rebuild keeps the citations only while the laws are the same: when law 3 comes to cite
    law 2 instead of law 1, the rebuild resolves them again, and its database is the one a first
    build of the changed text makes."""
    corpus, db, fresh = tmp_path / "corpus", tmp_path / "out.db", tmp_path / "fresh.db"
    text = "1. The dealer deals.\n2. The elder hand leads.\n3. A card dealt as in Law {n} stands.\n"
    write_source(corpus, "small", text.format(n=1), GOOD_SIDECAR)
    assert run("build", "--corpus", corpus, "--db", db).exit_code == 0
    again = run("build", "--corpus", corpus, "--db", db)
    assert "citations kept from the previous build" in again.stderr

    def cited(path):
        return sqlite3.connect(path).execute("select law_id, target_id, text from cross_references").fetchall()

    assert cited(db) == [("small/whist/3", "small/whist/1", "Law 1")]
    write_source(corpus, "small", text.format(n=2), GOOD_SIDECAR)
    changed = run("build", "--corpus", corpus, "--db", db)
    assert changed.exit_code == 0 and "citations resolved" in changed.stderr
    assert cited(db) == [("small/whist/3", "small/whist/2", "Law 2")]
    assert run("build", "--corpus", corpus, "--db", fresh).exit_code == 0
    # the vectors aside: law 3's, computed alone, differs in its last bits from one computed in a batch
    assert {**_dump(db), "law_embeddings": None} == {**_dump(fresh), "law_embeddings": None}


def test_a_damaged_tagging_row_is_tagged_again_and_a_killed_build_s_file_removed(tmp_path, write_source):
    """A rebuild reads each law's tagging back from the previous database: a row that does not
    read back (damaged by hand) is tagged again, not a crash. A killed build leaves its temporary
    file beside the database; the next build (holding the lock, so no other is writing) removes it."""
    corpus, db = tmp_path / "corpus", tmp_path / "out.db"
    write_source(corpus, "small", GOOD_TEXT, GOOD_SIDECAR)
    assert run("build", "--corpus", corpus, "--db", db).exit_code == 0
    conn = sqlite3.connect(db)
    first = conn.execute("select key, mentions from law_tagging order by key").fetchall()
    conn.execute("update law_tagging set mentions = '{not json' where key = ?", [first[0][0]])
    conn.commit()
    conn.close()
    stale = tmp_path / ".out.db.building-999999"
    stale.write_bytes(b"half a database")
    again = run("build", "--corpus", corpus, "--db", db)
    assert again.exit_code == 0, again.output
    assert "1 laws' tagging kept from the previous build, 1 tagged" in again.stderr
    assert sqlite3.connect(db).execute("select key, mentions from law_tagging order by key").fetchall() == first
    assert not stale.exists()
