"""The smaller traps of a new user's first hour (issue 34), each run as a user meets it:
``codegen -h`` shows whole summaries; ``diff`` works from a subfolder and suggests the
spec meant; ``validate --method`` and choice options suggest the closest name, without
pydantic's "Value error," prefix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli_support import run_codegen


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("first-hour")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "myapp"\nversion = "0"\n\n[tool.codegen]\n'
        'output = "src/myapp/wire"\n'
    )
    assert run_codegen(root, "init", "chat", "--language", "typescript").returncode == 0
    assert run_codegen(root, "generate", "-q").returncode == 0
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=root, check=True)
    return root


def test_the_command_list_shows_whole_summaries(project: Path) -> None:
    done = run_codegen(project, "-h")
    assert done.returncode == 0
    commands = done.stdout.split("Commands:")[1]
    assert "..." not in commands
    assert "Validate wire messages" in commands


def test_diff_from_a_subfolder(project: Path) -> None:
    done = run_codegen(project / "src", "diff", "HEAD:chat", "chat")
    assert done.returncode == 0, done.stderr
    assert "no changes at the wire level" in done.stdout


@pytest.mark.parametrize(
    ("old", "new", "hint"),
    [("HEAD:chta", "chat", "did you mean 'HEAD:chat'?"), ("chat", "caht", "'chat'")],
)
def test_diff_suggests_the_spec_meant(
    project: Path, old: str, new: str, hint: str
) -> None:
    done = run_codegen(project, "diff", old, new)
    assert done.returncode == 2 and hint in done.stderr


def test_validate_method_suggests_the_method_meant(project: Path) -> None:
    sample = project / "p.json"
    sample.write_text('{"protocolVersion": 1}\n')
    wrong = run_codegen(
        project,
        "validate",
        "chat",
        "p.json",
        "--method",
        "initialze",
        "--part",
        "params",
    )
    assert wrong.returncode == 2
    assert "unknown method 'initialze'; did you mean 'initialize'?" in wrong.stderr
    right = run_codegen(
        project,
        "validate",
        "chat",
        "p.json",
        "--method",
        "initialize",
        "--part",
        "params",
    )
    assert right.returncode == 0, right.stdout + right.stderr
    message = project / "m.jsonl"
    message.write_text('{"jsonrpc": "2.0", "method": "lgo", "params": {}}\n')
    done = run_codegen(project, "validate", "chat", "m.jsonl")
    assert "unknown method 'lgo'; did you mean 'log'?" in done.stdout


def test_a_choice_error_names_the_closest_choice(project: Path) -> None:
    done = run_codegen(
        project,
        "validate",
        "chat",
        "p.json",
        "--method",
        "initialize",
        "--part",
        "parms",
    )
    assert done.returncode == 2
    assert "Value error" not in done.stderr
    assert (
        "'parms' is not one of 'params', 'result'; did you mean 'params'?"
        in done.stderr
    )


def test_the_starter_adds_no_error_code_to_the_users_package(tmp_path: Path) -> None:
    import tomllib

    assert run_codegen(tmp_path, "init", "x", "--language", "go").returncode == 0
    toml = (tmp_path / "specs/x/spec.toml").read_text()
    assert "errors" not in tomllib.loads(toml)  # an example, commented out
    assert '# -32001 = "UnsupportedVersion"' in toml
    assert run_codegen(tmp_path, "generate", "-q").returncode == 0
    errors = (tmp_path / "generated/x/python/x_protocol/errors.py").read_text()
    assert "UnsupportedVersion" not in errors and "32001" not in errors


def test_the_starter_says_truly_what_an_undeclared_import_is(tmp_path: Path) -> None:
    assert (
        run_codegen(tmp_path, "init", "x", "--language", "typescript").returncode == 0
    )
    spec = tmp_path / "specs/x"
    assert "is an error unless declared here" in (spec / "spec.toml").read_text()
    source = spec / "protocol.ts"
    text = source.read_text().replace(
        "\tclientName?: string;", "\tclientName?: string;\n\tenv?: Env;"
    )
    source.write_text('import type { Env } from "./env.js";\n' + text)
    undeclared = run_codegen(tmp_path, "check")
    assert undeclared.returncode == 1 and "error[REF001]" in undeclared.stderr
    with (spec / "spec.toml").open("a") as toml:
        toml.write('[external.Env]\nmodule = "./env.js"\nreason = "not ours"\n')
    declared = run_codegen(tmp_path, "check")
    assert declared.returncode == 0 and "warning[REF002]" in declared.stderr


def test_a_deleted_specs_output_is_stale_then_removed(tmp_path: Path) -> None:
    for spec, language in (("keep", "go"), ("gone", "prose")):
        made = run_codegen(tmp_path, "init", spec, "--language", language)
        assert made.returncode == 0
    assert run_codegen(tmp_path, "generate", "-q").returncode == 0
    (tmp_path / "stray").mkdir()  # not codegen's: never touched
    (tmp_path / "generated/notes").mkdir()
    (tmp_path / "generated/notes/readme.txt").write_text("mine\n")
    for path in sorted((tmp_path / "specs/gone").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    (tmp_path / "specs/gone").rmdir()
    stale = run_codegen(tmp_path, "generate", "--check")
    assert stale.returncode == 1 and "stale file(s)" in stale.stderr
    assert "generated/gone/python/gone_protocol/models.py" in stale.stdout
    # naming one spec judges only that one
    assert run_codegen(tmp_path, "generate", "--check", "keep").returncode == 0
    done = run_codegen(tmp_path, "generate")
    assert done.returncode == 0 and "removed" in done.stderr
    assert not (tmp_path / "generated/gone").exists()
    assert (tmp_path / "generated/notes/readme.txt").is_file()
    assert (tmp_path / "generated/keep/python").is_dir()
    assert run_codegen(tmp_path, "generate", "--check").returncode == 0


def _server(project: Path, *args: str, hide_aiohttp: bool = False) -> Any:
    package = project / "src/myapp/wire/chat/python"
    code = (
        "import runpy, sys\n"
        + ("sys.modules['aiohttp'] = None\n" if hide_aiohttp else "")
        + "runpy.run_module('chat_protocol.server', run_name='__main__')\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(package)},
        input="",
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_a_network_transport_without_aiohttp_is_a_message(project: Path) -> None:
    done = _server(project, "--transport", "websocket", hide_aiohttp=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--transport websocket needs aiohttp" in done.stderr
    assert "pip install aiohttp" in done.stderr
    # stdio needs pydantic only: it serves (and ends at the end of its input)
    stdio = _server(project, "--transport", "stdio", "-q", hide_aiohttp=True)
    assert stdio.returncode == 0, stdio.stderr


def test_the_package_server_takes_dash_q(project: Path) -> None:
    quiet = _server(project, "--transport", "stdio", "-q")
    assert quiet.returncode == 0 and "unrecognized" not in quiet.stderr
    wrong = _server(project, "--transport", "stdio", "-x")
    assert wrong.returncode == 2 and "unrecognized arguments: -x" in wrong.stderr


@pytest.mark.parametrize(
    ("name", "reported"),
    [
        ("protocol.ts", True),
        ("spec.toml", True),
        ("notes.md", True),
        ("49130", True),
        ("protocol.ts~", False),
        ("#protocol.ts#", False),
        (".protocol.ts.swp", False),
        ("4913", False),
        ("protocol.ts.tmp", False),
        ("protocol.ts___jb_tmp___", False),
        (".#protocol.ts", False),
    ],
)
def test_watch_ignores_editors_temporary_files(
    tmp_path: Path, name: str, reported: bool
) -> None:
    import watchfiles

    from codegen.cli.generate import _Ignore
    from codegen.project import load_project

    ignore = _Ignore(load_project(tmp_path))
    path = str(tmp_path / "specs" / "chat" / name)
    assert ignore(watchfiles.Change.modified, path) is reported


def test_a_typescript_syntax_error_is_one_diagnostic(tmp_path: Path) -> None:
    from codegen.pipeline import load_protocol

    spec = tmp_path / "specs/x"
    spec.mkdir(parents=True)
    (spec / "spec.toml").write_text(
        '[spec]\nlanguage = "typescript"\nsources = ["p.ts"]\n'
    )
    (spec / "p.ts").write_text(
        "export interface A {\n  x: string\n  y: number = 3;\n  z: boolean;\n}\n"
        "export type B = { a: string; b: = 2 };\n"
        "export interface C { @x: number }\n"
    )
    outcome = load_protocol(spec, tmp_path)
    found = [
        (d.span.line, d.code)
        for d in outcome.diags.items
        if d.span.file.endswith("p.ts")
    ]
    assert found == [(3, "SYN001"), (6, "SYN001"), (7, "SYN001")]
    assert not any("'ERROR'" in d.message for d in outcome.diags.items)


def test_vendor_check_runs_in_the_consuming_project(
    project: Path, tmp_path: Path
) -> None:
    consumer = tmp_path / "consumer"
    (consumer / "src").mkdir(parents=True)
    done = run_codegen(
        project, "vendor", "chat", str(consumer / "src"), "--package", "v1"
    )
    assert done.returncode == 0, done.stderr
    intact = run_codegen(consumer, "vendor", "--check", "src/v1")
    assert intact.returncode == 0, intact.stdout + intact.stderr
    assert (
        "intact" in intact.stdout and "not compared with spec 'chat'" in intact.stdout
    )
    with (consumer / "src/v1/models.py").open("a") as edited:
        edited.write("# by hand\n")
    caught = run_codegen(consumer, "vendor", "--check", "src/v1")
    assert caught.returncode == 1 and "edited by hand: models.py" in caught.stdout


@pytest.mark.parametrize("language", ["typescript", "rust", "go", "prose"])
def test_the_four_starters_agree(tmp_path: Path, language: str) -> None:
    """Every starter has the same two methods: an initialize request (client → server)
    and a log notification (server → client), and reads without warnings."""
    from codegen.diagnostics import Severity
    from codegen.pipeline import load_protocol

    assert run_codegen(tmp_path, "init", "x", "--language", language).returncode == 0
    outcome = load_protocol(tmp_path / "specs/x", tmp_path)
    assert outcome.protocol is not None
    assert not [d for d in outcome.diags.items if d.severity is not Severity.NOTE]
    methods = {
        (m.wire_name, m.kind.value, m.direction.sender, m.direction.receiver)
        for m in outcome.protocol.methods
    }
    assert methods == {
        ("initialize", "request", "client", "server"),
        ("log", "notification", "server", "client"),
    }


def test_generate_keeps_results_on_stdout_and_messages_on_stderr(
    tmp_path: Path,
) -> None:
    """generate prints nothing on stdout (its summary and diagnostics go to stderr);
    --check prints only the diff on stdout, its verdict on stderr."""
    assert run_codegen(tmp_path, "init", "x", "--language", "go").returncode == 0
    done = run_codegen(tmp_path, "generate")
    assert done.returncode == 0 and done.stdout == ""
    assert "files in generated" in done.stderr
    (tmp_path / "generated/x/python/x_protocol/models.py").write_text("x = 1\n")
    stale = run_codegen(tmp_path, "generate", "--check")
    assert stale.returncode == 1
    assert stale.stdout.startswith("--- a/generated/x/python/x_protocol/models.py")
    assert all(
        line[:1] in ("-", "+", "@", " ", "\\") or not line
        for line in stale.stdout.splitlines()
    )
    assert "error: generated output is stale" in stale.stderr
    assert "---" not in stale.stderr


def test_a_stdio_client_says_how_the_server_process_ended(project: Path) -> None:
    package = project / "src/myapp/wire/chat/python"
    code = (
        "import asyncio, sys\n"
        "from chat_protocol import InitializeParams, TransportError\n"
        "from chat_protocol.client import ChatClient\n"
        "async def main() -> None:\n"
        "    command = [sys.executable, '-c', 'import sys; sys.exit(3)']\n"
        "    async with ChatClient.stdio(command) as client:\n"
        "        try:\n"
        "            await client.initialize(InitializeParams(protocol_version=1))\n"
        "        except TransportError as error:\n"
        "            print(error)\n"
        "asyncio.run(main())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(package)},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("connection closed: ")
    assert "exited with status 3" in done.stdout
