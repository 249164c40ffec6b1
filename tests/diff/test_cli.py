"""``codegen diff`` through the command line: exit codes, formats, --fail-on, --level,
--role, usage errors, and sides given as git revisions of a temporary repository."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.diff.support import FIXTURES, REPO, rel


def run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codegen", "diff", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def sides(name: str) -> tuple[str, str]:
    return rel(FIXTURES / name / "old"), rel(FIXTURES / name / "new")


def test_breaking_exits_1_and_prints_the_report() -> None:
    done = run(*sides("field.added-required"))
    assert done.returncode == 1, done.stderr
    expected = (FIXTURES / "field.added-required" / "expected.txt").read_text()
    assert done.stdout == expected


@pytest.mark.parametrize(
    ("fixture", "fail_on", "code"),
    [
        ("enum.member-added", "breaking", 0),
        ("enum.member-added", "dangerous", 1),
        ("field.added-optional", "dangerous", 0),
        ("field.added-optional", "compatible", 1),
        ("field.added-required", "none", 0),
    ],
)
def test_fail_on(fixture: str, fail_on: str, code: int) -> None:
    assert run(*sides(fixture), "--fail-on", fail_on).returncode == code


def test_level_python_includes_python_api_changes() -> None:
    old, new = sides("python.type-renamed")
    assert run(old, new).returncode == 0
    done = run(old, new, "--level", "python")
    assert done.returncode == 1
    assert "[python.type-renamed]" in done.stdout


def test_role_rates_one_scenario() -> None:
    # A new required field in what the client sends: breaks an upgraded server...
    assert run(*sides("field.added-required"), "--role", "server").returncode == 1
    # ...but an upgraded client only writes one more key.
    assert run(*sides("field.added-required"), "--role", "client").returncode == 0
    done = run(*sides("field.added-required"), "--role", "agent")
    assert done.returncode == 2
    assert "not a role" in done.stderr


def test_json_and_markdown() -> None:
    done = run(*sides("enum.member-added"), "--format", "json")
    data = json.loads(done.stdout)
    assert data["bump"] == "minor"
    (change,) = data["changes"]
    assert change["rule"] == "enum.member-added"
    assert change["severity"] == "dangerous"
    assert change["impacts"] == ["new client → old server"]
    assert change["new"] == {
        "path": "tests/diff/fixtures/enum.member-added/new/input.ts",
        "line": 4,
        "column": 2,
    }
    assert change["flows"] == [{"sender": "client", "receiver": "server"}]
    assert change["methods"] == ["open"]
    assert change["unused"] is False
    md = run(*sides("enum.member-added"), "--format", "markdown").stdout
    assert md.startswith("## Protocol changes\n")
    assert "### Dangerous" in md and "`enum.member-added`" in md


def _readme_json_example() -> dict[str, object]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Diff") :]
    block = section[section.index("```json\n") + 8 :]
    example: dict[str, object] = json.loads(block[: block.index("```")])
    return example


def test_json_shape_is_the_one_the_readme_describes() -> None:
    """Every key always present, null for a side without a place, as documented."""
    example = _readme_json_example()
    done = run(*sides("method.added"), "--format", "json")
    data = json.loads(done.stdout)
    assert set(data) == set(example)
    (change,) = data["changes"]
    (documented,) = example["changes"]  # type: ignore[misc]
    assert set(change) == set(documented)
    assert change["old"] is None  # an added method has no old place
    assert set(change["new"]) == {"path", "line", "column"}
    assert data["role"] is None and data["format"] == 1
    assert data["old"] == sides("method.added")[0]


def test_paths_are_never_absolute(tmp_path: Path) -> None:
    """Sides given by absolute paths (run outside any repository, where paths
    anywhere are sides) are shown relative."""
    case = FIXTURES / "field.added-required"
    outside = tmp_path / "old"
    shutil.copytree(case / "old", outside)
    absolute = re.compile(r'(^|[\s`"(])' + re.escape(str(tmp_path)), re.MULTILINE)
    for fmt in ("text", "markdown", "json"):
        done = run(str(outside), str(case / "new"), "--format", fmt, cwd=tmp_path)
        assert done.returncode == 1, done.stderr
        assert not absolute.search(done.stdout), done.stdout
        assert "old/input.ts" in done.stdout
    single = run(
        str(outside / "input.ts"), str(case / "new" / "input.ts"), cwd=tmp_path
    )
    assert single.returncode == 1, single.stderr
    assert not absolute.search(single.stdout) and "old/input.ts:" in single.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["no/such/dir", "tests/diff/crosslang/typescript"],
        ["tests/diff", "tests/diff/crosslang/typescript"],  # no spec.toml
        ["tests/diff/crosslang/typescript", "README.md.xyz"],
        ["tests/diff/crosslang/typescript", "tests/diff/crosslang", "--level", "x"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert "error:" in done.stderr


def test_single_files_of_different_languages() -> None:
    done = run(
        "tests/diff/crosslang/typescript/protocol.ts",
        "tests/diff/crosslang/rust/protocol.rs",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("no changes at the wire level")


# --------------------------------------------------------------------------- git


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def spec_repo(tmp_path: Path) -> Path:
    case = FIXTURES / "field.optional-to-required"
    spec = tmp_path / "specs" / "x"
    shutil.copytree(case / "old", spec)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "old")
    shutil.copy(case / "new" / "input.ts", spec / "input.ts")
    git(tmp_path, "commit", "-q", "-am", "new")
    return tmp_path


def test_git_revision_against_working_tree(spec_repo: Path) -> None:
    done = run("HEAD~1:specs/x", "specs/x", cwd=spec_repo)
    assert done.returncode == 1, done.stderr
    assert "[field.optional-to-required] OpenParams.color" in done.stdout
    assert "HEAD~1:specs/x/input.ts:25:2 → specs/x/input.ts:25:2" in done.stdout


def test_git_revisions_both_sides_and_spec_id(spec_repo: Path) -> None:
    done = run("HEAD~1:x", "HEAD:specs/x", cwd=spec_repo)
    assert done.returncode == 1, done.stderr
    assert "HEAD~1:specs/x/input.ts:25:2 → HEAD:specs/x/input.ts:25:2" in done.stdout
    assert run("HEAD:specs/x", "x", cwd=spec_repo).returncode == 0


def test_git_single_file(spec_repo: Path) -> None:
    done = run("HEAD~1:specs/x/input.ts", "specs/x/input.ts", cwd=spec_repo)
    assert done.returncode == 1, done.stderr
    assert "HEAD~1:specs/x/input.ts:25:2 → specs/x/input.ts:25:2" in done.stdout


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("nosuchrev:specs/x", "unknown revision"),
        ("HEAD~1:specs/nothing", "no path"),
    ],
)
def test_git_errors_exit_2(spec_repo: Path, arg: str, message: str) -> None:
    done = run(arg, "specs/x", cwd=spec_repo)
    assert done.returncode == 2
    assert message in done.stderr
