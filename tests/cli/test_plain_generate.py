"""``codegen generate`` and ``codegen generate --check`` given exactly so skip typer's
parsing (its type coercion was a third of a no-op run): the same exit code and output as
through typer; any other command line goes through typer as before.  Since spec.toml is
read against its typed schema (codegen/spec/schema.py, pydantic), every run imports
pydantic, so these tests compare the two paths' results, not their imports.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent.parent

PROBE = """
import sys
from codegen.cli import main
sys.argv = ["codegen", *sys.argv[1:]]
try:
    main()
except SystemExit as exit:
    code = exit.code
print("pydantic" in sys.modules, code, file=sys.stderr)
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("plain")
    shutil.copytree(REPO / "specs" / "openctx", root / "specs" / "openctx")
    return root


def _run(root: Path, *args: str) -> tuple[bool, int, str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=root,
        check=False,  # the exit code is what is compared
        capture_output=True,
        text=True,
        timeout=120,
    )
    *text, last = done.stderr.strip().splitlines()
    imported, code = last.split()
    return imported == "True", int(code), "\n".join(text)


def test_plain_generate_and_check_succeed(project: Path) -> None:
    first = _run(project, "generate")
    assert first[1] == 0
    assert (project / "generated" / "openctx").is_dir()
    check = _run(project, "generate", "--check")
    assert check[1] == 0


def test_plain_and_parsed_command_lines_agree(project: Path) -> None:
    _run(project, "generate")
    plain = _run(project, "generate", "--check")
    parsed = _run(project, "generate", "--check", "--no-cache")  # through typer
    assert plain[1] == parsed[1] == 0
    assert plain[2].splitlines()[-1] == parsed[2].splitlines()[-1]


def test_a_stale_output_fails_the_plain_check_like_the_parsed_one(
    project: Path,
) -> None:
    _run(project, "generate")
    models = next((project / "generated" / "openctx").rglob("models.py"))
    models.write_text(models.read_text() + "# edited\n")
    try:
        plain = _run(project, "generate", "--check")
        parsed = _run(project, "generate", "--check", "--no-cache")
        assert plain[1] == 1
        assert parsed[1] == 1
        assert "1 changed" in plain[2].splitlines()[-1]
        assert plain[2].splitlines()[-1] == parsed[2].splitlines()[-1]
    finally:
        _run(project, "generate")


def test_other_command_lines_go_through_typer(project: Path) -> None:
    _, code, text = _run(project, "generate", "--bogus")
    assert code == 2 and "--bogus" in text
