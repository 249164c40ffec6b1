"""A line from a pipe answered in one call (``Connection.take_line``): the common request
(an integer or string id, object params, an ``async def`` handler) answered at once,
byte for byte as the general path answers it, with what a task of its own gave the
handler (a current task that is neither the reader's nor another request's in flight,
a context of its own, cancellation when the peer is gone); every other line, from the
first step where it differs, answered by the general path exactly as before.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import os
from typing import Any

import pytest

import codegen.runtime as rpc
from codegen.runtime import tasks
from tests.runtime.test_answer_in_place import _connection, _line, _Pipe
from tests.runtime.test_jsonrpc import HANDLERS, request

WHO: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="outer")


def _spied(connection: rpc.Connection) -> list[str]:
    """The general path's entries, as ``take_line`` hands a line on to them."""
    taken: list[str] = []
    handle, feed, take = connection._handle, connection.feed, connection._take

    def on_handle(message: Any) -> None:
        taken.append("handle")
        handle(message)

    def on_feed(data: str | bytes) -> None:
        taken.append("feed")
        feed(data)

    def on_take(data: str | bytes) -> None:
        taken.append("take")
        take(data)

    connection._handle = on_handle  # type: ignore[method-assign]
    connection.feed = on_feed  # type: ignore[method-assign]
    connection._take = on_take  # type: ignore[method-assign]
    return taken


def test_a_request_is_answered_in_one_call_without_the_general_path() -> None:
    async def run() -> tuple[list[bytes], list[str], int]:
        pipe = _Pipe()
        connection, reader = _connection(HANDLERS, pipe)
        taken = _spied(connection)
        reader.data_received(_line(request("add", {"a": 1, "b": 2}, id=1)))
        reader.data_received(_line(request("add", {"a": 2, "b": 2}, id="two")))
        # text that only looks like a big number (a trace id's 08e019) stays here too
        trace = {"a": 3, "b": 2, "trace": "00-80e1afed08e019fc"}
        reader.data_received(_line(request("add", trace, id=3)))
        return pipe.now, taken, len(connection._tasks)

    written, taken, tasks_left = asyncio.run(run())
    assert written == [
        b'{"jsonrpc":"2.0","id":1,"result":3}\n',
        b'{"jsonrpc":"2.0","id":"two","result":4}\n',
        b'{"jsonrpc":"2.0","id":3,"result":5}\n',
    ]
    assert taken == [] and tasks_left == 0


@pytest.mark.parametrize(
    ("why", "data"),
    [
        (
            "a CRLF line",
            b'{"jsonrpc":"2.0","id":1,"method":"add","params":{"a":1,"b":2}}\r\n',
        ),
        ("a float id", _line(request("add", {"a": 1, "b": 2}, id=1.5))),
        ("params as an array", _line(request("add", [1, 2], id=1))),
        ("no params", _line(request("now", id=1))),
        ("a notification", _line({"jsonrpc": "2.0", "method": "ping"})),
        ("no jsonrpc", _line({"id": 1, "method": "add", "params": {"a": 1, "b": 2}})),
        ("invalid params", _line(request("add", {"a": "x", "b": 2}, id=1))),
        ("an unknown method", _line(request("nope", {}, id=1))),
        (
            "a number no double holds",
            b'{"jsonrpc":"2.0","id":1,"method":"add","params":{"a":1e400,"b":2}}\n',
        ),
    ],
)
def test_any_other_line_goes_on_by_the_general_path(why: str, data: bytes) -> None:
    async def run() -> tuple[list[str], list[Any]]:
        pipe = _Pipe()
        connection, reader = _connection(HANDLERS, pipe)
        taken = _spied(connection)
        reader.data_received(data)
        await asyncio.sleep(0)
        return taken, [json.loads(d) for d in pipe.now + pipe.later]

    taken, answers = asyncio.run(run())
    assert taken and taken[0] in ("handle", "feed", "take"), why
    if why != "a notification":  # never answered
        assert len(answers) == 1, why


