"""Eager tasks: a coroutine runs up to its first wait before ``start`` returns.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: coroutines (a handler's answer, a notification's handling).
Outputs: ``TaskStarter``, whose ``start`` returns the task running the rest of a
coroutine, or None when it finished in its first step.
Guarantees: what Python 3.12's eager tasks guarantee (the current task, a context of its
own per coroutine, cancellation at any step), at the cost of a task only for a coroutine
that does wait; relies on asyncio's ``_enter_task``/``_leave_task`` hooks, which
asyncio's own eager start uses.
"""

from __future__ import annotations

import asyncio
import contextvars
import types
from collections.abc import Callable, Coroutine, Generator
from typing import Any, TypeVar

_T = TypeVar("_T")

_TASKS: Any = asyncio.tasks  # the hooks asyncio's own eager start uses
_ENTER: Callable[[asyncio.AbstractEventLoop, asyncio.Task[Any]], None] = (
    _TASKS._enter_task
)
_LEAVE: Callable[[asyncio.AbstractEventLoop, asyncio.Task[Any]], None] = (
    _TASKS._leave_task
)
# The current task of a loop, at C speed: Python 3.11's ``current_task`` is a Python
# function reading the dict that the C ``_enter_task`` writes (so the dict's own
# ``get`` answers the same); later versions' is C already (and may keep no dict).
_CURRENT: Callable[[asyncio.AbstractEventLoop], asyncio.Task[Any] | None] = (
    _TASKS._current_tasks.get
    if not hasattr(_TASKS, "_py_current_task")
    and isinstance(getattr(_TASKS, "_current_tasks", None), dict)
    else _TASKS.current_task
)


class _Started(Coroutine[Any, Any, _T]):
    """The rest of a coroutine that ``TaskStarter`` ran up to its first wait, as the
    coroutine its task runs: the first step hands the task what the coroutine waits on
    (or its outcome), every later step, and a cancellation at any step, goes straight to
    the coroutine, in the coroutine's own context, exactly as if the task had run it
    from the start.
    """

    def __init__(
        self, coro: Coroutine[Any, Any, _T], context: contextvars.Context
    ) -> None:
        self.coro = coro
        self.context = context
        self.begun = False
        self.error: BaseException | None = None
        self.waiting_on: Any = None

    def send(self, value: Any) -> Any:
        if self.begun:
            return self.context.run(self.coro.send, value)
        self.begun = True
        if self.error is not None:
            raise self.error
        return self.waiting_on

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any:
        error = typ if val is None else val
        if not self.begun:
            self.begun = True
            if self.error is not None:  # nothing left to deliver it to
                raise error
            waiting = self.waiting_on
            if (
                isinstance(error, asyncio.CancelledError)
                and isinstance(waiting, asyncio.Future)
                and waiting.cancel()
            ):
                # What cancelling a task does to the future it waits on: the coroutine
                # reads the cancellation from that future, and a task it awaits is
                # cancelled too.
                return waiting
        return self.context.run(self.coro.throw, error)

    def close(self) -> None:
        self.coro.close()

    def __await__(self) -> Generator[Any, None, _T]:
        raise TypeError("run by its task only")  # pragma: no cover - never awaited


class _Host(Coroutine[Any, Any, Any]):
    """The coroutine of a task that waits, idle, to be handed a coroutine that
    ``TaskStarter`` ran up to its first wait (a ``_Started``), and then runs it to its
    end: the task becomes that coroutine's own.  Cancelled while idle, it ends."""

    def __init__(self, mailbox: asyncio.Future[_Started[Any]]) -> None:
        self.mailbox = mailbox
        self.job: _Started[Any] | None = None

    def _adopted(self) -> _Started[Any] | None:
        if self.job is None and self.mailbox.done() and not self.mailbox.cancelled():
            self.job = self.mailbox.result()
        return self.job

    def send(self, value: Any) -> Any:
        job = self._adopted()
        if job is not None:
            return job.send(value)
        # Idle: what awaiting the mailbox yields to the task (asyncio's protocol).
        self.mailbox._asyncio_future_blocking = True
        return self.mailbox

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any:
        job = self._adopted()
        if job is not None:
            return job.throw(typ, val, tb)
        raise typ if val is None else val

    def close(self) -> None:
        if self.job is not None:
            self.job.close()

    def __await__(self) -> Generator[Any, None, Any]:
        raise TypeError("run by its task only")  # pragma: no cover - never awaited


@types.coroutine
def _resume(coro: Coroutine[Any, Any, _T], waiting_on: Any) -> Generator[Any, Any, _T]:
    """The rest of ``coro``, which its first step left waiting on ``waiting_on``: awaited,
    it hands that to the task first, then each step (a value sent, an error thrown, a
    close) to ``coro``, and returns what ``coro`` returns."""
    yielded = waiting_on
    while True:
        try:
            sent = yield yielded
        except GeneratorExit:
            coro.close()
            raise
        except BaseException as error:  # noqa: BLE001 - thrown into coro at its wait
            try:
                yielded = coro.throw(error)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
        else:
            try:
                yielded = coro.send(sent)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]


