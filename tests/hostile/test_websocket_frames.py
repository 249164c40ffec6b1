"""RFC 6455 kept in force by the WebSocket oversize filter (issue 33, item 3): frames
aiohttp never sees (dropped or held by the filter) are checked by the filter, and the
bytes of unfinished messages come from one process-wide budget.  Each refusal has a
twin the filter passes.
"""

from __future__ import annotations

import random

import pytest

from codegen.runtime.oversize import OversizeFilter
from codegen.runtime.pressure import PartialBudget
from tests.runtime.test_hostile_input import Inner, frame

LIMIT = 1000


class Queue:
    """aiohttp's message queue, as far as the filter uses it."""

    def __init__(self) -> None:
        self.errors: list[BaseException] = []

    def set_exception(self, error: BaseException) -> None:
        self.errors.append(error)


def _feed(
    stream: bytes, budget: PartialBudget | None = None, seed: int = 0
) -> tuple[OversizeFilter, Inner, Queue]:
    inner, queue = Inner(), Queue()
    filtered = OversizeFilter(inner, LIMIT, queue, budget or PartialBudget())
    rng = random.Random(seed)
    position = 0
    while position < len(stream):
        step = rng.choice([1, 3, 64, 100_000])
        filtered.feed_data(stream[position : position + step])
        position += step
    return filtered, inner, queue


def _code(queue: Queue) -> int:
    assert len(queue.errors) == 1, queue.errors
    return int(queue.errors[0].code)


REFUSED = {
    "unmasked": frame(0x1, b'{"a":1}', mask=False),
    "unmasked control": frame(0x9, b"hi", mask=False),
    "top bit of a 64-bit length": bytes([0x82, 0xFF]) + (1 << 63).to_bytes(8, "big"),
    "a new message inside a held one": frame(0x1, b"a" * 10, fin=False)
    + frame(0x1, b"b" * 10),
    "a new message inside a dropped one": frame(0x1, b"a" * 2000, fin=False)
    + frame(0x1, b"b" * 10),
    "a continuation of nothing": frame(0x0, b"a" * 10),
    "a continuation of nothing, oversized": frame(0x0, b"a" * 2000),
    "reserved bits on a dropped frame": bytes([0xC1]) + frame(0x1, b"a" * 2000)[1:],
    "an unknown opcode": frame(0x3, b"a" * 10),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
@pytest.mark.parametrize("seed", range(3))
def test_frames_rfc_6455_forbids_fail_the_connection(case: str, seed: int) -> None:
    filtered, _, queue = _feed(REFUSED[case] + frame(0x1, b"after"), seed=seed)
    assert _code(queue) == 1002
    assert filtered.feed_data(frame(0x1, b"more")) == (True, b"")  # read no more


@pytest.mark.parametrize("seed", range(3))
def test_well_formed_frames_pass_as_before(seed: int) -> None:
    # The twins: masked frames, a fragmented message with a ping inside, a dropped
    # message followed by a new one, a control frame (judged by aiohttp).
    last = frame(0x1, b"ok")
    stream = (
        frame(0x1, b'{"a":1}')
        + frame(0x1, b"a" * 10, fin=False)
        + frame(0x9, b"hi")
        + frame(0x0, b"b" * 10)
        + frame(0x1, b"a" * 2000, fin=False)
        + frame(0x0, b"b" * 10)
        + last
    )
    filtered, inner, queue = _feed(stream, seed=seed)
    assert queue.errors == [] and filtered.failure is None
    assert inner.data.count(filtered.marker) == 1
    assert bytes(inner.data).endswith(last)


@pytest.mark.parametrize("seed", range(3))
def test_a_dropped_text_message_must_be_utf8(seed: int) -> None:
    bad = "é".encode() * 600 + b"\xff"
    _, _, queue = _feed(frame(0x1, bad), seed=seed)
    assert _code(queue) == 1007
    # the twin: as long, valid (its two-byte characters split by any read)
    filtered, inner, queue = _feed(frame(0x1, "é".encode() * 700), seed=seed)
    assert queue.errors == [] and inner.data.count(filtered.marker) == 1
    # binary messages are not text
    _, _, queue = _feed(frame(0x2, bad), seed=seed)
    assert queue.errors == []


def test_unfinished_messages_share_one_budget() -> None:
    budget = PartialBudget(1500)
    first, _, first_queue = _feed(frame(0x1, b"a" * 900, fin=False), budget)
    assert first.reserved >= 900 and first_queue.errors == []
    _, _, second_queue = _feed(frame(0x1, b"b" * 900, fin=False), budget)
    assert _code(second_queue) == 1009  # over the process's budget: refused
    assert "budget of 1500 bytes" in str(second_queue.errors[0])
    # the twin: once the first message is complete its bytes are given back
    first.feed_data(frame(0x0, b"c" * 50))
    assert first.reserved == 0 and budget.held == 0
    third, _, third_queue = _feed(frame(0x1, b"d" * 900, fin=False), budget)
    assert third_queue.errors == [] and budget.held >= 900
    third.feed_eof()  # and a connection's end gives back what it held
    assert budget.held == 0
