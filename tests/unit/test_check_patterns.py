"""Patterns from a spec in the generated Python: each checked with its ECMA-262 meaning (the
Rust engine where it can say it, Python's re for look-around and back-references), and one
neither can say is a PAT001 warning at its place, never a package that fails on import.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli_support import run_codegen

SCHEMA = """export interface P {
  /** @pattern ^\\d+$ */
  digits: string;
  /** @pattern ^(?=.*[a-z])\\w+$ */
  ahead: string;
  /** @pattern ^(?<=a+)b$ */
  behind: string;
}
"""
SPEC = """[spec]
id = "pat"
language = "typescript"
sources = ["schema.ts"]
types = ["P"]
"""
CHECK = """
import pat_protocol as m
from pydantic import ValidationError
def ok(**kw):
    base = {"digits": "1", "ahead": "a1", "behind": "x"}
    try:
        m.P.model_validate({**base, **kw})
        return True
    except ValidationError:
        return False
assert ok()
assert not ok(digits="\\u0663"), "an Arabic-Indic digit is no ECMA \\\\d"
assert not ok(ahead="11"), "the look-ahead is checked"
assert not ok(digits="1\\n"), "$ is the end of the text"
assert ok(behind="anything"), "the pattern no engine can say is not checked"
print("checked")
"""


def _generate(tmp_path: Path, schema: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "schema.ts").write_text(schema, encoding="utf-8")
    (tmp_path / "spec.toml").write_text(SPEC, encoding="utf-8")
    return run_codegen(tmp_path, "generate", ".", "--output", "out")


def test_patterns_are_checked_as_ecma_reads_them(tmp_path: Path) -> None:
    run = _generate(tmp_path, SCHEMA)
    assert run.returncode == 0, run.stderr
    assert "schema.ts:7:3: warning[PAT001]: the pattern '^(?<=a+)b$'" in run.stderr
    assert run.stderr.count("PAT001") == 1
    imported = subprocess.run(
        [sys.executable, "-c", CHECK],
        cwd=tmp_path / "out" / "pat" / "python",
        capture_output=True,
        text=True,
        check=False,
    )
    assert imported.stdout.strip() == "checked", imported.stderr


def test_patterns_both_engines_say_get_no_warning(tmp_path: Path) -> None:
    # The twin: without the look-behind, nothing to say.
    lines = SCHEMA.splitlines(keepends=True)
    run = _generate(tmp_path, "".join(lines[:5] + lines[7:]))
    assert run.returncode == 0, run.stderr
    assert "PAT001" not in run.stderr
    models = (tmp_path / "out/pat/python/pat_protocol/models.py").read_text()
    assert 'pattern="^[0-9]+\\\\z"' in models
    assert 'pattern=re.compile("^(?=' in models and "\nimport re\n" in models


def test_the_re_import_is_where_ruff_and_black_want_it(tmp_path: Path) -> None:
    assert _generate(tmp_path, SCHEMA).returncode == 0
    package = tmp_path / "out" / "pat" / "python" / "pat_protocol"
    bin_dir = Path(sys.executable).parent
    for command in (
        [str(bin_dir / "ruff"), "check", "--isolated"],
        [str(bin_dir / "black"), "--check", "--quiet"],
    ):
        run = subprocess.run(
            [*command, str(package)], capture_output=True, text=True, check=False
        )
        assert run.returncode == 0, run.stdout + run.stderr
