"""The command line: exit codes, drift detection, nothing written on spec errors."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent


_codegen = run_codegen


def _copy_repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "pyproject.toml").write_text((REPO / "pyproject.toml").read_text())
    shutil.copytree(REPO / "specs" / "ahp", root / "specs" / "ahp")
    shutil.copytree(REPO / "generated" / "ahp", root / "generated" / "ahp")
    return root


def test_check_detects_drift_and_generate_repairs_it(tmp_path: Path) -> None:
    root = _copy_repo(tmp_path)
    models = root / "generated/ahp/python/ahp_protocol/models.py"
    models.write_text(models.read_text() + "# hand edit\n")
    (root / "generated/ahp/stray.txt").write_text("x")
    drift = _codegen(root, "generate", "--check")
    assert drift.returncode == 1
    assert "+# hand edit" not in drift.stdout and "-# hand edit" in drift.stdout
    assert "stray.txt" in drift.stdout
    assert _codegen(root, "generate").returncode == 0
    assert not (root / "generated/ahp/stray.txt").exists()
    assert _codegen(root, "generate", "--check").returncode == 0


def test_spec_errors_write_nothing_and_point_at_the_source(tmp_path: Path) -> None:
    root = _copy_repo(tmp_path)
    shutil.rmtree(root / "generated")
    state = root / "specs/ahp/state.ts"
    state.write_text(
        state.read_text().replace("resource: URI;", "resource: Nowhere;", 1)
    )
    result = _codegen(root, "generate")
    assert result.returncode == 1
    assert "error[REF001]: Nowhere is not defined" in result.stderr
    assert "specs/ahp/state.ts:" in result.stderr and "^" in result.stderr
    assert not (root / "generated").exists()


def test_strict_turns_external_warnings_into_errors(tmp_path: Path) -> None:
    root = _copy_repo(tmp_path)
    assert _codegen(root, "check", "ahp").returncode == 0
    strict = _codegen(root, "check", "ahp", "--strict")
    assert strict.returncode == 1 and "error[REF002]" in strict.stderr


def test_unknown_spec_is_a_usage_error(tmp_path: Path) -> None:
    root = _copy_repo(tmp_path)
    result = _codegen(root, "generate", "nope")
    assert result.returncode == 2
    assert "error: unknown spec 'nope' (known: ahp)" in result.stderr
    typo = _codegen(root, "generate", "aph")
    assert typo.returncode == 2 and "did you mean 'ahp'?" in typo.stderr


def test_help_explains_commands() -> None:
    result = _codegen(REPO, "--help")
    assert result.returncode == 0
    for command in ("generate", "check", "ir"):
        assert command in result.stdout


def test_generate_counts_notes_and_verbose_lists_them() -> None:
    quiet = _codegen(REPO, "generate", "--check")
    assert quiet.returncode == 0 and "note(s) not shown" in quiet.stderr
    assert "note[" not in quiet.stderr and "warning[REF002]" in quiet.stderr
    verbose = _codegen(REPO, "generate", "--check", "--verbose")
    assert "note[UNI003]" in verbose.stderr and "not shown" not in verbose.stderr


def test_only_the_diff_command_imports_the_diff_package() -> None:
    from codegen import diff
    from codegen.cli import commands as cli

    assert cli.DIFF_FAIL_ON == diff.FAIL_ON
    probe = (
        "import sys, codegen.cli; "
        "print(sorted(m for m in sys.modules if m.startswith('codegen.diff')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "[]"
    help_text = _codegen(REPO, "diff", "--help").stdout
    assert "<breaking|dangerous|compatible|none>" in help_text.replace("\n", "")


def test_diff_rejects_an_unknown_fail_on(tmp_path: Path) -> None:
    root = _copy_repo(tmp_path)
    result = _codegen(root, "diff", "ahp", "ahp", "--fail-on", "everything")
    assert (
        result.returncode == 2
        and "error: Invalid value for '--fail-on'" in result.stderr
    )
    assert "'breaking', 'dangerous', 'compatible', 'none'" in result.stderr
    assert _codegen(root, "diff", "ahp", "ahp", "--fail-on", "none").returncode == 0
