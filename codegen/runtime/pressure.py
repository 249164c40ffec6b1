"""Bounds on what a peer can make a server hold: its unsent answers, and unfinished messages.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: byte counts from a connection (answers accepted for sending, answers sent) and
the bytes of messages not yet complete, from the transports' readers.
Outputs: ``OutputGauge`` (one connection's queued output: pause reading past the soft
limit, refuse past the hard one), ``OutputOverflow``, ``PartialBudget`` and ``PARTIALS``
(the process-wide budget for unfinished messages), ``configure`` (the server's options).
Guarantees: a peer that sends and never reads makes the server stop reading it once
``soft`` bytes of answers wait, and lose its connection (with the reason logged) past
``hard``; the bytes of unfinished messages held across all connections never exceed
the budget (a reservation over it is refused, and the transport closes that peer).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .errors import TransportError

DEFAULT_SOFT_OUTPUT: Final = 1024 * 1024
"""Bytes of unsent answers of one peer after which the server reads that peer no more."""
DEFAULT_HARD_OUTPUT: Final = 64 * 1024 * 1024
"""Bytes of unsent answers of one peer after which its connection is closed."""
QUEUED_MESSAGES: Final = 1024
"""Messages of one peer waiting to be sent after which the server reads it no more
(each holds the task that answered it: a few kB besides the answer's own bytes)."""
DEFAULT_PARTIAL_BUDGET: Final = 256 * 1024 * 1024
"""Bytes of unfinished messages the whole process holds, across its connections."""


class OutputOverflow(TransportError):
    """A peer left more answers unread than the connection may hold."""


@dataclass
class OutputLimits:
    """The queued-output limits of a server's connections (``configure`` sets them)."""

    soft: int = DEFAULT_SOFT_OUTPUT
    hard: int = DEFAULT_HARD_OUTPUT


OUTPUT_LIMITS: Final = OutputLimits()


class OutputGauge:
    """The bytes of one connection's messages accepted for sending and not yet sent.

    Past ``soft`` bytes or ``QUEUED_MESSAGES`` messages the gauge calls ``pause``
    (the server reads that peer no more, so its answers stop growing: TCP or the pipe
    then makes the peer wait); once back under half of both, ``resume``.  A message that would take it past ``hard`` is
    refused with ``OutputOverflow``: a peer that never reads cannot grow us forever,
    whatever is still in flight or pushed to it.
    """

    def __init__(
        self,
        peer: str,
        limits: OutputLimits = OUTPUT_LIMITS,
        pause: Callable[[], None] | None = None,
        resume: Callable[[], None] | None = None,
    ) -> None:
        self.peer = peer
        self.soft = limits.soft
        self.hard = max(limits.hard, limits.soft)
        self.queued = 0
        self.messages = 0
        self.paused = False
        self._pause = pause
        self._resume = resume
        self._drained: asyncio.Event | None = None  # set while not paused

    def add(self, size: int) -> None:
        """Count ``size`` more bytes waiting to be sent, or refuse them."""
        if self.queued + size > self.hard and self.queued:
            raise OutputOverflow(
                f"cannot send to {self.peer}: {self.queued + size} bytes of answers"
                f" would wait unread (limit {self.hard}); the peer does not read"
            )
        self.queued += size
        self.messages += 1
        full = self.queued > self.soft or self.messages > QUEUED_MESSAGES
        if full and not self.paused:
            self.paused = True
            if self._drained is not None:
                self._drained.clear()
            if self._pause is not None:
                self._pause()

    def sent(self, size: int) -> None:
        """``size`` bytes counted by ``add`` are sent (or will never be)."""
        self.queued = max(0, self.queued - size)
        self.messages = max(0, self.messages - 1)
        drained = self.messages <= QUEUED_MESSAGES // 2
        if self.paused and drained and self.queued <= self.soft // 2:
            self.paused = False
            if self._drained is not None:
                self._drained.set()
            if self._resume is not None:
                self._resume()

    async def drained(self) -> None:
        """Return once the gauge is not paused."""
        if not self.paused:
            return
        if self._drained is None:
            self._drained = asyncio.Event()
        await self._drained.wait()


class PartialBudget:
    """Bytes of unfinished messages held by the whole process (every connection's
    reader reserves what it holds of a message not yet complete, and releases it when
    the message is complete or the connection ends)."""

    def __init__(self, total: int = DEFAULT_PARTIAL_BUDGET) -> None:
        self.total = total
        self.held = 0

    def reserve(self, size: int) -> bool:
        """Take ``size`` bytes from the budget; False (nothing taken) if over it."""
        if self.held + size > self.total:
            return False
        self.held += size
        return True

    def release(self, size: int) -> None:
        self.held = max(0, self.held - size)


PARTIALS: Final = PartialBudget()
"""The process's budget for unfinished messages, shared by all its connections."""


def configure(
    *, soft: int | None = None, hard: int | None = None, partial: int | None = None
) -> None:
    """Set the limits of the servers of this process (the command's options)."""
    if soft is not None:
        OUTPUT_LIMITS.soft = soft
    if hard is not None:
        OUTPUT_LIMITS.hard = hard
    if partial is not None:
        PARTIALS.total = partial
