"""A connection's answers written as text straight from the handler's value: each result
still validated as the spec says (a text that validated before is not validated again,
and a changed value is a new text), any text the fast writer refuses left to the slower
one, a params validator's own bug answered -32603; and the reader's closer look at text
that merely looks like an overflowing number.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, TypeAdapter

import codegen.runtime as rpc
from codegen.runtime import codec, dispatch
from tests.runtime.test_jsonrpc import LOG, request


class Count(BaseModel):
    model_config = ConfigDict(strict=True)
    n: Annotated[int, Field(ge=0)]
    note: str = ""


class Echo(BaseModel):
    model_config = ConfigDict(strict=True)
    text: str


SHARED = Count(n=1)


async def _count(params: Echo) -> Count:
    if params.text == "shared":
        return SHARED  # the same object each time: the caller may change it between
    return Count(n=len(params.text), note=params.text)


async def _echo(params: Echo) -> Echo:
    return Echo(text=params.text)


def _raise_type_error(value: Any) -> Any:
    raise TypeError("a validator's own bug")


METHODS: rpc.Methods = {
    "count": rpc.MethodInfo(
        "count",
        "request",
        "client",
        "server",
        False,
        TypeAdapter(Echo),
        TypeAdapter(Count),
    ),
    "echo": rpc.MethodInfo(
        "echo",
        "request",
        "client",
        "server",
        False,
        TypeAdapter(Echo),
        TypeAdapter(Echo),
    ),
}
HANDLERS: dict[str, rpc.Handler] = {"count": _count, "echo": _echo}


async def _serve(
    lines: list[bytes], between: Any = None, methods: rpc.Methods = METHODS
) -> tuple[list[bytes], rpc.Connection]:
    """Each line written into a real pipe read by a connection, ``between()`` called
    after each; the texts sent, and the connection."""
    read_end, write_end = os.pipe()
    sent: list[bytes] = []

    async def write(data: bytes) -> None:
        sent.append(data)

    async def watch(reader: Any) -> None:
        reader.watch(read_end)

    channel = rpc.PipeChannel(watch, write, 1 << 20, "pipe")
    connection = rpc.Connection(channel, LOG, methods)
    connection.serve_with(HANDLERS)
    runner = asyncio.ensure_future(connection.run())
    for count, line in enumerate(lines, 1):
        os.write(write_end, line + b"\n")
        for _ in range(500):
            await asyncio.sleep(0.001)
            if len(sent) >= count:
                break
        if between is not None:
            between()
    os.close(write_end)
    await asyncio.wait_for(runner, 10)
    os.close(read_end)
    return sent, connection


def _line(method: str, params: Any, ident: Any = 7) -> bytes:
    return json.dumps(request(method, params, id=ident)).encode()


def test_a_result_that_validated_is_answered_again_without_a_second_check() -> None:
    lines = [_line("count", {"text": "shared"}, i) for i in range(3)]
    sent, connection = asyncio.run(_serve(lines))
    answers = [json.loads(text) for text in sent]
    assert [a["result"] for a in answers] == [{"n": 1, "note": ""}] * 3
    assert [a["id"] for a in answers] == [0, 1, 2]
    # remembered once: the same text, one entry
    assert connection.dispatcher.valid_texts == {("count", b'{"n":1,"note":""}')}


def test_a_result_changed_into_an_invalid_one_is_refused_though_it_was_valid() -> None:
    lines = [_line("count", {"text": "shared"}, i) for i in range(2)]

    def spoil() -> None:
        SHARED.n = -5  # pydantic does not check an assignment: the answer must

    try:
        sent, _ = asyncio.run(_serve(lines, between=spoil))
    finally:
        SHARED.n = 1
    answers = [json.loads(text) for text in sent]
    assert answers[0]["result"] == {"n": 1, "note": ""}
    assert answers[1]["error"]["code"] == rpc.INTERNAL_ERROR
    assert answers[1]["error"]["message"] == "internal error: invalid result"


def test_remembered_texts_are_bounded() -> None:
    lines = [
        _line("count", {"text": "x" * (i % 300 + 1)}, i)
        for i in range(dispatch.REMEMBERED_TEXTS + 20)
    ]
    sent, connection = asyncio.run(_serve(lines))
    assert len(sent) == len(lines)
    assert all("result" in json.loads(text) for text in sent)
    assert 0 < len(connection.dispatcher.valid_texts) <= dispatch.REMEMBERED_TEXTS


def test_a_long_result_is_validated_each_time_and_not_remembered() -> None:
    long = "y" * (dispatch.REMEMBERED_TEXT + 1)
    sent, connection = asyncio.run(_serve([_line("echo", {"text": long})]))
    assert json.loads(sent[0])["result"] == {"text": long}
    assert connection.dispatcher.valid_texts == set()


def test_text_the_fast_writer_refuses_is_written_by_the_slower_one() -> None:
    # A lone surrogate, as a peer may send it: echoed exactly, escaped.
    line = (
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"echo","params":{"text":"\\ud800a"}}'
    )
    sent, _ = asyncio.run(_serve([line]))
    text = sent[0].decode().rstrip("\n")
    assert text == '{"jsonrpc":"2.0","id":"\\ud800","result":{"text":"\\ud800a"}}'
    # its twin, without the surrogate: the fast writer's own text, the same JSON
    plain, _ = asyncio.run(_serve([_line("echo", {"text": "é a"}, "id")]))
    assert json.loads(plain[0]) == {
        "jsonrpc": "2.0",
        "id": "id",
        "result": {"text": "é a"},
    }


@pytest.mark.parametrize("ident", [7, -3, 2.5, "seven", None])
def test_ids_are_echoed_exactly_by_the_text_writer(ident: Any) -> None:
    sent, _ = asyncio.run(_serve([_line("echo", {"text": "a"}, ident)]))
    answer = json.loads(sent[0])
    assert answer["id"] == ident and type(answer["id"]) is type(ident)
    assert answer["result"] == {"text": "a"}


def test_a_params_validator_that_fails_by_its_own_bug_answers_internal_error() -> None:
    broken = TypeAdapter(Annotated[Echo, PlainValidator(_raise_type_error)])
    methods = {
        **METHODS,
        "echo": rpc.MethodInfo(
            "echo", "request", "client", "server", False, broken, TypeAdapter(Echo)
        ),
    }
    lines = [_line("echo", {"text": "a"}, 1), _line("count", {"text": "ab"}, 2)]
    sent, _ = asyncio.run(_serve(lines, methods=methods))
    answers = {json.loads(t)["id"]: json.loads(t) for t in sent}
    assert answers[1]["error"]["code"] == rpc.INTERNAL_ERROR
    assert answers[2]["result"] == {"n": 2, "note": "ab"}  # and the connection goes on
    # its twin: params that do not validate are the peer's error, -32602
    bad, _ = asyncio.run(_serve([_line("echo", {"text": 5}, 3)]))
    assert json.loads(bad[0])["error"]["code"] == rpc.INVALID_PARAMS


# ------------------------------------------------ the reader's look at number shapes


@pytest.mark.parametrize(
    "text",
    [
        b'{"trace":"00-80e1afed08e019fc1110464cfa66635c-01"}',  # a hex id: 0e019
        b'{"a":"' + b"1" * 250 + b'"}',  # a run of digits in a string
        b'{"a":12e12,"b":-1.5E-07}',  # exponents of two digits
    ],
)
def test_text_that_only_looks_like_an_overflow_takes_the_fast_reader(
    text: bytes,
) -> None:
    assert not codec.may_overflow(text)
    assert codec.loads(text) == json.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        b"[1e400]",
        b'{"a":-1E+999}',
        b"1e400",
        b'{"a": 1' + b"0" * 400 + b".0}",
        b'{"a":"x,1e400"}',  # in a string, but shaped like a number after a comma
        b'{"a":"' + b"1e0000 " * 20 + b'"}',  # so many shapes: read the slower way
    ],
)
def test_a_number_that_may_overflow_is_read_by_the_standard_reader(
    text: bytes,
) -> None:
    assert codec.may_overflow(text)
    try:
        expected: Any = json.loads(text, parse_float=codec._finite)
    except ValueError:
        with pytest.raises(rpc.RpcError):
            codec.loads(text)
    else:
        assert codec.loads(text) == expected