class TaskStarter:
    """Starts coroutines eagerly: ``start`` runs one up to its first wait before it
    returns, and only a coroutine that does wait costs a task.

    A handler that answers without waiting (a stub, a lookup) is answered before
    ``start`` returns: the peer gets its answer one event-loop turn sooner, and the
    server makes no task and takes no extra loop turn for it.  While a coroutine runs
    its first step, an idle task of this starter's is the current one (so
    ``current_task()`` and ``asyncio.timeout`` work); if the coroutine waits, that task
    becomes its own and runs the rest, and the next coroutine gets a new idle task.
    Each coroutine runs in its own copy of the context (a handler's context variables
    never leak to the next, nor to the caller) and a cancellation of its task reaches
    it at any step, as with Python 3.12's eager tasks, which cost a task each.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.loop = loop or asyncio.get_running_loop()
        self._idle: asyncio.Task[Any] | None = None
        self._mailbox: asyncio.Future[_Started[Any]] | None = None

    def _borrow(self) -> tuple[asyncio.Task[Any], asyncio.Future[_Started[Any]]]:
        """The idle host task and its mailbox, or a new pair when there is none."""
        host, mailbox = self._idle, self._mailbox
        if host is None or mailbox is None or host.done() or mailbox.done():
            mailbox = self.loop.create_future()
            host = self.loop.create_task(_Host(mailbox))
        return host, mailbox

    def start(self, coro: Coroutine[Any, Any, _T]) -> asyncio.Task[_T] | None:
        """The task running the rest of ``coro`` after its first step; None when
        ``coro`` finished in that step (its result is not kept: fire and forget)."""
        loop = self.loop
        host, mailbox = self._borrow()
        # Lent while the first step runs: a start() inside that step gets its own.
        self._idle = self._mailbox = None
        context = contextvars.copy_context()
        outer = _CURRENT(loop)
        if outer is not None:
            _LEAVE(loop, outer)
        _ENTER(loop, host)
        started: _Started[_T]
        try:
            waiting_on = context.run(coro.send, None)
        except StopIteration:
            self._give_back(host, mailbox)
            return None
        except (KeyboardInterrupt, SystemExit):
            self._give_back(host, mailbox)
            raise
        except BaseException as error:  # noqa: BLE001 - the task raises it when awaited
            started = _Started(coro, context)
            started.error = error
        else:
            started = _Started(coro, context)
            started.waiting_on = waiting_on
        finally:
            _LEAVE(loop, host)
            if outer is not None:
                _ENTER(loop, outer)
        mailbox.set_result(started)  # the task is the coroutine's own from now on
        return host

    def begin(
        self,
        coro: Coroutine[Any, Any, _T],
        rest: Callable[..., Coroutine[Any, Any, Any]],
        before: tuple[Any, ...] = (),
    ) -> tuple[bool, Any] | asyncio.Task[Any]:
        """Run ``coro``'s first step as ``start`` does.  Finished in that step: (True, its
        value), or (False, the ``Exception`` it raised); the caller goes on with it, and
        no task or coroutine more was made.  Waiting: the task that runs
        ``rest(*before, the rest of coro)`` to its end, in ``coro``'s context, as
        ``start`` would have run ``rest(*before, coro)`` (the caller's answering, after
        the handler's own steps; ``before`` rather than a closure, which would cost
        every call, waiting or not).

        Every request a server answers passes here, so the common case is one frame:
        the idle task taken and given back inline, the current task read and swapped
        by asyncio's own C functions (``_CURRENT``, ``_ENTER``, ``_LEAVE``).
        """
        loop = self.loop
        host, mailbox = self._idle, self._mailbox
        if host is None or mailbox is None or host.done() or mailbox.done():
            host, mailbox = self._borrow()
        self._idle = self._mailbox = None  # a begin() inside the step gets its own
        context = contextvars.copy_context()
        outer = _CURRENT(loop)  # None when called from the loop's reader callback
        if outer is not None:
            _LEAVE(loop, outer)
        _ENTER(loop, host)
        waiting_on: Any = None
        try:
            waiting_on = context.run(coro.send, None)
        except StopIteration as stop:
            outcome: tuple[bool, Any] | None = (True, stop.value)
        except Exception as error:  # noqa: BLE001 - the caller answers it
            outcome = (False, error)
        except (KeyboardInterrupt, SystemExit):
            self._give_back(host, mailbox)
            raise
        except BaseException as error:  # noqa: BLE001 - the task raises it (a cancel)
            started: _Started[Any] = _Started(coro, context)
            started.error = error
            mailbox.set_result(started)
            return host
        else:
            outcome = None
        finally:
            _LEAVE(loop, host)
            if outer is not None:
                _ENTER(loop, outer)
        if outcome is None:
            # ``rest`` awaits the coroutine from where it waits: its first step, run
            # here, hands back what the coroutine waits on, for the task to wait on.
            after = rest(*before, _resume(coro, waiting_on))
            started = _Started(after, context)
            started.waiting_on = context.run(after.send, None)
            mailbox.set_result(started)
            return host
        if self._idle is None:  # the lent task is idle again (``_give_back``)
            self._idle, self._mailbox = host, mailbox
        else:
            host.cancel()
        return outcome

    def _give_back(
        self, host: asyncio.Task[Any], mailbox: asyncio.Future[_Started[Any]]
    ) -> None:
        """The lent task is idle again, unless a start() during the step left one."""
        if self._idle is None:
            self._idle, self._mailbox = host, mailbox
        else:
            host.cancel()

    def close(self) -> None:
        """End the idle task (a coroutine still running keeps its own)."""
        if self._idle is not None:
            self._idle.cancel()
        self._idle = self._mailbox = None
