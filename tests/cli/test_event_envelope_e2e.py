"""An event-envelope protocol described only in spec.toml and a TypeScript file whose
message interfaces are written as DAP writes them (no ``[methods]`` table), generated with
zero edits: its stub server and typed client talk over stdio in both framings (a
request answered with its typed body, a failure as a typed ``RpcError`` carrying code and
message, an event handed to the client's handler), ``codegen serve`` answers requests and
refuses a message without a command, the client reports a peer's invalid answers (a
``request_seq`` answering no request sent, a missing ``success``, a body of the wrong
type) beside the twin that answers right, the package passes mypy --strict, ruff and
black, and the docs list the envelope's keys.  A misspelt ``[transport.fields]`` key stops
``codegen generate`` with an error at its line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_support import run_codegen

BIN = Path(sys.executable).parent

# DAP's keys but two: the request's command is "op", the answer's body "data".
SPEC_TOML = """\
[spec]
id = "dbg"
title = "Tiny debug adapter protocol"
version = "1"
language = "typescript"
sources = ["protocol.ts"]
roles = ["client", "adapter"]

[transport]
kind = "event-envelope"
framings = ["content-length-stdio", "ndjson-stdio"]

[transport.fields]
command = "op"
body = "data"
"""

PROTOCOL_TS = """\
// The messages, as the Debug Adapter Protocol writes them (with this spec's keys): the
// methods are read from them, no [methods] table.
export interface ProtocolMessage {
  seq: number;
  type: 'request' | 'response' | 'event' | string;
}

export interface Request extends ProtocolMessage {
  type: 'request';
  op: string;
  arguments?: any;
}

export interface Response extends ProtocolMessage {
  type: 'response';
  request_seq: number;
  success: boolean;
  op: string;
  message?: string;
  data?: any;
}

export interface Event extends ProtocolMessage {
  type: 'event';
  event: string;
  data?: any;
}

export interface LaunchRequest extends Request {
  op: 'launch';
  arguments: LaunchArguments;
}

/** Arguments of `launch`. */
export interface LaunchArguments {
  /** The program to debug. */
  program: string;
  stopOnEntry?: boolean;
}

export interface LaunchResponse extends Response {
  data: LaunchBody;
}

/** What `launch` answers. */
export interface LaunchBody {
  processId: number;
}

export interface EvaluateRequest extends Request {
  op: 'evaluate';
  arguments: EvaluateArguments;
}

export interface EvaluateArguments {
  expression: string;
}

export interface EvaluateResponse extends Response {
  data: EvaluateBody;
}

export interface EvaluateBody {
  result: string;
  variablesReference: number;
}

export interface StoppedEvent extends Event {
  event: 'stopped';
  data: StoppedBody;
}

/** Sent when execution stops. */
export interface StoppedBody {
  reason: "entry" | "breakpoint" | "step";
  threadId?: number;
}
"""

# A real adapter: the generated handler subclassed, as a user would.
ADAPTER = """\
import sys

from dbg_protocol import RpcError
from dbg_protocol.models import (
    EvaluateArguments, EvaluateBody, LaunchArguments, LaunchBody, StoppedBody,
)
from dbg_protocol.server import StubHandler, main


class Adapter(StubHandler):
    async def launch(self, params: LaunchArguments) -> LaunchBody:
        await self.peer.stopped(StoppedBody(reason="entry", threadId=1))
        return LaunchBody(processId=42)

    async def evaluate(self, params: EvaluateArguments) -> EvaluateBody:
        if params.expression == "boom":
            raise RpcError(3001, "cannot evaluate boom")
        return EvaluateBody(result=params.expression.upper(), variablesReference=0)


sys.exit(main(handler_class=Adapter))
"""

USER = """\
import asyncio
import json
import sys

from dbg_protocol import RpcError
from dbg_protocol.client import ClientHandler, DbgClient
from dbg_protocol.models import EvaluateArguments, LaunchArguments, StoppedBody


class Events(ClientHandler):
    def __init__(self) -> None:
        self.got: asyncio.Queue[StoppedBody] = asyncio.Queue()

    async def stopped(self, params: StoppedBody) -> None:
        await self.got.put(params)


async def main(framing: str) -> dict[str, object]:
    out: dict[str, object] = {}
    events = Events()
    command = [sys.executable, "adapter.py", "-q", "--transport", framing]
    async with DbgClient.stdio(
        command, handler=events, framing=framing, timeout=20
    ) as client:
        out["launch"] = (await client.launch(LaunchArguments(program="a.out"))).model_dump()
        stopped = await asyncio.wait_for(events.got.get(), 10)
        out["event"] = [type(stopped).__name__, stopped.model_dump()]
        body = await client.evaluate(EvaluateArguments(expression="x"))
        out["evaluate"] = [type(body).__name__, body.model_dump()]
        try:
            await client.evaluate(EvaluateArguments(expression="boom"))
        except RpcError as error:
            out["error"] = [type(error).__name__, error.code, error.message]
    async with DbgClient.stdio(framing=framing, timeout=20) as client:  # the stub
        out["stub"] = (await client.launch(LaunchArguments(program="a.out"))).model_dump()
    return out