def test_a_loud_log_or_a_waiting_notification_sends_the_line_the_general_way() -> None:
    async def run() -> tuple[list[str], list[str]]:
        pipe = _Pipe()
        connection, reader = _connection(HANDLERS, pipe)
        connection.log = rpc.MessageLog("loud", quiet=False)
        loud = _spied(connection)
        reader.data_received(_line(request("add", {"a": 1, "b": 2}, id=1)))
        connection, reader = _connection(HANDLERS, _Pipe())
        connection._holding = asyncio.get_running_loop().create_task(asyncio.sleep(0))
        held = _spied(connection)
        reader.data_received(_line(request("add", {"a": 1, "b": 2}, id=1)))
        await connection._holding
        return loud, held

    loud, held = asyncio.run(run())
    assert loud[:1] == ["feed"] and held[:1] == ["feed"]


# Lines whose answers the one-call path and the general path must agree on, byte for byte.
LINES = [
    _line(request("add", {"a": 1, "b": 2}, id=1)),
    _line(request("add", {"a": 1, "b": 2}, id="x\u00e9")),
    _line(request("add", {"a": 1, "b": 2}, id=2**70)),
    _line(request("add", {"a": 1, "b": 2}, id=True)),
    _line(request("add", {"a": 1, "b": 2}, id=None)),
    _line(request("add", {"a": 1, "b": 2}, id=[1])),
    _line(request("add", {"a": 1, "b": 2}, jsonrpc="1.0")),
    _line(request("add", {"a": 1}, id=3)),
    _line(request("add", {"a": -1, "b": 2}, id=4)),  # the handler's RpcError
    _line(request("add", {"a": 13, "b": 2}, id=5)),  # a bug in the handler
    _line(request("add", {"a": 99, "b": 2}, id=6)),  # a result that is not an int
    _line(request("ping", {}, id=7)),  # a notification sent with an id
    _line(request("now", {}, id=8)),  # a method without params, given {}
    _line(request("now", {"x": 1}, id=9)),
    _line({"jsonrpc": "2.0", "id": 10, "method": 5}),
    _line({"jsonrpc": "2.0", "id": 11, "method": "add", "params": 3}),
    b'{"jsonrpc":"2.0","id":12,"method":"add","params":{"a":1,"b":2},"a":NaN}\n',
    b'{"jsonrpc":"2.0","id":13,"method":"add","params":{"a":1e5,"b":2}}\n',
    b'{"jsonrpc":"2.0","id":13,"method":"add","params":{"a":1E+400,"b":2}}\n',
    b'{"jsonrpc":"2.0","id":13,"method":"add","params":{"a":1,"b":2,"c":-1e-400}}\n',
    b'{"jsonrpc":"2.0","id":13,"method":"add","params":{"a":1,"b":2,"c":"e+-123"}}\n',
    b'{"jsonrpc":"2.0","id":13,"method":"add","params":{"a":1,"b":%b}}\n'
    % (b"9" * 201),
    b'{"jsonrpc":"2.0","id":13,"method":"add","params":{"a":1,"b":2,"c":%b.0}}\n'
    % (b"1" + b"0" * 400),
    b'{"jsonrpc":"2.0","id":14,"method":"add","params":{"a":1,"b":2},"id":15}\n',
    b'{"jsonrpc":"2.0","id":"\\ud800","method":"add","params":{"a":1,"b":2}}\n',
    b"[1,2]\n",
    b"{not json}\n",
    b'{"jsonrpc":"2.0","id":16,"result":1}\n',
    b'"a string"\n',
]


@pytest.mark.parametrize("data", LINES, ids=range(len(LINES)))
def test_each_line_is_answered_as_the_general_path_answers_it(data: bytes) -> None:
    async def answers(fast: bool) -> list[bytes]:
        pipe = _Pipe()
        connection, reader = _connection(HANDLERS, pipe)
        if fast:
            reader.data_received(data)
        else:
            connection.feed(data[:-1])
        for _ in range(3):
            await asyncio.sleep(0)
        return pipe.now + pipe.later

    async def run() -> tuple[list[bytes], list[bytes]]:
        return await answers(True), await answers(False)

    fast, general = asyncio.run(run())
    assert fast == general


