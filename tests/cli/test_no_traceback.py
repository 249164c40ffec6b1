"""No command-line input produces a traceback (issue 17): each bad input below gives a
clear error and exit 2 (usage) or 1, and a server that cannot start says why."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent
AHP_PYTHON = REPO / "generated" / "ahp" / "python"


def _clean(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    assert "Error" not in done.stderr.replace("error:", ""), done.stderr


def _server(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """``python -m ahp_protocol.server`` itself (the runtime's own argument checks)."""
    return subprocess.run(
        [sys.executable, "-m", "ahp_protocol.server", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(AHP_PYTHON)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "99999"], "less than or equal to 65535"),
        (["--port", "-5"], "greater than or equal to 0"),
        (["--max-message-bytes", "-1"], "greater than or equal to 64"),
        (["--transport", "http"], "'ahp' is served over websocket or stdio, not http"),
        (["--fail", "initialise=-32005"], "ahp has no method 'initialise'"),
        (["--fail", "initialize"], "expected METHOD=CODE"),
        (["--fail", "initialize=x"], "'x' is not an integer"),
        (["--transcript", "no/such/folder/t.jsonl"], "does not exist"),
    ],
)
def test_serve_refuses_bad_options_itself(args: list[str], message: str) -> None:
    done = run_codegen(REPO, "serve", "ahp", *args)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert "ahp_protocol.server" not in done.stderr  # never the stub's own usage
    _clean(done)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "99999"], "99999 is not a port (0 to 65535)"),
        (["--port", "-5"], "-5 is not a port"),
        (["--max-message-bytes", "-1"], "-1 is too small (at least 64 bytes)"),
        (["--max-message-bytes", "63"], "63 is too small"),
        (["--fail", "nope=1"], "--fail: unknown method 'nope'"),
        (["--transcript", "no/such/folder/t.jsonl"], "--transcript: cannot open"),
    ],
)
def test_the_stub_server_checks_its_own_arguments(
    args: list[str], message: str
) -> None:
    done = _server(*args)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_an_error_not_a_traceback() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        for done in (
            run_codegen(REPO, "serve", "ahp", "--port", port),
            _server("--port", port),
        ):
            assert done.returncode == 1, done.stderr
            assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
            assert "address already in use" in done.stderr.lower()
            assert "Traceback" not in done.stderr