print(json.dumps(asyncio.run(main(sys.argv[1]))))
"""

# A peer that answers launch as its program says: right, or wrong in one way.
FAKE_ADAPTER = """\
import json
import sys

for seq, line in enumerate(sys.stdin, 1):
    request = json.loads(line)
    how = request["arguments"]["program"]
    response = {"seq": seq, "type": "response", "request_seq": request["seq"],
                "op": request["op"], "success": True, "data": {"processId": 7}}
    if how == "wrong-seq":
        response["request_seq"] = request["seq"] + 100
    elif how == "no-success":
        del response["success"]
    elif how == "bad-body":
        response["data"] = {"processId": "seven"}
    print(json.dumps(response), flush=True)
"""

ASK_FAKE = """\
import asyncio
import json
import sys

from dbg_protocol import InvalidResult, RpcError
from dbg_protocol.client import DbgClient
from dbg_protocol.models import LaunchArguments


async def main(how: str) -> list[object]:
    command = [sys.executable, "fake.py"]
    async with DbgClient.stdio(command, framing="ndjson-stdio", timeout=20) as client:
        try:
            body = await client.launch(LaunchArguments(program=how))
        except InvalidResult as error:
            return ["InvalidResult", error.message]
        except RpcError as error:
            return ["RpcError", error.message]
        return ["ok", body.model_dump()]


print(json.dumps(asyncio.run(main(sys.argv[1]))))
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("event-envelope")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "dbgapp"\nversion = "0"\n\n[tool.codegen]\noutput = "out"\n'
    )
    spec = root / "specs" / "dbg"
    spec.mkdir(parents=True)
    (spec / "spec.toml").write_text(SPEC_TOML, encoding="utf-8")
    (spec / "protocol.ts").write_text(PROTOCOL_TS, encoding="utf-8")
    done = run_codegen(root, "generate", "-q")
    assert done.returncode == 0, done.stderr
    for name, text in [
        ("adapter.py", ADAPTER),
        ("user.py", USER),
        ("fake.py", FAKE_ADAPTER),
        ("ask_fake.py", ASK_FAKE),
    ]:
        (root / name).write_text(text, encoding="utf-8")
    return root


