"""CLI conventions: --version, -h, real choices, no value placeholders on flags, exit codes
in the help, --quiet/--verbose on every command, colour only on a terminal."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main

from codegen.cli.commands import app
from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent
ANSI = "\x1b["


def _commands() -> dict[str, Any]:
    """Every leaf command of the app by its path (``ir dump``)."""
    root = typer.main.get_command(app)
    found: dict[str, Any] = {}

    def walk(command: Any, path: str) -> None:
        children = getattr(command, "commands", None)
        if children:
            for name, child in children.items():
                walk(child, f"{path} {name}".strip())
        else:
            found[path] = command

    walk(root, "")
    return found


def test_version() -> None:
    done = run_codegen(REPO, "--version")
    assert done.returncode == 0
    assert done.stdout.startswith("codegen ") and done.stdout.count("\n") == 1


def test_every_command_takes_h_quiet_and_verbose_and_documents_exit_codes() -> None:
    commands = _commands()
    assert {"generate", "check", "init", "serve", "validate", "vendor", "diff"} <= set(
        commands
    )
    assert "ir dump" in commands
    for path, command in commands.items():
        options = {opt for param in command.params for opt in param.opts}
        assert {"--quiet", "-q", "--verbose", "-v"} <= options, path
    for path in ("generate", "serve", "validate", "diff", "init", "ir dump"):
        done = run_codegen(REPO, *path.split(), "-h")
        assert done.returncode == 0, path
        assert "<bool>" not in done.stdout, path  # flags take no value
        if path != "ir dump":
            assert "2 usage errors" in done.stdout, path


@pytest.mark.parametrize(
    ("args", "choices"),
    [
        (["generate"], "<ruff|none>"),
        (
            ["serve"],
            "<stdio|websocket|http|content-length-stdio|ndjson-stdio|http-post>",
        ),
        (["diff"], "<text|markdown|json>"),
        (["diff"], "<breaking|dangerous|compatible|none>"),
        (["validate"], "<params|result>"),
        (["init"], "<typescript|rust|go|prose>"),
    ],
)
def test_choices_are_listed_and_enforced(args: list[str], choices: str) -> None:
    assert choices in run_codegen(REPO, *args, "-h").stdout


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "--formatter", "black"],
        ["serve", "ahp", "--transport", "pigeon"],
        ["diff", "ahp", "ahp", "--format", "yaml"],
        ["init", "x", "--language", "cobol"],
        ["check", "--no-such-option"],
        ["no-such-command"],
    ],
)
def test_a_wrong_value_is_a_usage_error(args: list[str]) -> None:
    done = run_codegen(REPO, *args)
    assert done.returncode == 2
    assert "error: " in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.startswith("Usage: ")


def test_quiet_prints_errors_only_and_verbose_prints_notes() -> None:
    quiet = run_codegen(REPO, "generate", "ahp", "--check", "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""
    normal = run_codegen(REPO, "check", "ahp")
    assert "warning[REF002]" in normal.stderr and "note[" in normal.stderr
    assert "spec(s) read without errors" in normal.stderr
    assert run_codegen(REPO, "check", "ahp", "-q").stderr == ""
    verbose = run_codegen(REPO, "generate", "ahp", "--check", "-v")
    assert "note[UNI003]" in verbose.stderr and "not shown" not in verbose.stderr
    # the advice printed with the count works: `check` takes -v too
    assert run_codegen(REPO, "check", "piglet", "-v").returncode == 0
    both = run_codegen(REPO, "check", "-q", "-v")
    assert both.returncode == 2 and "exclude each other" in both.stderr


def _stderr_on_a_terminal(*args: str, **env: str) -> str:
    master, slave = pty.openpty()
    environ = {
        k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "codegen", *args],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env={**environ, "COLUMNS": "100", **env},
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert process.wait(timeout=60) == 0
    return b"".join(chunks).decode()


def test_diagnostics_are_coloured_on_a_terminal_only() -> None:
    coloured = _stderr_on_a_terminal("check", "ahp")
    assert ANSI in coloured
    assert "\x1b[1;33mwarning[REF002]" in coloured  # the severity in yellow
    plain = _stderr_on_a_terminal("check", "ahp", NO_COLOR="1")
    assert ANSI not in plain and "warning[REF002]" in plain
    piped = run_codegen(REPO, "check", "ahp")
    assert ANSI not in piped.stderr and "warning[REF002]" in piped.stderr
