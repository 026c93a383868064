"""Aside: a build's work that needs no vectors, done in a second process while this one computes them.

The sentence vectors keep this process's two threads busy for most of a new database's build
(:mod:`.vectors`), and tagging the laws and reading the English word table are single-threaded
Python beside them. A thread could not take them on (spaCy's matcher holds the interpreter lock,
and the vectors' threads need it between their products: 0.6 s saved of 28.7), nor a process
started afresh (its imports and its own tagger cost what it saved). A process **forked** before the
vectors are computed inherits the read laws and the loaded tagger and starts at once.

:class:`Aside` runs a function of no arguments in such a process and hands back its value (pickled
through a pipe) or raises its exception. Where the system cannot fork, or there is one processor, the
function runs here when the Aside is made. When the second process dies without an answer (killed,
out of memory), the function runs again here: nothing is lost, it only takes longer.

A fork copies only the thread that forks, so the function must not need a lock another thread of
this process might hold: the build forks before its vector threads start, and the second process
tags, reads files and opens its own SQLite connections, nothing more. It also inherits the build
lock's open file (:mod:`.lock`): when the first process dies (killed), the second is sent SIGTERM
(Linux's parent-death signal) and the lock is released with it; where that signal is not to be
had, the second ends once its work is done, its answer finding the pipe closed.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Generic, TypeVar

from ..embed import processors

T = TypeVar("T")


def can_fork() -> bool:
    """Whether an :class:`Aside` runs in a second process here: the system forks, and this
    process may run on more than one processor."""
    return "fork" in multiprocessing.get_all_start_methods() and processors() > 1


class SecondProcessTraceback(Exception):
    """The traceback of an exception raised in the second process (its ``__cause__`` here)."""

    def __str__(self) -> str:
        return "\n" + self.args[0]


def _stop_with(parent: int) -> None:
    """End this process when the first one ends, however it ends (Linux: the parent-death signal),
    so a killed build's second process does not hold its lock; elsewhere the closed pipe ends it."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the first process ended before the signal was asked for
        os._exit(1)


def _run(work: Callable[[], T], conn: Connection, theirs: Connection, parent: int) -> None:
    """In the second process: send ``(True, value, None)`` or ``(False, exception, traceback)``.
    Ctrl-C is left to the first process, which stops this one (no second traceback on the
    terminal). The first process's end of the pipe, inherited by the fork, is closed at once: when
    the first process dies, sending then fails instead of waiting for a reader that never comes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    theirs.close()
    _stop_with(parent)
    try:
        answer: tuple[bool, object, str | None] = (True, work(), None)
    except Exception as e:  # noqa: BLE001 - handed to the first process, which raises it
        answer = (False, e, traceback.format_exc())
    try:
        try:
            conn.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as e:  # an exception (or value) that cannot be pickled
            conn.send((False, RuntimeError(f"the build's second process failed: {answer[1]!r} ({e})"), answer[2]))
    except OSError:  # the first process is gone (BrokenPipeError): nobody to answer
        pass
    conn.close()


class Aside(Generic[T]):
    """``work()`` run beside this process (see the module's text). Use as a context manager, so a
    build that fails before asking for the value does not leave the second process running.

    ``forked`` says whether a second process runs it."""

    def __init__(self, work: Callable[[], T]) -> None:
        self.work = work
        self.forked = can_fork()
        self._done = False
        self._value: T | None = None
        if not self.forked:
            self._value, self._done = work(), True
            return
        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe(duplex=False)
        self._process = context.Process(target=_run, args=(work, child, self._conn, os.getpid()),
                                        name="cardlaws-build-aside", daemon=True)
        self._process.start()
        child.close()

    def ready(self, within: float = 0.0) -> bool:
        """Whether :meth:`result` would answer at once, waiting up to ``within`` seconds for it."""
        return self._done or self._conn.poll(within)

    def result(self) -> T:
        """The value of ``work()``; raises what ``work()`` raised."""
        if self._done:
            return self._value  # type: ignore[return-value]
        trace = None
        try:
            ok, value, trace = self._conn.recv()
            self._process.join(timeout=10)  # it exits once it has answered
        except (EOFError, OSError):  # the second process died without an answer: do the work here
            ok, value = True, self.work()
        finally:
            self.close()
        if not ok:
            raise value from (SecondProcessTraceback(trace) if trace else None)  # type: ignore[misc]
        self._value = value
        return value  # type: ignore[return-value]

    def close(self) -> None:
        """Stop the second process if it still runs, and reap it."""
        if not self.forked or self._done:
            return
        self._conn.close()
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._process.close()
        self._done = True

    def __enter__(self) -> Aside[T]:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
