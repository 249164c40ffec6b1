"""The runtime's fast paths: handlers started eagerly (``TaskStarter``) and pipes read by
callback (``PipeChannel``), with the guarantees the slower paths gave: a handler sees
its own task as current (``asyncio.timeout`` works), its context variables stay its
own, cancellation reaches it, notifications and what follows them are handled in the
order sent, lines are framed the same whatever the pipe's chunks, and a peer that
floods a busy connection is paused instead of buffered without bound.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import os
from typing import Any

import pytest

import codegen.runtime as rpc
from tests.runtime.test_jsonrpc import HANDLERS, LOG, METHODS, request

# ---------------------------------------------------------------------- TaskStarter

WHO: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="outer")


def test_a_handler_that_never_waits_is_done_before_start_returns() -> None:
    async def run() -> tuple[Any, list[str]]:
        seen: list[str] = []

        async def work() -> None:
            seen.append("ran")

        task = rpc.TaskStarter().start(work())
        return task, list(seen)

    task, seen = asyncio.run(run())
    assert task is None and seen == ["ran"]


def test_a_handler_that_waits_runs_its_first_step_now_and_the_rest_as_a_task() -> None:
    async def run() -> tuple[list[str], list[str], str]:
        steps: list[str] = []
        release = asyncio.Event()

        async def work() -> str:
            steps.append("first")
            await release.wait()
            steps.append("rest")
            return "done"

        task = rpc.TaskStarter().start(work())
        assert task is not None
        before = list(steps)
        release.set()
        result = await task
        return before, steps, result

    before, after, result = asyncio.run(run())
    assert before == ["first"]  # the first step ran inside start()
    assert after == ["first", "rest"] and result == "done"


def test_the_started_coroutine_sees_its_own_task_and_asyncio_timeout_works() -> None:
    async def run() -> tuple[bool, str]:
        current: list[asyncio.Task[Any] | None] = []

        async def work() -> str:
            current.append(asyncio.current_task())
            try:
                async with asyncio.timeout(0.01):  # needs the current task
                    await asyncio.sleep(10)
            except TimeoutError:
                return "timed out"
            return "slept"

        outer = asyncio.current_task()
        task = rpc.TaskStarter().start(work())
        assert task is not None
        assert asyncio.current_task() is outer  # the caller's task is current again
        return current[0] is task, await task

    same, outcome = asyncio.run(run())
    assert same and outcome == "timed out"


def test_context_variables_set_by_a_handler_stay_its_own() -> None:
    async def run() -> tuple[str, str]:
        inside: list[str] = []

        async def work() -> None:
            WHO.set("handler")
            await asyncio.sleep(0)
            inside.append(WHO.get())

        task = rpc.TaskStarter().start(work())
        after_start = WHO.get()
        assert task is not None
        await task
        return after_start, inside[0]

    outer, inner = asyncio.run(run())
    assert outer == "outer"  # not leaked into the caller
    assert inner == "handler"  # kept across the handler's own waits


def test_cancelling_a_started_task_reaches_the_coroutine() -> None:
    async def run() -> tuple[bool, list[str]]:
        seen: list[str] = []

        async def work() -> None:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                seen.append("cancelled")
                raise

        task = rpc.TaskStarter().start(work())
        assert task is not None
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return task.cancelled(), seen

    cancelled, seen = asyncio.run(run())
    assert cancelled and seen == ["cancelled"]


def test_an_error_in_the_first_step_is_raised_by_the_task() -> None:
    async def run() -> None:
        async def work() -> None:
            raise KeyError("boom")

        task = rpc.TaskStarter().start(work())
        assert task is not None  # not done quietly: the error is kept for its awaiter
        with pytest.raises(KeyError, match="boom"):
            await task

    asyncio.run(run())


async def _no_wait() -> None:
    """An await that never suspends."""


def test_handlers_that_never_wait_cost_no_task_each_yet_see_a_current_task() -> None:
    async def run() -> tuple[int, list[bool], list[str]]:
        before = len(asyncio.all_tasks())
        current: list[bool] = []
        values: list[str] = []

        async def work(number: int) -> None:
            current.append(asyncio.current_task() is not None)
            values.append(WHO.get())
            WHO.set(f"handler {number}")  # must not reach the next handler
            async with asyncio.timeout(10):  # needs a current task
                await _no_wait()

        starter = rpc.TaskStarter()
        for number in range(50):
            assert starter.start(work(number)) is None
        made = len(asyncio.all_tasks()) - before
        starter.close()
        return made, current, values

    made, current, values = asyncio.run(run())
    assert made == 1  # one idle task lent to all fifty, not one each
    assert all(current) and values == ["outer"] * 50


def test_each_handler_that_waits_gets_a_task_of_its_own() -> None:
    async def run() -> tuple[list[Any], list[Any], list[str]]:
        release = asyncio.Event()
        seen: list[Any] = []

        async def work(name: str) -> str:
            seen.append(asyncio.current_task())
            WHO.set(name)
            await release.wait()
            seen.append(asyncio.current_task())
            return WHO.get()

        starter = rpc.TaskStarter()
        tasks = [starter.start(work(name)) for name in ("a", "b", "c")]
        release.set()
        results = [await task for task in tasks if task is not None]
        return tasks, seen, results

    tasks, seen, results = asyncio.run(run())
    assert len({id(task) for task in tasks}) == 3 and None not in tasks
    # Before and after its wait, a handler sees the task start() returned for it.
    assert seen[:3] == tasks and seen[3:] == tasks
    assert results == ["a", "b", "c"]


def test_cancelling_a_task_before_its_next_step_cancels_what_it_awaits() -> None:
    async def run() -> tuple[bool, bool]:
        async def inner() -> None:
            await asyncio.sleep(10)

        inner_task: list[asyncio.Task[None]] = []

        async def work() -> None:
            inner_task.append(asyncio.ensure_future(inner()))
            await inner_task[0]

        task = rpc.TaskStarter().start(work())
        assert task is not None
        task.cancel()  # before the task ever stepped: as asyncio, the awaited task too
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0)
        return task.cancelled(), inner_task[0].cancelled()

    assert asyncio.run(run()) == (True, True)


def test_a_cancelled_idle_task_is_replaced_and_close_ends_the_idle_one() -> None:
    async def run() -> tuple[bool, bool, bool, Any]:
        lent: list[asyncio.Task[Any]] = []

        async def grab() -> None:
            task = asyncio.current_task()
            assert task is not None
            lent.append(task)

        async def waits() -> str:
            await asyncio.sleep(0)
            return "rest ran"

        starter = rpc.TaskStarter()
        assert starter.start(grab()) is None
        lent[0].cancel()  # a handler kept its task and cancelled it once done
        await asyncio.sleep(0)
        task = starter.start(waits())
        assert task is not None and task is not lent[0]
        outcome = await task
        assert starter.start(grab()) is None
        starter.close()
        await asyncio.sleep(0)
        return lent[0].cancelled(), lent[1].cancelled(), lent[1] is not task, outcome

    assert asyncio.run(run()) == (True, True, True, "rest ran")


def test_a_start_inside_a_first_step_gets_a_task_of_its_own() -> None:
    async def run() -> tuple[bool, list[str], int]:
        release = asyncio.Event()
        starter = rpc.TaskStarter()
        inner_tasks: list[Any] = []
        before = len(asyncio.all_tasks())

        async def inner() -> str:
            await release.wait()
            return "inner"

        async def outer() -> str:
            inner_tasks.append(starter.start(inner()))  # during outer's first step
            await release.wait()
            return "outer"

        outer_task = starter.start(outer())
        assert outer_task is not None and inner_tasks[0] is not None
        release.set()
        results = [await outer_task, await inner_tasks[0]]
        for _ in range(3):  # quick handlers, then nothing left idle but one task
            assert starter.start(_no_wait()) is None
        await asyncio.sleep(0)
        left = len(asyncio.all_tasks()) - before
        return outer_task is not inner_tasks[0], results, left

    distinct, results, left = asyncio.run(run())
    assert distinct and results == ["outer", "inner"] and left == 1


# ---------------------------------------------------------------- pipes by callback


async def serve_over_pipe(
    chunks: list[bytes], limit: int = 200, handlers: dict[str, rpc.Handler] = HANDLERS
) -> list[Any]:
    """Write ``chunks`` into a real pipe read by a PipeChannel; the answers sent."""
    read_end, write_end = os.pipe()
    sent: list[bytes] = []

    async def write(data: bytes) -> None:
        sent.append(data)

    async def watch(reader: Any) -> None:
        reader.watch(read_end)

    channel = rpc.PipeChannel(watch, write, limit, "pipe")
    connection = rpc.Connection(channel, LOG, METHODS)
    connection.serve_with(handlers)
    runner = asyncio.ensure_future(connection.run())
    for chunk in chunks:
        os.write(write_end, chunk)
        await asyncio.sleep(0.001)
    os.close(write_end)
    await asyncio.wait_for(runner, 10)
    os.close(read_end)
    return [json.loads(data) for data in sent]


def _lines() -> bytes:
    return (
        json.dumps(request("add", {"a": 1, "b": 2}, id=1)).encode()
        + b"\r\n\n   \n"  # CRLF, then blank lines (skipped)
        + b"x" * 201  # one byte over the limit
        + b"\n"
        + json.dumps(request("now", id=2)).encode().ljust(200)  # exactly the limit
        + b"\n"
        + json.dumps(request("now", id=3)).encode()  # no newline: ends at EOF
    )


def _outcomes(answers: list[Any]) -> list[tuple[Any, Any]]:
    return sorted(
        (str(a.get("id")), a.get("result", a.get("error", {}).get("message")))
        for a in answers
    )


@pytest.mark.parametrize("split", [1, 2, 7, 50, 10_000])
def test_lines_are_framed_the_same_in_any_split(split: int) -> None:
    data = _lines()
    chunks = [data[i : i + split] for i in range(0, len(data), split)]
    answers = asyncio.run(serve_over_pipe(chunks))
    assert _outcomes(answers) == [
        ("1", 3),
        ("2", "noon"),
        ("3", "noon"),
        ("None", "invalid request: message too large (limit 200 bytes)"),
    ]


def test_a_line_one_byte_under_the_limit_is_read_and_one_over_is_refused() -> None:
    line = json.dumps(request("now", id=9)).encode()
    fits = asyncio.run(serve_over_pipe([line.ljust(200) + b"\n"]))
    over = asyncio.run(serve_over_pipe([line.ljust(201) + b"\n"]))
    assert [a.get("result") for a in fits] == ["noon"]
    assert [a["error"]["code"] for a in over] == [rpc.INVALID_REQUEST]


def test_what_follows_a_waiting_notification_waits_for_it() -> None:
    order: list[str] = []
    release: list[asyncio.Event] = []

    async def ping(_params: Any) -> None:
        order.append("ping started")
        await release[0].wait()
        order.append("ping done")

    async def now(_params: Any) -> str:
        order.append("now")
        return "noon"

    async def run() -> list[Any]:
        release.append(asyncio.Event())
        asyncio.get_running_loop().call_later(0.05, release[0].set)
        notification = json.dumps({"jsonrpc": "2.0", "method": "ping"}).encode()
        following = json.dumps(request("now", id=1)).encode()
        return await serve_over_pipe(
            [notification + b"\n" + following + b"\n"],
            handlers={**HANDLERS, "ping": ping, "now": now},
        )

    answers = asyncio.run(run())
    assert order == ["ping started", "ping done", "now"]
    assert [a["result"] for a in answers] == ["noon"]


def test_a_waiting_request_does_not_hold_up_what_follows() -> None:
    order: list[str] = []

    async def add(params: Any) -> int:
        order.append("add started")
        await asyncio.sleep(0.05)
        order.append("add done")
        return 0

    async def now(_params: Any) -> str:
        order.append("now")
        return "noon"

    first = json.dumps(request("add", {"a": 1, "b": 1}, id=1)).encode()
    second = json.dumps(request("now", id=2)).encode()
    answers = asyncio.run(
        serve_over_pipe(
            [first + b"\n" + second + b"\n"],
            handlers={**HANDLERS, "add": add, "now": now},
        )
    )
    assert order == ["add started", "now", "add done"]
    assert [a["id"] for a in answers] == [2, 1]


def test_a_response_never_overtakes_a_notification_sent_before_it() -> None:
    async def run() -> list[str]:
        order: list[str] = []
        release = asyncio.Event()

        async def ping(_params: Any) -> None:
            order.append("ping started")
            await release.wait()
            order.append("ping done")

        a: asyncio.Queue[str | None] = asyncio.Queue()
        b: asyncio.Queue[str | None] = asyncio.Queue()
        from tests.runtime.test_jsonrpc import Pipe

        client = rpc.Connection(Pipe(a, b), LOG, METHODS)
        client.serve_with({"ping": ping})
        runner = asyncio.ensure_future(client.run())
        pending = asyncio.ensure_future(client.request("now", None))
        await asyncio.sleep(0)
        sent = json.loads(await b.get() or "null")
        await a.put(json.dumps({"jsonrpc": "2.0", "method": "ping"}))
        await a.put(json.dumps({"jsonrpc": "2.0", "id": sent["id"], "result": "x"}))
        await asyncio.sleep(0.02)
        order.append(f"response delivered: {pending.done()}")
        release.set()
        order.append(f"result: {await pending}")
        await a.put(None)
        await runner
        return order

    assert asyncio.run(run()) == [
        "ping started",
        "response delivered: False",
        "ping done",
        "result: x",
    ]


class _Flow:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def pause_reading(self) -> None:
        self.calls.append("pause")

    def resume_reading(self) -> None:
        self.calls.append("resume")


def test_a_flood_behind_a_waiting_notification_pauses_the_pipe_then_resumes() -> None:
    async def run() -> tuple[list[str], int, int]:
        release = asyncio.Event()

        async def ping(_params: Any) -> None:
            await release.wait()

        sent: list[str] = []

        class Sink:
            peer = "sink"

            async def receive(self) -> None:
                return None

            async def send(self, text: str) -> None:
                sent.append(text)

            async def close(self) -> None:
                return None

        connection = rpc.Connection(Sink(), LOG, METHODS)
        connection.serve_with({**HANDLERS, "ping": ping})
        flow = _Flow()
        connection.flow = flow  # type: ignore[assignment]  # the reader's two calls
        connection.feed(json.dumps({"jsonrpc": "2.0", "method": "ping"}))
        for number in range(rpc.INBOX_LIMIT + 5):
            connection.feed(json.dumps(request("now", id=number)))
        paused = list(flow.calls)
        held = len(sent)
        release.set()
        for _ in range(20):
            await asyncio.sleep(0)
        return paused + flow.calls[len(paused) :], held, len(sent)

    calls, held, answered = asyncio.run(run())
    assert calls == [
        "pause",
        "resume",
    ]  # paused once at the limit, resumed once drained
    assert held == 0  # nothing answered while the notification ran
    assert answered == rpc.INBOX_LIMIT + 5
