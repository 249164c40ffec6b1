"""``codegen init``: a starter spec per language that reads without a warning, and the
mistakes init refuses."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from codegen import ir
from codegen.cli.scaffold import LANGUAGES, ScaffoldError, create
from codegen.diagnostics import Severity
from codegen.pipeline import load_protocol
from tests.cli_support import run_codegen


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_starter_reads_cleanly(tmp_path: Path, language: str) -> None:
    written = create(tmp_path / "specs", "demo", language)
    assert written[0] == tmp_path / "specs/demo/spec.toml"
    config = tomllib.loads(written[0].read_text())
    assert config["spec"]["language"] == language
    assert config["python"]["package"] == "demo_protocol"
    outcome = load_protocol(tmp_path / "specs/demo", tmp_path)
    serious = [d for d in outcome.diags.items if d.severity is not Severity.NOTE]
    assert serious == [], serious
    assert outcome.protocol is not None
    methods = {m.wire_name: m for m in outcome.protocol.methods}
    assert methods["initialize"].kind is ir.MethodKind.REQUEST
    assert methods["initialize"].direction.sender == "client"
    if language != "prose":
        assert methods["log"].direction.sender == "server"
    samples = [e for e in outcome.protocol.examples if e.method == "initialize"]
    assert {e.expect for e in samples} == {ir.Expectation.ACCEPT, ir.Expectation.REJECT}


def test_init_refuses_what_it_cannot_create(tmp_path: Path) -> None:
    create(tmp_path, "taken", "go")
    with pytest.raises(ScaffoldError, match="already exists"):
        create(tmp_path, "taken", "rust")
    with pytest.raises(ScaffoldError, match="not a usable spec id"):
        create(tmp_path, "9lives", "go")
    with pytest.raises(ScaffoldError, match="not a usable spec id"):
        create(tmp_path, "../escape", "go")
    assert not (tmp_path.parent / "escape").exists()


def test_init_on_the_command_line(tmp_path: Path) -> None:
    done = run_codegen(tmp_path, "init", "demo", "-l", "typescript")
    assert done.returncode == 0, done.stderr
    assert "created specs/demo/spec.toml" in done.stderr
    assert "[tool.codegen]" in done.stderr  # how to configure, when nothing is yet
    assert "next: codegen generate demo" in done.stderr
    again = run_codegen(tmp_path, "init", "demo", "-l", "go")
    assert again.returncode == 2 and "already exists" in again.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.codegen]\nspecs = ["protos"]\n')
    configured = run_codegen(tmp_path, "init", "other", "-l", "go")
    assert configured.returncode == 0
    assert (tmp_path / "protos/other/protocol.go").is_file()
    elsewhere = run_codegen(tmp_path, "init", "third", "-l", "go", "--folder", "misc")
    assert elsewhere.returncode == 0
    assert "misc is not a spec folder of pyproject.toml" in elsewhere.stderr
    missing = run_codegen(tmp_path, "init", "x")
    assert missing.returncode == 2 and "--language" in missing.stderr