def test_each_request_runs_in_a_context_of_its_own() -> None:
    async def run() -> tuple[list[str], str]:
        seen: list[str] = []

        async def add(params: Any) -> int:
            seen.append(WHO.get())
            WHO.set(f"request {params.a}")
            return 0

        pipe = _Pipe()
        _, reader = _connection({**HANDLERS, "add": add}, pipe)
        reader.data_received(_line(request("add", {"a": 1, "b": 0}, id=1)))
        reader.data_received(_line(request("add", {"a": 2, "b": 0}, id=2)))
        return seen, WHO.get()

    seen, caller = asyncio.run(run())
    assert seen == ["outer", "outer"]  # neither sees what the one before it set
    assert caller == "outer"


def test_the_handler_has_a_current_task_that_is_not_the_readers() -> None:
    async def run() -> tuple[list[Any], Any, Any, list[Any]]:
        seen: list[Any] = []

        async def add(_params: Any) -> int:
            seen.append(asyncio.current_task())
            return 0

        pipe = _Pipe()
        _, reader = _connection({**HANDLERS, "add": add}, pipe)
        reader.data_received(_line(request("add", {"a": 1, "b": 0}, id=1)))
        after = asyncio.current_task()
        # As the loop calls the reader: no task is current there, and none is after.
        in_callback: list[Any] = []
        loop = asyncio.get_running_loop()
        done = loop.create_future()

        def readable() -> None:
            reader.data_received(_line(request("add", {"a": 2, "b": 0}, id=2)))
            in_callback.append(tasks._CURRENT(loop))
            done.set_result(None)

        loop.call_soon(readable)
        await done
        return seen, after, asyncio.current_task(), in_callback

    seen, after, reader_task, in_callback = asyncio.run(run())
    assert len(seen) == 2 and None not in seen
    assert reader_task not in seen and after is reader_task  # the reader's, restored
    assert in_callback == [None]


def test_requests_in_flight_have_tasks_of_their_own_and_are_answered_when_done() -> (
    None
):
    async def run() -> tuple[list[Any], list[bytes], list[bytes]]:
        seen: list[Any] = []
        release = asyncio.Event()

        async def add(params: Any) -> int:
            seen.append(asyncio.current_task())
            await release.wait()
            assert asyncio.current_task() is seen[params.a - 1]
            return params.a

        pipe = _Pipe()
        connection, reader = _connection({**HANDLERS, "add": add}, pipe)
        reader.data_received(_line(request("add", {"a": 1, "b": 0}, id=1)))
        reader.data_received(_line(request("add", {"a": 2, "b": 0}, id=2)))
        before = list(pipe.now)
        release.set()
        await asyncio.gather(*connection._tasks)
        return seen, before, pipe.now

    seen, before, after = asyncio.run(run())
    assert len(seen) == 2 and seen[0] is not seen[1]
    assert before == []
    assert sorted(after) == [
        b'{"jsonrpc":"2.0","id":1,"result":1}\n',
        b'{"jsonrpc":"2.0","id":2,"result":2}\n',
    ]


def test_a_waiting_handler_is_cancelled_when_the_peer_is_gone_and_not_answered() -> (
    None
):
    async def run() -> tuple[list[str], list[bytes]]:
        seen: list[str] = []

        async def add(_params: Any) -> int:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                seen.append("cancelled")
                raise
            return 0

        pipe = _Pipe()
        connection, reader = _connection({**HANDLERS, "add": add}, pipe)
        reader.data_received(_line(request("add", {"a": 1, "b": 0}, id=1)))
        in_flight = list(connection._tasks)
        connection._drop_work()  # what losing the peer does
        await asyncio.gather(*in_flight, return_exceptions=True)
        return seen, pipe.now + pipe.later

    seen, written = asyncio.run(run())
    assert seen == ["cancelled"] and written == []


