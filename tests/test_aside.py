"""The build's second process (ingest.build.aside): what it computes comes back whole, its errors
are raised here with their message, a second process that dies costs time but loses nothing, and a
build that does its tagging and citing beside the vectors writes what one that does them in turn
writes."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from ingest.build.aside import Aside, SecondProcessTraceback, can_fork
from ingest.build.pipeline import build
from ingest.models import CorpusError
from ingest.paths import SEEDS

pytestmark = pytest.mark.skipif(not can_fork(), reason="this system cannot fork, or has one processor")


def test_the_work_is_done_in_a_second_process_and_its_value_comes_back():
    here = os.getpid()
    with Aside(lambda: (os.getpid(), list(range(100_000)))) as aside:
        pid, numbers = aside.result()
    assert pid != here
    assert numbers == list(range(100_000))


def test_an_error_of_the_work_is_raised_here_with_its_message():
    def work():
        raise CorpusError("vocabulary/situations.toml: 'revoke', cue '...': empty phrase")

    with Aside(work) as aside, pytest.raises(CorpusError, match="situations.toml: 'revoke'"):
        aside.result()


def test_a_value_that_cannot_be_sent_back_is_an_error_naming_it():
    with Aside(lambda: (lambda: 1)) as aside, pytest.raises(RuntimeError, match="second process failed: <function"):
        aside.result()


def test_when_the_second_process_dies_the_work_is_done_here():
    here = os.getpid()

    def work():
        if os.getpid() != here:
            os._exit(3)  # killed before it answers
        return "done here"

    with Aside(work) as aside:
        assert aside.result() == "done here"


def test_the_second_process_leaves_ctrl_c_to_the_first():
    """Ctrl-C reaches every process of the terminal's group; the second one ignores it (the first
    stops it), so it neither dies with a traceback nor makes the first do its work again."""
    import signal

    def work():
        time.sleep(1.5)
        return os.getpid()

    with Aside(work) as aside:
        second = aside._process.pid
        time.sleep(0.5)
        os.kill(second, signal.SIGINT)
        assert aside.result() == second  # answered by the second process, not done again here


def test_leaving_before_the_answer_stops_the_second_process():
    with Aside(lambda: time.sleep(60)) as aside:
        process = aside._process
        assert process.is_alive()
        start = time.monotonic()
    assert time.monotonic() - start < 10
    with pytest.raises(ValueError, match="closed"):  # reaped and closed: nothing left running
        process.is_alive()


def test_a_build_beside_the_vectors_writes_what_a_build_in_turn_writes(books_db, tagger, shared_corpus, tmp_path):
    """books_db is built with vectors, so its tagging, English word probabilities and citations came
    from the second process; built without vectors, the same books have them computed in this one,
    in turn."""
    from ingest.build.catalog import load_catalog
    from ingest.build.fetch import fetch_books

    fetch_books(load_catalog(), tmp_path / "cache", mirror=shared_corpus)
    in_turn = tmp_path / "in-turn.db"
    build([SEEDS], in_turn, tagger=tagger, cache=tmp_path / "cache", embed=False,
          annotations_dir=SEEDS.parent / "annotations", questions_dir=SEEDS.parent / "questions")
    queries = {
        "laws": "select id, citation, note from laws order by id",
        "law_tagging": "select * from law_tagging order by key",
        "law_entities": "select * from law_entities order by law_id, start, entity_id",
        "book_words": "select * from book_words order by stem",
        "cross_references": "select * from cross_references order by law_id, start, target_id",
        "ruling_citations": "select * from ruling_citations order by 1, 2, 3",
    }
    for table, sql in queries.items():
        beside = sqlite3.connect(books_db.db_path).execute(sql).fetchall()
        assert beside, table
        assert beside == sqlite3.connect(in_turn).execute(sql).fetchall(), table


def test_ctrl_c_during_a_build_stops_both_processes_quietly(shared_corpus, tmp_path):
    """Ctrl-C reaches the whole foreground process group: the build stops with one short message
    and no traceback, no database written, and no process of the build left."""
    import signal
    import subprocess
    import sys

    from ingest.build.catalog import load_catalog
    from ingest.build.fetch import fetch_books

    fetch_books(load_catalog(), tmp_path / "cache", mirror=shared_corpus)
    db = tmp_path / "new.db"
    # Python's own Ctrl-C handler, even where this process was started with Ctrl-C ignored (a background job)
    command = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
               "from ingest.cli import main; sys.argv[0] = 'cardlaws'; main()")
    build = subprocess.Popen([sys.executable, "-c", command, "build", "--db", str(db), "--cache", str(tmp_path / "cache")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    output = []
    for line in build.stdout:  # the vectors have begun: the second process is tagging the laws
        output.append(line)
        if line.startswith("Embedding laws"):
            break
    os.killpg(build.pid, signal.SIGINT)
    rest, _ = build.communicate(timeout=60)
    output.append(rest)
    assert build.returncode != 0
    assert "Traceback" not in "".join(output)
    assert not db.exists()
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):
        os.killpg(build.pid, 0)  # no process of the build's group is left


def test_an_error_in_the_second_process_keeps_its_traceback():
    def tag_the_laws():
        raise ValueError("a damaged row")

    with Aside(tag_the_laws) as aside, pytest.raises(ValueError, match="a damaged row") as raised:
        aside.result()
    assert isinstance(raised.value.__cause__, SecondProcessTraceback)
    assert "in tag_the_laws" in str(raised.value.__cause__)


def test_a_killed_build_s_second_process_ends_too(tmp_path):
    """The first process killed (SIGKILL, no clean-up) while the second still works: the second
    ends as well, instead of waiting for ever to send its answer (more than a pipe holds) to nobody,
    holding the build lock's file."""
    import subprocess
    import sys

    script = (
        "import os, signal, sys, time\n"
        "from ingest.build.aside import Aside\n"
        "aside = Aside(lambda: (time.sleep(2), b'x' * 1_000_000))\n"
        "open(sys.argv[1], 'w').write(str(aside._process.pid))\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    pid_file = tmp_path / "second.pid"  # not a pipe: the second process would hold it open
    subprocess.run([sys.executable, "-c", script, str(pid_file)], stdout=subprocess.DEVNULL, check=False, timeout=60)
    second = int(pid_file.read_text())
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{second}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            break  # ended and reaped
        if state == "Z":
            break  # ended, its parent (init) not yet reaping it
        time.sleep(0.2)
    else:
        os.kill(second, 9)
        raise AssertionError(f"the second process {second} outlived the first by 15 s")