def test_serve_with_stdin_at_dev_null_ends_at_end_of_input() -> None:
    with open(os.devnull) as devnull:
        done = subprocess.run(
            [sys.executable, "-m", "codegen", "serve", "piglet"],
            cwd=REPO,
            stdin=devnull,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert "end of input" in done.stderr and "Traceback" not in done.stderr


def test_a_spec_folder_outside_the_repository(tmp_path: Path) -> None:
    spec = tmp_path / "mine" / "piglet"
    shutil.copytree(REPO / "specs" / "piglet", spec)
    out = tmp_path / "out"
    done = run_codegen(REPO, "generate", str(spec), "-o", str(out), "-q")
    assert done.returncode == 0, done.stderr
    assert (out / "piglet/python/piglet_protocol/models.py").is_file()
    provenance = (out / "piglet/python/piglet_protocol/_provenance.py").read_text()
    assert '"piglet/external.godoc.txt"' in provenance  # no machine path
    assert str(tmp_path) not in provenance
    assert (
        run_codegen(REPO, "generate", str(spec), "-o", str(out), "--check").returncode
        == 0
    )
    checked = run_codegen(REPO, "check", str(spec))
    assert checked.returncode == 0 and "Traceback" not in checked.stderr
    dumped = run_codegen(REPO, "ir", "dump", str(spec))
    assert dumped.returncode == 0 and dumped.stdout.startswith("{")


def test_a_spec_without_framings_cannot_be_served(tmp_path: Path) -> None:
    spec = tmp_path / "specs" / "bare"
    shutil.copytree(REPO / "specs" / "piglet", spec)
    toml = spec / "spec.toml"
    toml.write_text(
        toml.read_text()
        .replace('id = "piglet"', 'id = "bare"')
        .replace('framings = ["ndjson-stdio"]\n', "")
        .replace('"piglet_protocol"', '"bare_protocol"')
        .replace('"piglet-protocol"', '"bare-protocol"')
    )
    assert run_codegen(tmp_path, "generate", "-q").returncode == 0
    done = run_codegen(tmp_path, "serve", "bare")
    assert done.returncode == 2
    assert "declares no transport a stub can serve" in done.stderr
    _clean(done)
    direct = subprocess.run(
        [sys.executable, "-m", "bare_protocol.server"],
        env={**os.environ, "PYTHONPATH": str(tmp_path / "generated/bare/python")},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert direct.returncode == 2 and "declares no transport" in direct.stderr
    assert "IndexError" not in direct.stderr and "Traceback" not in direct.stderr


def test_validate_and_serve_a_spec_never_generated(tmp_path: Path) -> None:
    shutil.copytree(REPO / "specs" / "ahp", tmp_path / "specs" / "ahp")
    message = tmp_path / "m.json"
    message.write_text('{"jsonrpc": "2.0", "method": "x"}')
    for done in (
        run_codegen(tmp_path, "validate", "ahp", str(message)),
        run_codegen(tmp_path, "serve", "ahp"),
    ):
        assert done.returncode == 2
        assert "run `codegen generate ahp` first" in done.stderr
        _clean(done)


def test_a_broken_spec_toml_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    spec = tmp_path / "specs" / "x"
    spec.mkdir(parents=True)
    (spec / "spec.toml").write_text('[spec]\nid = "x"\ntitle = oops\n')
    done = run_codegen(tmp_path, "check", "x")
    assert done.returncode == 1
    head, _gutter, echoed, caret = done.stderr.splitlines()[:4]
    assert (
        head == "specs/x/spec.toml:3:9: error[CFG001]: specs/x/spec.toml is not "
        "valid TOML: Invalid value"
    )
    assert echoed == "3 | title = oops"
    assert caret.index("^") == echoed.index("oops")


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        (
            '[spec]\nlanguage = "typescript"\nsources = "a.ts"\n',
            "spec.sources must be a list",
        ),
        ('spec = "x"\n', "spec must be a table"),
        (
            '[spec]\nlanguage = "typescript"\nsources = ["a.ts"]\n[errors]\nabc = "X"\n',
            "errors: 'abc' is not an integer error code",
        ),
        (
            '[spec]\nlanguage = "typescript"\nsources = ["a.ts"]\n[transport]\nframings = "x"\n',
            "transport.framings must be a list",
        ),
    ],
)
def test_spec_toml_of_the_wrong_shape(tmp_path: Path, toml: str, message: str) -> None:
    spec = tmp_path / "specs" / "x"
    spec.mkdir(parents=True)
    (spec / "spec.toml").write_text(toml)
    (spec / "a.ts").write_text("export interface A { a: string }\n")
    done = run_codegen(tmp_path, "generate")
    assert done.returncode == 1 and f"error[CFG002]: {message}" in done.stderr
    _clean(done)


def test_unusable_settings_and_outputs(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.codegen]\nspecs = [\n")
    bad = run_codegen(tmp_path, "generate")
    assert bad.returncode == 2 and "is not valid TOML" in bad.stderr
    _clean(bad)
    (tmp_path / "pyproject.toml").write_text("[tool.codegen]\n")
    shutil.copytree(REPO / "specs" / "piglet", tmp_path / "specs" / "piglet")
    (tmp_path / "blocker").write_text("a file where a folder must go")
    blocked = run_codegen(tmp_path, "generate", "-o", "blocker/out", "-q")
    assert blocked.returncode == 1 and re.search(
        r"error: cannot write .*blocker", blocked.stderr
    )
    _clean(blocked)
    missing = run_codegen(tmp_path, "generate", "--templates", "nowhere")
    assert (
        missing.returncode == 2
        and "template folder nowhere does not exist" in missing.stderr
    )
