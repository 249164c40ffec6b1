"""Requests answered in place: the handler's first step run where the message is read
(``TaskStarter.begin``), and its answer written at once when the pipe takes it, with the
guarantees a task of its own gave: a current task (the same one across its waits, so
``asyncio.timeout`` works), a context of its own, cancellation, errors answered -32603;
and a handler that waits, a handler that is no ``async def``, a handler called wrongly
and a pipe that does not take the whole answer all answered as before.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from typing import Any

import pytest

import codegen.runtime as rpc
from tests.runtime.test_jsonrpc import HANDLERS, LOG, METHODS, request

WHO: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="outer")

# ------------------------------------------------------------- TaskStarter.begin


async def _rest_as_is(rest: Any) -> Any:
    return await rest


def test_begin_hands_back_a_value_or_an_error_of_a_first_step_that_finished() -> None:
    async def run() -> tuple[Any, Any, int]:
        async def fine() -> str:
            return "value"

        async def broken() -> str:
            raise KeyError("bug")

        starter = rpc.TaskStarter()
        before = len(asyncio.all_tasks())
        done = starter.begin(fine(), _rest_as_is)
        failed = starter.begin(broken(), _rest_as_is)
        return done, failed, len(asyncio.all_tasks()) - before

    done, failed, tasks = asyncio.run(run())
    assert done == (True, "value")
    assert isinstance(failed, tuple) and failed[0] is False
    assert isinstance(failed[1], KeyError)
    assert tasks <= 1  # at most the one idle task, shared


def test_begin_runs_the_rest_of_a_waiting_coroutine_then_what_follows_it() -> None:
    async def run() -> tuple[list[str], Any]:
        steps: list[str] = []
        release = asyncio.Event()

        async def work() -> str:
            steps.append("first")
            await release.wait()
            steps.append("rest")
            return "done"

        async def after(rest: Any) -> str:
            value = await rest
            steps.append(f"after {value}")
            return "answered"

        task = rpc.TaskStarter().begin(work(), after)
        assert isinstance(task, asyncio.Task)
        assert steps == ["first"]
        release.set()
        return steps, await task

    steps, result = asyncio.run(run())
    assert steps == ["first", "rest", "after done"] and result == "answered"


def test_begin_keeps_one_current_task_across_waits_and_timeout_works() -> None:
    async def run() -> tuple[bool, bool, str]:
        seen: list[Any] = []

        async def work() -> str:
            seen.append(asyncio.current_task())
            try:
                async with asyncio.timeout(0.01):  # set in the first step
                    await asyncio.sleep(10)
            except TimeoutError:
                seen.append(asyncio.current_task())
                return "timed out"
            return "slept"

        task = rpc.TaskStarter().begin(work(), _rest_as_is)
        assert isinstance(task, asyncio.Task)
        outcome = await task
        return seen[0] is task, seen[1] is task, outcome

    first_is_task, later_is_task, outcome = asyncio.run(run())
    assert first_is_task and later_is_task and outcome == "timed out"


def test_begin_gives_each_coroutine_its_context_kept_across_its_waits() -> None:
    async def run() -> tuple[str, list[str]]:
        inside: list[str] = []

        async def work() -> None:
            WHO.set("handler")
            await asyncio.sleep(0)
            inside.append(WHO.get())

        async def after(rest: Any) -> None:
            await rest
            inside.append(WHO.get())  # the answering runs in the handler's context

        task = rpc.TaskStarter().begin(work(), after)
        assert isinstance(task, asyncio.Task)
        caller = WHO.get()
        await task
        return caller, inside

    caller, inside = asyncio.run(run())
    assert caller == "outer" and inside == ["handler", "handler"]


def test_begin_a_cancelled_waiting_coroutine_is_cancelled_where_it_waits() -> None:
    async def run() -> tuple[bool, list[str]]:
        seen: list[str] = []

        async def work() -> None:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                seen.append("cancelled")
                raise

        async def after(rest: Any) -> None:
            await rest
            seen.append("answered")  # never: the cancellation goes through

        task = rpc.TaskStarter().begin(work(), after)
        assert isinstance(task, asyncio.Task)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return task.cancelled(), seen

    cancelled, seen = asyncio.run(run())
    assert cancelled and seen == ["cancelled"]


# ------------------------------------------------------------ over a connection


class _Pipe:
    """A pipe's writer as the stdio transport sets one: takes ``room`` bytes at once."""

    def __init__(self, room: int = 1 << 20) -> None:
        self.room = room
        self.now: list[bytes] = []  # written at once
        self.later: list[bytes] = []  # sent by the channel's coroutine
        self.waited = 0

    def put_now(self, data: bytes) -> bool:
        self.now.append(data)
        return len(data) <= self.room

    async def drained(self) -> None:
        self.waited += 1

    async def send(self, data: bytes) -> None:
        self.later.append(data)


