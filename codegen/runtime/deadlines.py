"""Request deadlines of one connection, watched by a single timer.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: each request with a time limit: its key, the future its answer resolves, the
task waiting for it.
Outputs: ``Deadlines``, which calls back once per request still unanswered at its
deadline; ``Deadline`` (what is known of one request).
Guarantees: one event-loop timer per connection, set for the earliest deadline (a call
costs a dict entry and a clock read, not a timer of its own, so a client with a timeout
answers as fast as one without); a request removed before its deadline is never called
back; the timer is gone once no request waits.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# How early the loop may run a timer (its clock's resolution): a sweep at that moment
# counts a deadline as reached rather than setting a timer for the same instant again.
_SLACK = 0.001


@dataclass(slots=True, eq=False)
class Deadline:
    """One request waiting for its answer until ``when`` (the loop's clock)."""

    when: float
    future: asyncio.Future[Any]
    task: asyncio.Task[Any] | None  # the caller, cancelled if still sending at expiry
    operation: str  # the method, as errors name it
    limit: float
    request_id: Any
    sending: bool = True
    expired: bool = False


class Deadlines:
    """The deadlines of one connection's requests: ``add`` one per request, ``discard``
    it once answered; ``on_expiry`` gets each one still there when its time is up."""

    def __init__(self, on_expiry: Callable[[Deadline], None]) -> None:
        self._on_expiry = on_expiry
        self._entries: dict[Any, Deadline] = {}
        self._timer: asyncio.TimerHandle | None = None

    def add(self, key: Any, deadline: Deadline) -> None:
        self._entries[key] = deadline
        timer = self._timer
        if timer is None or deadline.when < timer.when():
            if timer is not None:
                timer.cancel()
            loop = deadline.future.get_loop()
            self._timer = loop.call_at(deadline.when, self._sweep)

    def discard(self, key: Any, deadline: Deadline) -> None:
        if self._entries.get(key) is deadline:
            del self._entries[key]
        if not self._entries and self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _sweep(self) -> None:
        self._timer = None
        if not self._entries:
            return
        loop = next(iter(self._entries.values())).future.get_loop()
        now = loop.time() + _SLACK
        expired = [key for key, entry in self._entries.items() if entry.when <= now]
        for key in expired:
            self._on_expiry(self._entries.pop(key))
        if self._entries:
            earliest = min(entry.when for entry in self._entries.values())
            self._timer = loop.call_at(earliest, self._sweep)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._entries.clear()
