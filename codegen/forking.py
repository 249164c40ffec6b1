"""One piece of work run in a forked child while the caller does another (two cores, one spec).

Phase: orchestration (``pipeline.render_draft``: the backends of one large spec).
Inputs: a function without arguments whose result pickles (rendered text, small facts);
it runs in a ``fork`` of the caller, so it sees the caller's objects (the IR) through
copy-on-write pages, never pickled.
Outputs: ``Forked(work).result()``: what ``work()`` returns.
Guarantees: the result is what ``work()`` would return in the caller, and a failure is
the caller's own: when the child fails in any way (an exception, a crash, a kill), the
work is run again in the caller, which raises what the sequential path raises or
returns what it returns.  ``fork_pays()`` says when to fork at all: ``fork`` exists,
this process may use a second core, no other thread is alive (a fork copies only the
calling thread; a lock held elsewhere would stay held in the child), and the process is
not itself a worker of a pool (``codegen generate`` drafts specs in parallel already; a
fork there would oversubscribe the cores).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Forked", "fork_pays", "spare_cores"]

T = TypeVar("T")


def spare_cores() -> int:
    """The cores this process may use beyond the one it runs on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(0, cores - 1)


def fork_pays() -> bool:
    """Whether forking here is safe and may make the work faster (see the module
    docstring)."""
    return (
        hasattr(os, "fork")
        and "fork" in multiprocessing.get_all_start_methods()
        and spare_cores() > 0
        and threading.active_count() == 1
        and multiprocessing.parent_process() is None
    )


class Forked(Generic[T]):
    """``work()`` started in a forked child; ``result()`` waits for it."""

    def __init__(self, work: Callable[[], T]) -> None:
        self._work = work
        self._pid = 0
        self._read = -1
        read, write = os.pipe()
        sys.stdout.flush()  # nothing buffered twice (the child never flushes: _exit)
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns into the caller's code
            status = 1
            try:
                os.close(read)
                data = pickle.dumps(work(), pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write, "wb") as out:
                    out.write(data)
                status = 0
            except BaseException:  # noqa: BLE001 - the caller runs the work again
                status = 1
            finally:
                os._exit(status)
        os.close(write)
        self._pid, self._read = pid, read

    @property
    def forked(self) -> bool:
        """Whether a child is (or was) running the work, not yet reaped."""
        return self._pid != 0

    def result(self) -> T:
        """The work's result: the child's, or, if it failed, the caller's own run."""
        try:
            with os.fdopen(self._read, "rb") as source:
                self._read = -1  # closed with ``source``
                data = source.read()
            _, status = os.waitpid(self._pid, 0)
        except BaseException:  # interrupted while waiting: leave no child behind
            self.cancel()
            raise
        self._pid = 0
        if os.waitstatus_to_exitcode(status) == 0:
            try:
                value: T = pickle.loads(data)
                return value
            except Exception:  # noqa: BLE001, S110 - a torn payload: run it here
                pass
        return self._work()

    def cancel(self) -> None:
        """Stop the child (the caller failed and will not ask for the result)."""
        if self._read >= 0:
            os.close(self._read)
            self._read = -1
        if self._pid:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self._pid, 0)
            self._pid = 0
