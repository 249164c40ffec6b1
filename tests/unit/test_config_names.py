"""spec.toml names that become paths and code (spec id, Python package, distribution) are
checked where they are read: a hostile one is a CFG002, never a path outside generated/
or a line of code."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.diagnostics import Diagnostics
from codegen.spec.config import load_config


def _load(tmp_path: Path, spec: str, python: str = "") -> tuple[object, list[str]]:
    (tmp_path / "pyproject.toml").write_text("")
    folder = tmp_path / "specs/x"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.ts").write_text("export interface A { x: string }\n")
    (folder / "spec.toml").write_text(
        f'[spec]\nlanguage = "typescript"\nsources = ["a.ts"]\n{spec}\n'
        f"[python]\n{python}\n",
        encoding="utf-8",
    )
    diags = Diagnostics()
    config = load_config(folder, diags, tmp_path)
    return config, [f"{d.code}: {d.message}" for d in diags.items]


@pytest.mark.parametrize(
    "spec_id", ["../escape", "a/b", ".hidden", "x\ny", "", "a b", "é"]
)
def test_a_spec_id_that_is_not_a_plain_name_is_refused(
    tmp_path: Path, spec_id: str
) -> None:
    escaped = spec_id.replace("\\", "\\\\").replace("\n", "\\n")
    config, problems = _load(tmp_path, f'id = "{escaped}"')
    assert config is None and problems and problems[0].startswith("CFG002: spec.id")


@pytest.mark.parametrize("spec_id", ["ahp", "acp1", "mcp-2025.11", "A_b"])
def test_plain_spec_ids_are_accepted(tmp_path: Path, spec_id: str) -> None:
    config, problems = _load(tmp_path, f'id = "{spec_id}"')
    assert config is not None and not problems


@pytest.mark.parametrize(
    ("python", "field"),
    [
        ('package = "os; import sys"', "python.package"),
        ('package = "class"', "python.package"),
        ('package = "pkg.sub"', "python.package"),
        ('package = "naïve"', "python.package"),
        ('distribution = "a b"', "python.distribution"),
        ('distribution = "x\\"]\\n[evil]"', "python.distribution"),
        ('distribution = "-x"', "python.distribution"),
    ],
)
def test_hostile_package_names_are_refused(
    tmp_path: Path, python: str, field: str
) -> None:
    config, problems = _load(tmp_path, 'id = "x"', python)
    assert config is None and problems[0].startswith(f"CFG002: {field}")


def test_a_spec_toml_that_is_not_utf8_is_a_diagnostic(tmp_path: Path) -> None:
    _load(tmp_path, 'id = "x"')
    toml = tmp_path / "specs/x/spec.toml"
    toml.write_bytes(toml.read_bytes() + b"# \xff\n")
    diags = Diagnostics()
    assert load_config(tmp_path / "specs/x", diags, tmp_path) is None
    assert [d.code for d in diags.items] == ["SRC001"]
    toml.write_bytes(b"a = " + b"[" * 100_000)
    diags = Diagnostics()
    assert load_config(tmp_path / "specs/x", diags, tmp_path) is None
    assert [d.code for d in diags.items] == ["CFG001"]