def _python(project: Path, *args: str, stdin: str = "") -> str:
    env = {**os.environ, "PYTHONPATH": str(project / "out" / "dbg" / "python")}
    done = subprocess.run(
        [sys.executable, *args],
        cwd=project,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("framing", ["content-length-stdio", "ndjson-stdio"])
def test_stub_and_typed_client_talk_envelopes(project: Path, framing: str) -> None:
    out = json.loads(_python(project, "user.py", framing))
    assert out["launch"] == {"processId": 42}
    assert out["event"] == ["StoppedBody", {"reason": "entry", "threadId": 1}]
    assert out["evaluate"] == [
        "EvaluateBody",
        {"result": "X", "variablesReference": 0},
    ]
    assert out["error"] == ["RpcError", 3001, "cannot evaluate boom"]
    assert out["stub"] == {"processId": 0}


def test_codegen_serve_answers_and_refuses_a_message_without_command(
    project: Path,
) -> None:
    messages = [
        {"seq": 1, "type": "request", "op": "launch", "arguments": {"program": "p"}},
        {"seq": 2, "type": "request", "arguments": {"program": "p"}},
        {"seq": 3, "type": "request", "op": "launch", "arguments": {}},
        {"seq": 4, "type": "event", "event": "stopped"},  # not answered
    ]
    done = subprocess.run(
        [sys.executable, "-m", "codegen", "serve", "dbg", "--transport", "stdio"],
        cwd=project,
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 3
    assert answers[0] == {
        "seq": 1,
        "type": "response",
        "request_seq": 1,
        "op": "launch",
        "success": True,
        "data": {"processId": 0},
    }
    refused = answers[1]
    assert (refused["request_seq"], refused["success"]) == (2, False)
    assert refused["message"] == 'invalid request: "op" must be a string'
    assert refused["data"]["error"]["id"] == -32600
    invalid = answers[2]
    assert invalid["success"] is False and "invalid params" in invalid["message"]


@pytest.mark.parametrize(
    ("how", "expected"),
    [
        ("right", ["ok", {"processId": 7}]),
        (
            "wrong-seq",
            ["RpcError", 'invalid answer: "request_seq" 101 answers no request sent'],
        ),
        (
            "no-success",
            [
                "RpcError",
                'invalid answer to launch: "success" must be true or false, not missing',
            ],
        ),
        ("bad-body", ["InvalidResult", "invalid result of launch"]),
    ],
)
def test_the_client_reports_invalid_answers(
    project: Path, how: str, expected: list[object]
) -> None:
    assert json.loads(_python(project, "ask_fake.py", how)) == expected


def test_only_this_kind_carries_the_envelope_runtime_and_it_lints(
    project: Path, repo: Path
) -> None:
    package = project / "out" / "dbg" / "python" / "dbg_protocol"
    assert (package / "_rpc" / "event_envelope.py").is_file()
    assert not (
        repo / "generated/mcp/python/mcp_protocol/_rpc/event_envelope.py"
    ).exists()
    lint = [
        [str(BIN / "ruff"), "check", "--isolated", "dbg_protocol"],
        [str(BIN / "black"), "--check", "-q", "dbg_protocol"],
        [
            str(BIN / "mypy"),
            "--strict",
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            "dbg_protocol",
        ],
    ]
    for argv in lint:
        done = subprocess.run(
            argv, cwd=package.parent, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_docs_list_the_envelope_keys(project: Path) -> None:
    index = (project / "out" / "dbg" / "docs" / "index.md").read_text("utf-8")
    assert "**Transport** event-envelope over content-length-stdio" in index
    assert "## Envelope" in index
    assert "| command | `op` |" in index and "| body | `data` |" in index
    assert "| seq | `seq` |" in index
    assert "adapter → client<br>event |" in index  # an event, not a notification
    methods = (project / "out" / "dbg" / "docs" / "methods.md").read_text("utf-8")
    assert "*event* · adapter → client" in methods
    assert "*request* · client → adapter" in methods


def test_a_misspelt_envelope_key_stops_generate_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.codegen]\noutput = 'out'\n")
    spec = tmp_path / "specs" / "dbg"
    spec.mkdir(parents=True)
    wrong = SPEC_TOML.replace('command = "op"', 'comand = "op"')
    (spec / "spec.toml").write_text(wrong, encoding="utf-8")
    (spec / "protocol.ts").write_text(PROTOCOL_TS, encoding="utf-8")
    done = run_codegen(tmp_path, "generate", "-q")
    assert done.returncode != 0
    line = wrong.splitlines().index('comand = "op"') + 1
    assert f"specs/dbg/spec.toml:{line}:1:" in done.stderr
    assert "did you mean 'command'?" in done.stderr
    assert not (tmp_path / "out" / "dbg").exists()


def test_codegen_validate_reads_envelope_traffic(project: Path) -> None:
    transcript = project / "transcript.jsonl"
    requests = [
        {"seq": 1, "type": "request", "op": "launch", "arguments": {"program": "a"}},
        {
            "seq": 2,
            "type": "request",
            "op": "evaluate",
            "arguments": {"expression": "x"},
        },
    ]
    _python(
        project,
        "adapter.py",
        "-q",
        "--transport",
        "stdio",
        "--transcript",
        str(transcript),
        stdin="".join(json.dumps(m) + "\n" for m in requests),
    )
    # the stub's own transcript: requests, an event, responses paired by request_seq
    clean = run_codegen(project, "validate", "dbg", str(transcript))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "5 message(s)" in clean.stdout + clean.stderr
    bad = [
        {"seq": 1, "type": "request", "op": "launch", "arguments": {"progrm": "a"}},
        {"seq": 2, "type": "request", "op": "lunch"},
        {"seq": 3, "type": "ask"},
        {"seq": 4, "type": "event", "event": "stopped", "data": {"reason": "nope"}},
        {"seq": 5, "type": "request", "op": "launch", "arguments": {"program": "a"}},
        {"seq": 1, "type": "response", "request_seq": 5, "op": "launch"},
        {"seq": 2, "type": "response", "request_seq": 5, "success": True, "data": {}},
    ]
    traffic = project / "bad.jsonl"
    traffic.write_text("".join(json.dumps(m) + "\n" for m in bad))
    found = run_codegen(project, "validate", "dbg", "bad.jsonl")
    assert found.returncode == 1
    lines = [line.split(" (declared")[0] for line in found.stdout.splitlines()]
    assert lines == [
        "bad.jsonl:1: /arguments/program: Field required",
        "bad.jsonl:2: /op: unknown method 'lunch'; did you mean 'launch'?",
        'bad.jsonl:3: /type: must be "request", "response" or "event"',
        "bad.jsonl:4: /data/reason: Input should be 'entry', 'breakpoint' or 'step'",
        "bad.jsonl:6: /success: must be true or false",
        "bad.jsonl:7: /data/processId: Field required",
    ]
