"""``codegen validate`` on real traffic: the stub's own transcripts, raw JSON-RPC streams
and batches; every bad line is reported and the next one still read; responses pair with
their requests by id (per peer and direction in a transcript)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codegen.cli.validate import Finding, Record, Validator, read_records
from codegen.project import load_project
from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent

INIT = {"protocolVersion": 1, "clientId": "c"}
INIT_RESULT = {"protocolVersion": 1, "serverSeq": 0, "snapshots": []}


def _request(id_: int, method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}


def _result(id_: int, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "result": result}


@pytest.fixture(scope="module")
def validator() -> Validator:
    project = load_project(REPO)
    return Validator(project, REPO / "specs" / "ahp")


def _check(validator: Validator, *values: Any) -> tuple[list[Finding], int]:
    records = [Record(n, value) for n, value in enumerate(values, 1)]
    return validator.validate(records)


def test_the_stubs_own_transcript_validates(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    lines = [
        json.dumps(_request(1, "initialize", INIT)),
        "this is not json",
        json.dumps([_request(2, "listSessions", {}), _request(3, "listSessions", {})]),
        json.dumps(
            {"jsonrpc": "2.0", "method": "unsubscribe", "params": {"resource": "x"}}
        ),
        json.dumps(
            _request(4, "initialize", {"protocolVersion": "1", "clientId": "c"})
        ),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "ahp_protocol.server", "--transport", "stdio"]
        + ["--quiet", "--transcript", str(transcript)],
        input="\n".join(lines) + "\n",
        env={**os.environ, "PYTHONPATH": str(REPO / "generated/ahp/python")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    entries = transcript.read_text().splitlines()
    assert all("direction" in json.loads(e) for e in entries)
    result = run_codegen(REPO, "validate", "ahp", str(transcript))
    assert result.returncode == 1
    found = result.stdout.splitlines()
    # the peer's non-JSON line and the bad initialize, nothing else (the stub's own
    # answers are all valid, the batch pairs item by item)
    assert len(found) == 2, result.stdout
    raw = next(n for n, e in enumerate(entries, 1) if '"raw"' in e)
    assert found[0] == f"{transcript}:{raw}: /raw: the peer sent text that is not JSON"
    # TS ``number``: one error for the field, not one per member of ``int | float``
    assert "/params/protocolVersion: Input should be a valid number" in found[1]
    # 5 lines in; out: 1 parse error, 1 result, 1 batch of 2 results, 1 invalid params
    assert f"{len(entries) + 2} message(s), 2 invalid" in result.stderr
    # a rejecting twin: an answer the stub did not send (a result of the wrong shape)
    edited = [json.loads(e) for e in entries]
    for entry in edited:
        message = entry.get("message")
        if isinstance(message, dict) and message.get("id") == 1 and "result" in message:
            message["result"] = {"protocolVersion": 1}
    transcript.write_text("".join(json.dumps(e) + "\n" for e in edited))
    worse = run_codegen(REPO, "validate", "ahp", str(transcript))
    assert len(worse.stdout.splitlines()) == 4
    assert "/result/serverSeq: Field required" in worse.stdout
    assert "/result/snapshots: Field required" in worse.stdout


def test_batches_pair_each_answer_with_its_request(validator: Validator) -> None:
    good, count = _check(
        validator,
        [_request(1, "initialize", INIT), _request(2, "listSessions", {})],
        [_result(2, {"items": []}), _result(1, INIT_RESULT)],  # any order
    )
    assert good == [] and count == 4
    swapped, _ = _check(
        validator,
        [_request(1, "initialize", INIT), _request(2, "listSessions", {})],
        [_result(1, {"items": []}), _result(2, INIT_RESULT)],
    )
    assert [(f.line, f.item, f.pointer) for f in swapped] == [
        (2, 0, "/result/protocolVersion"),
        (2, 0, "/result/serverSeq"),
        (2, 0, "/result/snapshots"),
        (2, 1, "/result/items"),
    ]
    empty, _ = _check(validator, [])
    assert [f.error for f in empty] == ["an empty batch is an invalid request"]


def test_every_bad_line_is_reported_and_reading_goes_on(
    validator: Validator, tmp_path: Path
) -> None:
    path = tmp_path / "stream.jsonl"
    path.write_bytes(
        json.dumps(_request(1, "initialize", INIT)).encode()
        + b"\n{broken\n\n"
        + b'"\xff\xfe"\n'
        + json.dumps(_result(1, {"protocolVersion": "x"})).encode()
        + b"\n"
        + json.dumps({"jsonrpc": "2.0", "method": "nope"}).encode()
        + b"\n"
    )
    records = list(read_records(path))  # a stream: read once
    assert [r.line for r in records] == [1, 2, 4, 5, 6]
    findings, count = validator.validate(records)
    assert count == 5
    assert [f.line for f in findings] == [2, 4, 5, 5, 5, 6]
    assert findings[0].error.startswith("not JSON: Expecting property name")
    assert findings[1].error.startswith("not UTF-8")
    assert findings[-1].error == "unknown method 'nope'"


def test_transcript_answers_pair_per_peer_and_direction(validator: Validator) -> None:
    def entry(direction: str, peer: str, message: Any) -> dict[str, Any]:
        return {"time": 0, "direction": direction, "peer": peer, "message": message}

    two_peers = (
        entry("in", "a", _request(1, "initialize", INIT)),
        entry("in", "b", _request(1, "listSessions", {})),
        entry("out", "a", _result(1, INIT_RESULT)),
        entry("out", "b", _result(1, {"items": []})),
    )
    findings, count = _check(validator, *two_peers)
    assert findings == [] and count == 4
    # the same messages without peers: the second request takes id 1, so the first
    # answer is read as listSessions' result and fails
    raw = [e["message"] for e in two_peers]
    mixed, _ = _check(validator, *raw)
    assert mixed and mixed[0].line == 3 and mixed[0].pointer == "/result/items"
    # an answer travelling the same way as its request pairs with nothing
    same_way, _ = _check(
        validator,
        entry("in", "a", _request(1, "initialize", INIT)),
        entry("in", "a", _result(1, INIT_RESULT)),
    )
    assert [f.pointer for f in same_way] == ["/id"]


def test_stdin_and_several_files(tmp_path: Path) -> None:
    first = tmp_path / "a.jsonl"
    first.write_text(json.dumps(_request(1, "initialize", INIT)) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "codegen", "validate", "ahp", str(first), "-"],
        cwd=REPO,
        input=json.dumps(_request(1, "initialize", INIT))
        + "\n"
        + json.dumps(_result(1, {"protocolVersion": 1, "snapshots": []}))
        + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    # each file pairs its own answers; both are read
    assert done.stdout.startswith("-:2: /result/serverSeq: Field required")
    assert len(done.stdout.splitlines()) == 1
    assert "3 message(s), 1 invalid" in done.stderr
