"""The README's "In your project" examples, run as written: its ``[tool.codegen]`` block
copied into a fresh project works, and the program of "Use the bindings in your app"
type-checks under ``mypy --strict`` and runs against the stub server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")


def _block(after: str, language: str) -> str:
    """The first fenced block of ``language`` after the heading or text ``after``."""
    start = README.index(after)
    found = re.compile(rf"```{language}\n(.*?)```", re.DOTALL).search(README, start)
    assert found is not None, f"no {language} block after {after!r}"
    return found.group(1)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "myapp"
    root.mkdir()
    settings = _block("## In your project", "toml")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "myapp"\nversion = "0.1.0"\n\n' + settings, encoding="utf-8"
    )
    made = run_codegen(root, "init", "chat", "--language", "typescript")
    assert made.returncode == 0, made.stderr
    done = run_codegen(root, "generate")
    assert done.returncode == 0, done.stderr
    return root


def test_the_settings_example_works_when_copied(tmp_path: Path) -> None:
    root = _project(tmp_path)
    assert (root / "protocols/chat/spec.toml").is_file()
    assert (root / "src/myapp/wire/chat/python/chat_v1/__init__.py").is_file()
    # and every key of it is one the schema knows (an unknown one is an error)
    assert run_codegen(root, "check").returncode == 0


def test_the_app_example_type_checks_and_runs(tmp_path: Path) -> None:
    root = _project(tmp_path)
    program = root / "src/myapp/main.py"
    program.write_text(_block("### Use the bindings in your app", "python"))
    package = root / "src/myapp/wire/chat/python"
    env = {**os.environ, "PYTHONPATH": str(package), "MYPYPATH": str(package)}
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", str(program)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout
    ran = subprocess.run(
        [sys.executable, str(program)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split()[0].isdigit(), ran.stdout  # the protocol version
    # the stub the client starts logs nothing into the program's stderr
    assert ran.stderr == ""
    # the rejecting twin: a misspelt field is an error to mypy, not a silent key
    program.write_text(program.read_text().replace("client_name=", "client_nam="))
    wrong = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", str(program)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert wrong.returncode == 1 and "client_nam" in wrong.stdout