def test_a_handler_that_raises_is_answered_at_once() -> None:
    async def run() -> list[Any]:
        pipe = _Pipe()
        _, reader = _connection(HANDLERS, pipe)
        reader.data_received(_line(request("add", {"a": -1, "b": 2}, id=1)))
        reader.data_received(_line(request("add", {"a": 13, "b": 2}, id=2)))
        return [json.loads(d) for d in pipe.now]

    answers = asyncio.run(run())
    assert [a["error"]["code"] for a in answers] == [-32001, -32603]
    assert "secret" not in json.dumps(answers)


def test_the_current_task_is_read_as_asyncio_reads_it() -> None:
    async def run() -> tuple[bool, Any]:
        loop = asyncio.get_running_loop()
        inside = tasks._CURRENT(loop) is asyncio.current_task()
        outside: list[Any] = []
        done = loop.create_future()
        loop.call_soon(
            lambda: (outside.append(tasks._CURRENT(loop)), done.set_result(0))
        )
        await done
        return inside, outside[0]

    inside, outside = asyncio.run(run())
    assert inside and outside is None


@pytest.mark.parametrize("framing", ["ndjson-stdio", "content-length-stdio"])
def test_a_whole_line_read_from_a_pipe_goes_straight_to_the_connection(
    framing: str,
) -> None:
    async def run() -> tuple[list[bytes], list[bytes]]:
        from codegen.runtime.content_length import ContentLengthReader

        pipe = _Pipe()
        connection, _ = _connection(HANDLERS, pipe)
        reader = (
            rpc.LineReader(connection, 1 << 16)
            if framing == "ndjson-stdio"
            else ContentLengthReader(connection, 1 << 16)
        )
        straight: list[bytes] = []
        take_line = connection.take_line

        def spy(line: bytes) -> None:
            straight.append(line)
            take_line(line)

        connection.take_line = spy  # type: ignore[method-assign]
        source, sink = os.pipe()
        try:
            reader.watch(source)
            os.write(sink, _line(request("add", {"a": 1, "b": 2}, id=1)))
            for _ in range(100):
                await asyncio.sleep(0.01)
                if pipe.now or pipe.later or connection.strays:
                    break
        finally:
            reader.pause_reading("closed")
            os.close(source)
            os.close(sink)
        return straight, pipe.now + pipe.later

    straight, written = asyncio.run(run())
    if framing == "ndjson-stdio":
        assert straight == [_line(request("add", {"a": 1, "b": 2}, id=1))[:-1]]
        assert written == [b'{"jsonrpc":"2.0","id":1,"result":3}\n']
    else:  # a line is a header there: never a message of its own
        assert straight == []
        assert b'"result"' not in b"".join(written)


def test_a_result_text_holding_nan_is_never_remembered_and_always_answered_right() -> (
    None
):
    async def run() -> tuple[list[Any], int]:
        async def now(_params: Any) -> str:
            return "NaN or Infinity"  # a string: JSON, written by the general writer

        pipe = _Pipe()
        connection, reader = _connection({**HANDLERS, "now": now}, pipe)
        for ident in (1, 2):
            reader.data_received(_line(request("now", {}, id=ident)))
        reader.data_received(_line(request("add", {"a": 1, "b": 2}, id=3)))
        for _ in range(3):
            await asyncio.sleep(0)
        remembered = connection.dispatcher.valid_texts
        return [json.loads(d) for d in pipe.now + pipe.later], len(remembered)

    answers, remembered = asyncio.run(run())
    by_id = {a["id"]: a for a in answers}
    assert by_id[1]["result"] == by_id[2]["result"] == "NaN or Infinity"
    assert by_id[3]["result"] == 3
    assert remembered == 1  # add's "3" only