def _connection(
    handlers: dict[str, rpc.Handler], pipe: _Pipe
) -> tuple[rpc.Connection, Any]:
    async def nothing(_reader: Any) -> None:
        return None

    channel = rpc.PipeChannel(nothing, pipe.send, 1 << 16, "pipe")
    channel.put_now = pipe.put_now
    channel.drained = pipe.drained
    connection = rpc.Connection(channel, LOG, METHODS)
    connection.serve_with(handlers)
    connection._loop = asyncio.get_running_loop()
    return connection, rpc.LineReader(connection, 1 << 16)


def _line(message: Any) -> bytes:
    return json.dumps(message).encode() + b"\n"


def _answers(pipe: _Pipe) -> list[Any]:
    return [json.loads(data) for data in pipe.now + pipe.later]


def test_a_request_whose_handler_does_not_wait_is_answered_before_reading_returns() -> (
    None
):
    async def run() -> tuple[list[Any], list[Any]]:
        pipe = _Pipe()
        _, reader = _connection(HANDLERS, pipe)
        reader.data_received(_line(request("add", {"a": 1, "b": 2}, id=1)))
        at_once = _answers(pipe)
        reader.data_received(_line(request("add", {"a": -1, "b": 2}, id=2)))
        reader.data_received(_line(request("add", {"a": 13, "b": 2}, id=3)))
        await asyncio.sleep(0)
        return at_once, _answers(pipe)

    at_once, answers = asyncio.run(run())
    assert at_once == [{"jsonrpc": "2.0", "id": 1, "result": 3}]
    by_id = {a["id"]: a for a in answers}
    assert by_id[2]["error"]["code"] == -32001  # the handler's RpcError
    assert by_id[3]["error"]["code"] == -32603  # a bug in the handler
    assert "secret" not in json.dumps(by_id[3])


def test_a_handler_that_waits_sees_its_task_and_context_and_is_answered_later() -> None:
    async def run() -> tuple[list[Any], list[Any], list[Any], str]:
        seen: list[Any] = []
        release = asyncio.Event()

        async def add(params: Any) -> int:
            WHO.set(f"request {params.a}")
            seen.append(asyncio.current_task())
            async with asyncio.timeout(5):
                await release.wait()
            seen.append(asyncio.current_task())
            seen.append(WHO.get())
            return 0

        pipe = _Pipe()
        connection, reader = _connection({**HANDLERS, "add": add}, pipe)
        reader.data_received(_line(request("add", {"a": 4, "b": 0}, id=1)))
        before = _answers(pipe)
        in_flight = list(connection._tasks)
        release.set()
        await asyncio.gather(*in_flight)
        return before, _answers(pipe), seen, WHO.get()

    before, after, seen, caller = asyncio.run(run())
    assert before == []
    assert after == [{"jsonrpc": "2.0", "id": 1, "result": 0}]
    assert seen[0] is not None and seen[0] is seen[1]  # one task, before and after
    assert seen[2] == "request 4" and caller == "outer"


def test_handlers_that_are_no_async_def_or_called_wrongly_are_answered_as_before() -> (
    None
):
    async def run() -> list[Any]:
        async def now(_params: Any) -> str:
            return "noon"

        def plain(params: Any) -> Any:  # returns an awaitable, runs in its task
            assert asyncio.current_task() is not None
            return now(params)

        async def two_arguments(_a: Any, _b: Any) -> str:
            return "never"

        pipe = _Pipe()
        _, reader = _connection({**HANDLERS, "now": plain, "add": two_arguments}, pipe)
        reader.data_received(_line(request("now", id=1)))
        reader.data_received(_line(request("add", {"a": 1, "b": 1}, id=2)))
        await asyncio.sleep(0)
        return _answers(pipe)

    by_id = {a["id"]: a for a in asyncio.run(run())}
    assert by_id[1]["result"] == "noon"
    assert by_id[2]["error"]["code"] == -32603


def test_an_answer_the_pipe_does_not_take_whole_is_waited_for() -> None:
    async def run() -> tuple[list[Any], int, int]:
        pipe = _Pipe(room=10)  # takes part of any answer: the rest waits
        connection, reader = _connection(HANDLERS, pipe)
        reader.data_received(_line(request("add", {"a": 1, "b": 2}, id=1)))
        await asyncio.gather(*connection._tasks)
        gauge = connection._output
        return _answers(pipe), pipe.waited, 0 if gauge is None else gauge.messages

    answers, waited, left = asyncio.run(run())
    assert answers == [{"jsonrpc": "2.0", "id": 1, "result": 3}]
    assert waited == 1 and left == 0  # counted while it waited, then not
