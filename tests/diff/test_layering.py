"""The diff reads specs through the pipeline only: never a backend, a template or Jinja."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.unit.test_layering import imports_of

DIFF = Path(__file__).resolve().parent.parent.parent / "codegen" / "diff"


def test_diff_never_imports_backends_or_jinja() -> None:
    modules = sorted(DIFF.glob("*.py"))
    assert len(modules) > 1, "no diff modules found: the check would pass vacuously"
    for module in modules:
        bad = {
            n
            for n in imports_of(module)
            if n.startswith(("codegen.backends", "codegen.render", "jinja2"))
        }
        assert not bad, f"{module.name} imports {sorted(bad)}"
        tree = ast.parse(module.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{module.name} has no module docstring"
