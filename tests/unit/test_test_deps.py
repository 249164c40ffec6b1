"""``make test``'s own install step (``.ci/test-deps``, run by ``make test-deps`` before any
test): with everything present it says nothing; with a tool missing and no way to install
it, it stops at once naming the exact apt command; ``make test`` and ``.ci/run`` use it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
SCRIPT = REPO / ".ci" / "test-deps"


def _run(path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT)],
        env={**os.environ, "PATH": path, "TEST_DEPS_INSTALL": "no"},
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_machine_with_everything_needs_nothing() -> None:
    done = _run(os.environ["PATH"])
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_missing_tool_stops_with_the_exact_command(tmp_path: Path) -> None:
    # a PATH with the shell's own tools but no go, cargo, node or npm
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "id"):
        found = shutil.which(tool)
        assert found is not None
        (bin_dir / tool).symlink_to(found)
    done = _run(str(bin_dir))
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0].startswith("make test needs golang-go cargo")
    assert "nodejs npm" in lines[0]
    assert lines[1].strip().startswith("sudo apt-get update && sudo apt-get install -y")
    assert "golang-go" in lines[1]


def test_make_test_and_ci_run_go_through_it() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    test_rule = next(line for line in makefile.splitlines() if line.startswith("test:"))
    assert test_rule.split(":", 1)[1].split()[0] == "test-deps"
    assert "bash .ci/test-deps" in makefile
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test\n" in ci and "golang-go" not in ci
