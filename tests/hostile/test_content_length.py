"""Framing ``content-length-stdio`` (issue 33, item 4): ``Content-Length: N\\r\\n\\r\\n``
headers before each message, as the editor and debugger protocols frame JSON-RPC.

A spec made by ``codegen init`` declares it (and ndjson) in a project of its own; the
generated stub serves it (``python -m <pkg>.server`` and ``codegen serve ID --transport
content-length-stdio``), the typed client speaks it, and the stub meets the hostile
inputs of the ndjson suite in this framing's shape: bad headers, wrong lengths, missing
CRLF, huge lengths.  After each, the stub still answers, and it never crashes or hangs.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli_support import run_codegen

WITHIN = 60.0


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("content-length")
    (root / "pyproject.toml").write_text(
        '[tool.codegen]\nspecs = ["specs"]\noutput = "generated"\n'
    )
    made = run_codegen(root, "init", "lsplike", "--language", "typescript")
    assert made.returncode == 0, made.stderr
    toml = root / "specs" / "lsplike" / "spec.toml"
    text = toml.read_text()
    assert 'framings = ["ndjson-stdio", "websocket"]' in text
    toml.write_text(
        text.replace(
            'framings = ["ndjson-stdio", "websocket"]',
            'framings = ["content-length-stdio", "ndjson-stdio"]',
        )
    )
    generated = run_codegen(root, "generate")
    assert generated.returncode == 0, generated.stdout + generated.stderr
    python_dir = str(root / "generated" / "lsplike" / "python")
    sys.path.insert(0, python_dir)
    try:
        yield root
    finally:
        sys.path.remove(python_dir)
        for name in [m for m in sys.modules if m.startswith("lsplike_protocol")]:
            del sys.modules[name]


def _env(project: Path) -> dict[str, str]:
    python_dir = project / "generated" / "lsplike" / "python"
    return {**os.environ, "PYTHONPATH": str(python_dir)}


def _framed(message: Any) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%b" % (len(body), body)


def _initialize(request_id: int) -> bytes:
    params = {"protocolVersion": 1}
    message = {"jsonrpc": "2.0", "id": request_id, "method": "initialize"}
    return _framed(message | {"params": params})


def _read_framed(data: bytes) -> list[Any]:
    """Every message of a Content-Length framed stream (what the stub wrote)."""
    out: list[Any] = []
    while data:
        header, separator, rest = data.partition(b"\r\n\r\n")
        assert separator, f"unframed output: {data[:200]!r}"
        (line,) = header.split(b"\r\n")
        name, _, value = line.partition(b": ")
        assert name == b"Content-Length", line
        length = int(value)
        out.append(json.loads(rest[:length]))
        data = rest[length:]
    return out


def _serve(project: Path, data: bytes, *argv: str) -> tuple[list[Any], str, int]:
    command = argv or (
        sys.executable,
        "-m",
        "lsplike_protocol.server",
        "--transport",
        "content-length-stdio",
    )
    done = subprocess.run(
        command,
        input=data,
        capture_output=True,
        env=_env(project),
        cwd=project,
        timeout=WITHIN,
        check=False,
    )
    return _read_framed(done.stdout), done.stderr.decode(), done.returncode


def test_the_stub_answers_framed_requests(project: Path) -> None:
    answers, errors, status = _serve(project, _initialize(1) + _initialize(2))
    assert status == 0, errors
    assert [a["id"] for a in answers] == [1, 2]
    assert answers[0]["result"]["protocolVersion"] == 1 or "result" in answers[0]


def test_codegen_serve_takes_the_framing_name(project: Path) -> None:
    argv = [sys.executable, "-m", "codegen", "serve", "lsplike"]
    answers, errors, status = _serve(
        project, _initialize(7), *argv, "--transport", "content-length-stdio", "-q"
    )
    assert status == 0, errors
    assert [a["id"] for a in answers] == [7]


def test_ndjson_is_still_served_by_its_name(project: Path) -> None:
    # The twin: the same stub over the other framing answers one message per line.
    line = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "initialize"})
    done = subprocess.run(
        [sys.executable, "-m", "lsplike_protocol.server", "--transport", "stdio"],
        input=(line + "\n").encode(),
        capture_output=True,
        env=_env(project),
        timeout=WITHIN,
        check=False,
    )
    assert json.loads(done.stdout.splitlines()[0])["id"] == 3
    assert b"Content-Length" not in done.stdout


@pytest.mark.parametrize("framing", ["content-length-stdio", "ndjson-stdio"])
def test_the_typed_client_round_trips_over_each_framing(
    project: Path, framing: str
) -> None:
    from lsplike_protocol.client import LsplikeClient
    from lsplike_protocol.models import InitializeParams

    async def scenario() -> Any:
        async with LsplikeClient.stdio(framing=framing, timeout=WITHIN) as client:  # type: ignore[arg-type]
            return await client.initialize(InitializeParams(protocol_version=1))

    result = asyncio.run(scenario())
    assert isinstance(result.capabilities, list)


HOSTILE = {
    "bad length": b"Content-Length: abc\r\n\r\n{}",
    "negative length": b"Content-Length: -5\r\n\r\n{}",
    "no length": b"Content-Type: application/json\r\n\r\n{}",
    "length twice": b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
    "header without colon": b"Content-Length 2\r\n\r\n{}",
    "space before colon": b"Content-Length : 2\r\n\r\n{}",
    "missing CRLF": b"Content-Length: 2\n\n{}",
    "length longer than body": _initialize(99).replace(
        b"Length: %d" % (len(_initialize(99)) - 22),
        b"Length: %d" % (len(_initialize(99)) - 2),
    ),
    "length shorter than body": b"Content-Length: 5\r\n\r\n" + _initialize(98)[30:],
    "body not JSON": b"Content-Length: 4\r\n\r\nnope",
    "body not UTF-8": b"Content-Length: 4\r\n\r\n\xff\xfe\xfd\xfc",
    "endless header": b"X-Pad: " + b"a" * 20000 + b"\r\n\r\n",
    "NUL in header": b"Content-\x00Length: 2\r\n\r\n{}",
    "empty body": b"Content-Length: 0\r\n\r\n",
    "21 digits": b"Content-Length: 123456789012345678901\r\n\r\n{}",
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_framing_is_answered_and_the_stub_serves_on(
    project: Path, case: str
) -> None:
    # Two good requests after the bad bytes: the first may be taken as part of the
    # bad message (its length was wrong, its header unreadable), the second must be
    # answered.
    data = HOSTILE[case] + _initialize(1001) + _initialize(1002)
    answers, errors, status = _serve(project, data)
    assert status == 0 and "Traceback" not in errors, errors[-2000:]
    codes = [a["error"]["code"] for a in answers if "error" in a]
    assert codes and set(codes) <= {-32700, -32600}, answers
    assert answers[-1]["id"] == 1002 and "result" in answers[-1], answers


def test_a_huge_length_is_refused_unread_and_the_end_comes_cleanly(
    project: Path,
) -> None:
    # 10^15 bytes announced: refused at once (-32600), never awaited or held; what
    # follows is that message's body as far as the framing can tell.
    data = b"Content-Length: 1000000000000000\r\n\r\n" + b"x" * 100000
    answers, errors, status = _serve(project, data)
    assert status == 0 and "Traceback" not in errors
    assert [a["error"]["code"] for a in answers] == [-32600]


def test_input_ending_inside_a_message_is_reported_once(project: Path) -> None:
    data = _initialize(5) + _initialize(6)[:-10]
    answers, errors, status = _serve(project, data)
    assert status == 0
    assert answers[0]["id"] == 5
    assert [a["error"]["code"] for a in answers[1:]] == [-32700]
    assert errors.count("stdio: invalid header: the input ended inside a message") == 1
