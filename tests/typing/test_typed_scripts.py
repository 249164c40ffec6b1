"""The generated packages as a typed user meets them: scripts checked by mypy --strict
and pyright (strict), with rejecting twins, and the README's Python snippets.

``scripts/<id>_user.py`` must type-check with 0 errors in both checkers AND run (they
assert the exact wire text they build); ``rejects/<id>_rejects.py`` mark each line that
must be an error with ``# error``: both checkers must report errors on exactly those
lines.  pyright comes from npm, pinned by ``tests/typing/npm/package-lock.json``
(``make test`` installs it under ``build/typing/npm``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
PYRIGHT = REPO / "build/typing/npm/node_modules/.bin/pyright"
PROTOCOLS = ("acp", "ahp", "mcp", "openctx", "piglet")
PYTHON_DIRS = [REPO / "generated" / spec / "python" for spec in PROTOCOLS]
_ERROR_MARK = re.compile(r"#\s*error\s*$")
_SNIPPET = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _mypy(files: list[Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MYPYPATH": os.pathsep.join(map(str, PYTHON_DIRS))}
    return subprocess.run(
        [BIN / "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull]
        + [str(f) for f in files],
        cwd=cwd,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _pyright(files: list[Path], tmp: Path) -> subprocess.CompletedProcess[str]:
    assert PYRIGHT.exists(), f"{PYRIGHT} is missing: `make test` installs it"
    config = tmp / "pyrightconfig.json"
    config.write_text(
        json.dumps(
            {
                "extraPaths": [str(p) for p in PYTHON_DIRS],
                "typeCheckingMode": "strict",
                "pythonVersion": "3.11",
            }
        ),
        encoding="utf-8",
    )
    return subprocess.run(
        [PYRIGHT, "-p", config, "--pythonpath", sys.executable]
        + [str(f) for f in files],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _error_lines(output: str, files: list[Path]) -> set[tuple[str, int]]:
    names = "|".join(re.escape(f.name) for f in files)
    return {
        (match.group(1), int(match.group(2)))
        for match in re.finditer(rf"({names}):(\d+)(?::\d+)?(?::| -) error", output)
    }


def _readme_snippets(tmp: Path) -> list[Path]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    out = []
    for number, code in enumerate(_SNIPPET.findall(text), 1):
        if "chat_v1" in code:
            # "Use the bindings in your app" imports a user's package (chat_v1), which
            # tests/cli/test_readme_examples.py builds, type-checks and runs in a project.
            continue
        path = tmp / f"readme_snippet_{number}.py"
        path.write_text(code, encoding="utf-8")
        out.append(path)
    return out


def _scripts() -> list[Path]:
    return sorted((HERE / "scripts").glob("*_user.py"))


def _rejects() -> list[Path]:
    return sorted((HERE / "rejects").glob("*_rejects.py"))


def test_every_protocol_has_a_script_and_a_rejecting_twin() -> None:
    assert [p.name for p in _scripts()] == [f"{s}_user.py" for s in PROTOCOLS]
    assert [p.name for p in _rejects()] == [f"{s}_rejects.py" for s in PROTOCOLS]


def test_scripts_and_readme_pass_mypy_strict(tmp_path: Path) -> None:
    snippets = _readme_snippets(tmp_path)
    assert len(snippets) >= 2  # the bindings and the client snippets
    done = _mypy(_scripts() + snippets, REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found in" in done.stdout


# pyright over the scripts: make test-long (make check runs pyright over generated/).
@pytest.mark.long
def test_scripts_and_readme_pass_pyright_strict(tmp_path: Path) -> None:
    done = _pyright(_scripts() + _readme_snippets(tmp_path), tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 errors" in done.stdout


def _wanted(files: list[Path]) -> set[tuple[str, int]]:
    return {
        (path.name, number)
        for path in files
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if _ERROR_MARK.search(line)
    }


# The twins' mypy run: make test-long (the scripts' own mypy pass stays here).
@pytest.mark.long
def test_rejecting_twins_fail_mypy_on_exactly_the_marked_lines() -> None:
    files = _rejects()
    wanted = _wanted(files)
    assert len(wanted) >= 20
    done = _mypy(files, REPO)
    assert done.returncode == 1
    assert _error_lines(done.stdout, files) == wanted, done.stdout


# pyright over the scripts: make test-long (make check runs pyright over generated/).
@pytest.mark.long
def test_rejecting_twins_fail_pyright_on_exactly_the_marked_lines(
    tmp_path: Path,
) -> None:
    files = _rejects()
    done = _pyright(files, tmp_path)
    assert done.returncode == 1
    assert _error_lines(done.stdout, files) == _wanted(files), done.stdout


@pytest.mark.parametrize("spec", PROTOCOLS)
def test_script_runs(spec: str) -> None:
    # The scripts assert the exact wire text of what they build and read.
    done = subprocess.run(
        [sys.executable, HERE / "scripts" / f"{spec}_user.py"],
        env={**os.environ, "PYTHONPATH": str(REPO / "generated" / spec / "python")},
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "ok"


def test_readme_snippets_run(tmp_path: Path) -> None:
    # Run from the repo root, as the README's sys.path lines expect.
    for snippet in _readme_snippets(tmp_path):
        done = subprocess.run(
            [sys.executable, snippet],
            cwd=REPO,
            check=False,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, f"{snippet.name}: {done.stderr}"
