"""Every option of ``python -m <package>.server`` is reachable from ``codegen serve``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from codegen.cli.commands import app
from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent


def test_fail_size_limit_transcript_and_quiet_pass_through(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": 1, "clientId": "c"},
    }
    large = {
        **initialize,
        "id": 2,
        "params": {"protocolVersion": 1, "clientId": "c" * 300},
    }
    done = subprocess.run(
        [sys.executable, "-m", "codegen", "serve", "ahp", "--transport", "stdio"]
        + ["--fail", "initialize=-32005", "--max-message-bytes", "200"]
        + ["--transcript", str(transcript), "--quiet", "-v"],
        cwd=REPO,
        input=json.dumps(initialize) + "\n" + json.dumps(large) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = {
        answer["id"]: answer
        for answer in (json.loads(line) for line in done.stdout.splitlines())
    }
    assert answers[1] == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32005, "message": "UnsupportedProtocolVersion"},
    }
    too_large = answers[None]["error"]  # its id cannot be read past the limit
    assert too_large["code"] == -32600 and "limit 200 bytes" in too_large["message"]
    logged = [json.loads(line) for line in transcript.read_text().splitlines()]
    outgoing = [entry["message"] for entry in logged if entry["direction"] == "out"]
    assert sorted(map(json.dumps, outgoing)) == sorted(
        map(json.dumps, answers.values())
    )
    # --quiet: no per-message log; -v: the command that was started
    assert "ahp_protocol ->" not in done.stderr and "<-" not in done.stderr
    assert "-m ahp_protocol.server --transport stdio" in done.stderr
    without = run_codegen(REPO, "serve", "ahp", "--fail", "initialize=-32005", "-h")
    assert "--fail METHOD=CODE" in without.stdout


def test_serve_offers_each_option_of_the_stub() -> None:
    import typer.main

    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    offered = {opt for param in serve.params for opt in param.opts}
    stub = subprocess.run(
        [sys.executable, "-m", "ahp_protocol.server", "--help"],
        env={"PYTHONPATH": str(REPO / "generated/ahp/python"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    stub_options = {
        word.rstrip(",") for word in stub.split() if word.startswith("--")
    } - {"--help"}
    assert stub_options and stub_options <= offered, stub_options - offered


def test_loop_passes_through_and_a_loop_it_does_not_know_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "codegen", "serve", "ahp", "--transport", "stdio"]
        + ["--loop", "asyncio", "--quiet", "-v"],
        cwd=REPO,
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "-m ahp_protocol.server --transport stdio --quiet --loop asyncio" in (
        done.stderr
    )
    refused = run_codegen(REPO, "serve", "ahp", "--loop", "trio")
    assert refused.returncode == 2 and "trio" in refused.stderr
