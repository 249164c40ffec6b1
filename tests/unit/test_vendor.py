"""Vendoring: packages under other names side by side, hand edits and stale specs detected,
and a generated package installed into a fresh virtualenv outside the repo."""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent


_codegen = run_codegen


def _repo_copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    shutil.copytree(REPO / "specs" / "ahp", root / "specs" / "ahp")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "spec"],
        cwd=root,
        check=True,
    )
    return root


def test_two_vendored_copies_live_side_by_side(tmp_path: Path) -> None:
    project = tmp_path / "project"
    second = "acp" if (REPO / "generated" / "acp").is_dir() else "ahp"
    assert (
        _codegen(REPO, "vendor", "ahp", str(project), "--package", "ahp_v1").returncode
        == 0
    )
    assert (
        _codegen(
            REPO, "vendor", second, str(project), "--package", "other_v2"
        ).returncode
        == 0
    )
    script = (
        "import ahp_v1, other_v2, ahp_v1._provenance, other_v2._provenance\n"
        'p = ahp_v1.InitializeParams.model_validate_json(\'{"protocolVersion": 1, "clientId": "c"}\')\n'
        'assert p.model_dump_json() == \'{"protocolVersion":1,"clientId":"c"}\'\n'
        "assert ahp_v1.METHODS is not other_v2.METHODS and other_v2.METHODS\n"
        "assert ahp_v1._provenance.PACKAGE == 'ahp_v1' and other_v2._provenance.PACKAGE == 'other_v2'\n"
        "print('ok')\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.stdout.strip() == "ok", ran.stderr
    check = _codegen(REPO, "vendor", "--check", str(project / "ahp_v1"))
    assert check.returncode == 0 and "intact and current" in check.stdout


def test_check_names_a_hand_edited_file(tmp_path: Path) -> None:
    project = tmp_path / "project"
    assert _codegen(REPO, "vendor", "ahp", str(project)).returncode == 0
    models = project / "ahp_protocol" / "models.py"
    models.write_text(models.read_text() + "\n# patched locally\n")
    (project / "ahp_protocol" / "extra.py").write_text("x = 1\n")
    check = _codegen(REPO, "vendor", "--check", str(project / "ahp_protocol"))
    assert check.returncode == 1
    assert "edited by hand: models.py" in check.stdout
    assert "added by hand: extra.py" in check.stdout
    assert "stale" not in check.stdout


def test_check_reports_a_stale_copy_after_a_spec_change(tmp_path: Path) -> None:
    root = _repo_copy(tmp_path)
    project = tmp_path / "project"
    assert _codegen(root, "vendor", "ahp", str(project)).returncode == 0
    commands = root / "specs/ahp/commands.ts"
    commands.write_text(
        commands.read_text().replace("\tlocale?: string;", "\tlocale: string;", 1)
    )
    check = _codegen(root, "vendor", "--check", str(project / "ahp_protocol"))
    assert check.returncode == 1, check.stdout + check.stderr
    assert "stale" in check.stdout and "models.py" in check.stdout
    assert "source changed since vendoring: specs/ahp/commands.ts" in check.stdout
    # The vendored revision is found in git by its source hashes and diffed semantically.
    assert "[field.optional-to-required] InitializeParams.locale" in check.stdout
    assert "edited by hand" not in check.stdout


def test_vendor_usage_errors(tmp_path: Path) -> None:
    assert (
        _codegen(
            REPO, "vendor", "ahp", str(tmp_path), "--package", "not-valid"
        ).returncode
        == 2
    )
    assert _codegen(REPO, "vendor", "--check", str(tmp_path)).returncode == 2


# pip into a new virtualenv: 80 s, run by make test-long (tests/conftest.py LONG).
@pytest.mark.long
def test_generated_package_installs_into_a_fresh_virtualenv(tmp_path: Path) -> None:
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    source = tmp_path / "src"
    shutil.copytree(REPO / "generated" / "ahp" / "python", source)
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr[-2000:]
    script = (
        "import ahp_protocol, ahp_protocol._provenance, importlib.metadata as m\n"
        "assert m.version('ahp-protocol') == '1'\n"
        "print(ahp_protocol.METHODS['initialize'].kind, ahp_protocol._provenance.SPEC_ID)\n"
    )
    ran = subprocess.run(
        [str(python), "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.stdout.strip() == "request ahp", ran.stderr
