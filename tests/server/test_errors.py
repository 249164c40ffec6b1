"""Bad input gets a clear answer and the server keeps serving, over real transports.

One stdio server process per protocol (module scope); WebSocket and HTTP servers on
ephemeral 127.0.0.1 ports.  Each case ends with a valid request still answered.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.server.support import (
    REPO,
    Generated,
    NetworkServer,
    RawStdio,
    with_transport,
)

STDIO = [g for g in with_transport("ndjson-stdio") if g.jsonrpc]
LIMIT = 4096


def _valid_request(gen: Generated) -> tuple[str, Any]:
    """A request with valid params, from the hand-written samples (read directly, so
    these tests need only the generated package, not the frontends).
    """
    methods = gen.module("methods").METHODS
    server_role = _server_role(gen)
    folder = REPO / "specs" / gen.spec / "examples" / "methods"
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        method = data["target"].get("method")
        info = methods.get(method)
        if info is None or info.kind != "request" or info.params is None:
            continue
        if info.receiver != server_role and not info.both_ways:
            continue
        for sample in data["samples"]:
            if sample.get("part") == "params" and sample.get("expect") == "accept":
                value = sample["value"]
                if isinstance(value, dict) and value:
                    info.params.validate_python(value)
                    return method, value
    raise AssertionError("no valid request sample")


def _server_role(gen: Generated) -> str:
    import tomllib

    toml = tomllib.loads((REPO / "specs" / gen.spec / "spec.toml").read_text())
    return str(toml["spec"]["roles"][1])


@pytest.fixture(scope="module", params=STDIO, ids=lambda g: g.spec)
def stdio(request: pytest.FixtureRequest) -> Iterator[tuple[Generated, RawStdio]]:
    gen: Generated = request.param
    server = RawStdio(gen, "--max-message-bytes", str(LIMIT))
    yield gen, server
    assert server.close() == 0
    assert b"Traceback" not in b"".join(server.stderr)


def _works(gen: Generated, server: RawStdio, request_id: Any = 99) -> None:
    method, params = _valid_request(gen)
    answer = server.call(
        {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
    )
    assert answer["id"] == request_id and "result" in answer, answer


def _error(answer: Any, code: int, request_id: Any = None) -> dict[str, Any]:
    assert answer["jsonrpc"] == "2.0"
    assert answer["id"] == request_id, answer
    assert answer["error"]["code"] == code, answer
    assert answer["error"]["message"]
    error: dict[str, Any] = answer["error"]
    return error


BAD_LINES = [
    (b"{not json", -32700),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "x", "params": NaN}', -32700),
    (b"\xff\xfe garbage", -32700),
    (b"[" * 3000, -32700),
    (b"42", -32600),
    (b'"a string"', -32600),
    (b"null", -32600),
    (b'{"jsonrpc": "1.0", "id": 1, "method": "x"}', -32600),
    (b'{"id": 1, "method": "x"}', -32600),
    (b'{"jsonrpc": "2.0", "id": 1, "method": 7}', -32600),
    (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"}', -32600),
    (b'{"jsonrpc": "2.0", "id": true, "method": "x"}', -32600),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "x", "params": 3}', -32600),
]


@pytest.mark.parametrize(("line", "code"), BAD_LINES, ids=range(len(BAD_LINES)))
def test_malformed_messages(
    stdio: tuple[Generated, RawStdio], line: bytes, code: int
) -> None:
    gen, server = stdio
    server.send(line + b"\n")
    answer = server.receive()
    request_id = 1 if code == -32600 and b'"id": 1,' in line else None
    _error(answer, code, request_id)
    _works(gen, server)


def test_unknown_method_echoes_ids_exactly(stdio: tuple[Generated, RawStdio]) -> None:
    gen, server = stdio
    for request_id in (1, 0, -7, "abc", "", "ü/😀", 1.5, 2**70, None):
        message = {"jsonrpc": "2.0", "id": request_id, "method": "no/such-method"}
        answer = server.call(message)
        _error(answer, -32601, request_id)
        assert type(answer["id"]) is type(request_id)
    server.send(b'{"jsonrpc":"2.0","id":1.25e1,"method":"nope"}\n')
    assert server.receive_text().startswith(b'{"jsonrpc":"2.0","id":12.5,')
    _works(gen, server, "after")


def test_invalid_params_carry_json_pointers(stdio: tuple[Generated, RawStdio]) -> None:
    gen, server = stdio
    method, params = _valid_request(gen)
    assert isinstance(params, dict) and params, params
    key = next(iter(params))
    broken = {**params, key: {"not": ["what", "the", "spec", "says"]}}
    answer = server.call(
        {"jsonrpc": "2.0", "id": "p", "method": method, "params": broken}
    )
    error = _error(answer, -32602, "p")
    paths = [item["path"] for item in error["data"]["errors"]]
    assert paths and all(path.startswith("/") for path in paths), error
    assert any(
        path.startswith("/" + key.replace("~", "~0").replace("/", "~1"))
        for path in paths
    )
    _works(gen, server)


def test_notifications_are_never_answered(stdio: tuple[Generated, RawStdio]) -> None:
    gen, server = stdio
    server.send_json({"jsonrpc": "2.0", "method": "no/such-method", "params": {}})
    method, params = _valid_request(gen)
    server.send_json({"jsonrpc": "2.0", "method": method, "params": params})
    server.send_json({"jsonrpc": "2.0", "method": method, "params": {"x": [1]}})
    assert server.silent()
    _works(gen, server)


def test_oversize_message_is_refused_and_skipped(
    stdio: tuple[Generated, RawStdio],
) -> None:
    gen, server = stdio
    method, _params = _valid_request(gen)
    huge = json.dumps(
        {"jsonrpc": "2.0", "id": 5, "method": method, "params": {"x": "y" * LIMIT * 8}}
    )
    server.send(huge.encode() + b"\n")
    error = _error(server.receive(), -32600)
    assert "too large" in error["message"]
    _works(gen, server)


def test_batches_follow_json_rpc(stdio: tuple[Generated, RawStdio]) -> None:
    gen, server = stdio
    method, params = _valid_request(gen)
    batch = [
        {"jsonrpc": "2.0", "id": "a", "method": method, "params": params},
        {"jsonrpc": "2.0", "method": method, "params": params},
        {"jsonrpc": "2.0", "id": "b", "method": "no/such-method"},
        17,
    ]
    answers = server.call(batch)
    assert isinstance(answers, list) and len(answers) == 3, answers
    by_id = {json.dumps(a["id"]): a for a in answers}
    assert "result" in by_id['"a"']
    _error(by_id['"b"'], -32601, "b")
    _error(by_id["null"], -32600)
    _error(server.call([]), -32600)
    server.send_json([{"jsonrpc": "2.0", "method": method, "params": params}])
    assert server.silent()
    _works(gen, server)


def test_protocol_error_codes_and_transcript(tmp_path: Path) -> None:
    ahp = next((g for g in STDIO if g.spec == "ahp"), None)
    assert ahp is not None, "generated/ahp is missing: run make generate"
    transcript = tmp_path / "t.jsonl"
    server = RawStdio(
        ahp, "--fail", "createSession=-32003", "--transcript", str(transcript)
    )
    params = {"session": "copilot:/1", "provider": "copilot"}
    answer = server.call(
        {"jsonrpc": "2.0", "id": 3, "method": "createSession", "params": params}
    )
    error = _error(answer, -32003, 3)
    assert error["message"] == "SessionAlreadyExists"
    assert server.close() == 0
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert [line["direction"] for line in lines] == ["in", "out"]
    assert lines[1]["message"] == answer


def test_handler_failure_answers_32603_without_a_traceback() -> None:
    ahp = next((g for g in STDIO if g.spec == "ahp"), None)
    assert ahp is not None, "generated/ahp is missing: run make generate"
    rpc = ahp.module("_rpc")
    log = rpc.MessageLog("test", quiet=True)

    async def boom(_params: Any) -> Any:
        raise KeyError("secret internals")

    dispatcher = rpc.Dispatcher({"listSessions": boom}, log)
    message = {"jsonrpc": "2.0", "id": 1, "method": "listSessions", "params": {}}
    answer = asyncio.run(rpc.handle_request(dispatcher, message))
    assert answer["error"] == {"code": -32603, "message": "internal error"}


def test_sigterm_and_eof_end_cleanly() -> None:
    for gen in STDIO:
        server = RawStdio(gen)
        _works(gen, server)
        assert server.close() == 0  # EOF
        server = RawStdio(gen)
        _works(gen, server)
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=20) == 0
        time.sleep(0.1)
        assert b"Traceback" not in b"".join(server.stderr)


@pytest.mark.parametrize("gen", with_transport("websocket"), ids=lambda g: g.spec)
def test_websocket_errors_and_oversize(gen: Generated) -> None:
    server = NetworkServer(gen, "websocket", "--max-message-bytes", str(LIMIT))
    method, params = _valid_request(gen)

    async def run() -> None:
        async with (
            aiohttp.ClientSession() as http,
            http.ws_connect(server.url) as socket,
        ):
            await socket.send_str("{oops")
            _error(json.loads(await socket.receive_str()), -32700)
            await socket.send_str('{"jsonrpc":"2.0","id":"x","method":"nope"}')
            _error(json.loads(await socket.receive_str()), -32601, "x")
            await socket.send_str("x" * LIMIT * 4)
            _error(json.loads(await socket.receive_str()), -32600)
            request = {
                "jsonrpc": "2.0",
                "id": 1,
                "method": method,
                "params": params,
            }
            await socket.send_str(json.dumps(request))
            assert "result" in json.loads(await socket.receive_str())

    try:
        asyncio.run(run())
    finally:
        assert server.terminate() == 0
    assert b"Traceback" not in b"".join(server.stderr)


@pytest.mark.parametrize("gen", with_transport("http-post"), ids=lambda g: g.spec)
def test_http_envelope_errors(gen: Generated) -> None:
    server = NetworkServer(gen, "http", "--max-message-bytes", str(LIMIT))
    method, params = _valid_request(gen)

    async def post(http: aiohttp.ClientSession, body: bytes) -> tuple[int, Any]:
        async with http.post(server.url, data=body) as response:
            return response.status, await response.json(content_type=None)

    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            status, answer = await post(http, b"{oops")
            assert status == 400 and answer["error"]["code"] == -32700
            status, answer = await post(http, b"[1]")
            assert status == 400 and answer["error"]["code"] == -32600
            status, answer = await post(http, b'{"method": "nope"}')
            assert answer["error"]["code"] == -32601
            bad = json.dumps(
                {"method": method, "params": {"x": [1]} | {k: 1 for k in params}}
            )
            status, answer = await post(http, bad.encode())
            assert answer["error"]["code"] == -32602
            assert answer["error"]["data"]["errors"][0]["path"].startswith("/")
            status, answer = await post(
                http, b'{"method": "x", "p": "' + b"y" * LIMIT * 4 + b'"}'
            )
            assert status == 413 and answer["error"]["code"] == -32600
            good = json.dumps({"method": method, "params": params, "settings": {}})
            status, answer = await post(http, good.encode())
            assert status == 200 and "result" in answer, answer

    try:
        asyncio.run(run())
    finally:
        assert server.terminate() == 0


def test_every_transport_has_a_protocol_to_test() -> None:
    # The parametrized tests above pass vacuously when their lists come out empty.
    assert STDIO, "no generated JSON-RPC protocol over ndjson-stdio"
    assert with_transport("websocket"), "no generated protocol over websocket"
    assert with_transport("http-post"), "no generated protocol over http-post"
