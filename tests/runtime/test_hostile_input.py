"""The runtime against hostile bytes, as Python: strict UTF-8 JSON in and out, numbers no
double holds, lone surrogates, absent params of an all-optional params type, and the
WebSocket oversize filter fed in every split (tests/server/test_hostile.py drives the
generated copies over real transports)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import struct
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, TypeAdapter

import codegen.runtime as rpc


@pytest.mark.parametrize(
    "data",
    [
        b'{"a":"\xff"}',
        b'{"a":"\xed\xa0\x80"}',  # an encoded surrogate: not UTF-8
        '{"a":1}'.encode("utf-16"),
        '{"a":1}'.encode("utf-32"),
        b'\xef\xbb\xbf{"a":1}',
        b'{"a":1e400}',
        b'{"a":-1e400}',
        b'{"a":NaN}',
        b'{"a":' + b"1" * 5000 + b"}",
        b"[" * 100_000,
    ],
)
def test_loads_refuses_what_is_not_utf8_json_of_doubles(data: bytes) -> None:
    with pytest.raises(rpc.RpcError) as caught:
        rpc.loads(data)
    assert caught.value.code == rpc.PARSE_ERROR


def test_loads_keeps_lone_surrogates_and_dumps_echoes_them_as_ascii() -> None:
    message = rpc.loads(b'{"id":"\\ud800x","v":"\xc3\xa9"}')
    assert message == {"id": "\ud800x", "v": "é"}
    text = rpc.dumps(message)
    assert text == '{"id":"\\ud800x","v":"\\u00e9"}'  # whole message ASCII: encodable
    assert json.loads(text) == message
    assert rpc.dumps({"v": "é"}) == '{"v":"é"}'  # ordinary text stays as it is
    with pytest.raises(ValueError):
        rpc.dumps({"v": float("inf")})


class Empty(BaseModel):
    model_config = ConfigDict(strict=True)


class Needs(BaseModel):
    model_config = ConfigDict(strict=True)
    x: int


def _dispatch(message: Any) -> Any:
    methods: rpc.Methods = {
        name: rpc.MethodInfo(
            name, kind, "a", "b", False, TypeAdapter(model), None  # type: ignore[arg-type]
        )
        for name, kind, model in (
            ("shutdown", "notification", Empty),
            ("need", "notification", Needs),
            ("needr", "request", Needs),
        )
    }
    seen: list[Any] = []

    async def record(params: Any) -> None:
        seen.append(params)

    handlers = {name: record for name in methods}
    dispatcher = rpc.Dispatcher(handlers, rpc.MessageLog("t", quiet=True), methods)
    answer = asyncio.run(rpc.handle_request(dispatcher, message))
    return answer, seen


def test_absent_params_read_as_an_empty_object() -> None:
    # piglet's host sends {"jsonrpc":"2.0","method":"shutdown"}: ShutdownParams is an
    # empty struct and Go's Message.Params is omitempty.
    answer, seen = _dispatch({"jsonrpc": "2.0", "method": "shutdown"})
    assert answer is None and seen == [Empty()]
    answer, seen = _dispatch({"jsonrpc": "2.0", "method": "need"})
    assert answer is None and seen == []  # dropped: x is required
    answer, seen = _dispatch({"jsonrpc": "2.0", "id": 1, "method": "needr"})
    assert answer["error"]["code"] == rpc.INVALID_PARAMS and seen == []
    assert answer["error"]["message"] == "params are required for needr"
    assert answer["error"]["data"]["errors"][0]["path"] == "/x"


def test_an_answer_that_is_not_json_becomes_an_internal_error() -> None:
    sent: list[str] = []

    class Sink:
        peer = "test"

        async def send(self, text: str) -> None:
            sent.append(text)

    connection = rpc.Connection(Sink(), methods={})  # type: ignore[arg-type]
    response: dict[str, Any] = {"jsonrpc": "2.0", "id": 4}
    response["error"] = {"code": 1, "message": "m"}
    response["error"]["data"] = float("nan")
    asyncio.run(connection._send(response))
    assert json.loads(sent[0])["error"]["code"] == rpc.INTERNAL_ERROR
    assert json.loads(sent[0])["id"] == 4


# --------------------------------------------------------- the WebSocket oversize filter


def frame(opcode: int, payload: bytes, fin: bool = True, mask: bool = True) -> bytes:
    header = bytes([(0x80 if fin else 0) | opcode])
    flag = 0x80 if mask else 0
    if len(payload) < 126:
        header += bytes([flag | len(payload)])
    elif len(payload) < 65536:
        header += bytes([flag | 126]) + struct.pack(">H", len(payload))
    else:
        header += bytes([flag | 127]) + struct.pack(">Q", len(payload))
    if not mask:
        return header + payload
    key = os.urandom(4)
    return header + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


class Inner:
    def __init__(self) -> None:
        self.data = bytearray()
        self.eof = False

    def feed_data(self, data: bytes) -> tuple[bool, bytes]:
        self.data += data
        return False, b""

    def feed_eof(self) -> None:
        self.eof = True


LIMIT = 1000


def _stream() -> tuple[bytes, list[bytes | None]]:
    """Frames in, and what aiohttp's reader must get (markers for the oversized)."""
    small = frame(0x1, b"a" * 200)
    big = frame(0x1, b"b" * 5000)
    exact = frame(0x2, b"c" * LIMIT)
    first = frame(0x1, b"d" * 400, fin=False)
    ping = frame(0x9, b"hi")
    middle = frame(0x0, b"e" * 400, fin=False)
    last_ok = frame(0x0, b"f" * 100, fin=True)
    last_big = frame(0x0, b"f" * 300, fin=True)
    empty = frame(0x1, b"")
    huge_len = frame(0x2, b"g" * 70_000)
    close = frame(0x8, b"\x03\xe8")
    stream = (
        small
        + big
        + exact
        + first
        + ping
        + middle
        + last_ok
        + first
        + middle
        + ping
        + last_big
        + empty
        + huge_len
        + small
        + close
    )
    marker = None  # the filter's marker frame: random per filter
    expected: list[bytes | None] = [
        small,
        marker,
        exact,
        ping,
        first + middle + last_ok,
        ping,
        marker,
        empty,
        marker,
        small,
        close,
    ]
    return stream, expected


@pytest.mark.parametrize("seed", range(25))
def test_the_oversize_filter_in_any_split(seed: int) -> None:
    stream, expected = _stream()
    inner = Inner()
    filtered = rpc.OversizeFilter(inner, LIMIT)
    marker_frame = b"\x82" + bytes([len(filtered.marker)]) + filtered.marker
    want = b"".join(marker_frame if part is None else part for part in expected)
    rng = random.Random(seed)
    position = 0
    while position < len(stream):  # split anywhere, down to single bytes
        step = rng.choice([1, 2, 3, 7, 64, 1000, 100_000])
        assert filtered.feed_data(stream[position : position + step]) == (False, b"")
        position += step
    assert bytes(inner.data) == want
    filtered.feed_eof()
    assert inner.eof
