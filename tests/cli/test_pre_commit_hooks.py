"""The pre-commit hooks this repository offers run codegen as documented."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import yaml

from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent


def test_the_hooks_check_and_regenerate(tmp_path: Path) -> None:
    hooks = {
        h["id"]: h
        for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    }
    assert set(hooks) == {"codegen-check", "codegen-generate"}
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        assert shlex.split(hook["entry"])[0] == "codegen"
    check = shlex.split(hooks["codegen-check"]["entry"])[1:]
    generate = shlex.split(hooks["codegen-generate"]["entry"])[1:]
    (tmp_path / "pyproject.toml").write_text('[tool.codegen]\nspecs = ["protocols"]\n')
    shutil.copytree(REPO / "specs" / "piglet", tmp_path / "protocols" / "piglet")
    stale = run_codegen(tmp_path, *check)
    assert stale.returncode == 1 and "is stale" in stale.stderr
    assert run_codegen(tmp_path, *generate).returncode == 0
    current = run_codegen(tmp_path, *check)
    assert current.returncode == 0 and current.stderr == ""
