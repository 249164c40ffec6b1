"""The diff reads specs through the pipeline only: never a backend, a template or Jinja."""

from __future__ import annotations

import ast
from pathlib import Path

DIFF = Path(__file__).resolve().parent.parent.parent / "codegen" / "diff"


def test_diff_never_imports_backends_or_jinja() -> None:
    for module in sorted(DIFF.glob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        names = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        } | {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        }
        bad = {
            n
            for n in names
            if n.startswith(("codegen.backends", "codegen.render", "jinja2"))
        }
        assert not bad, f"{module.name} imports {sorted(bad)}"
        assert ast.get_docstring(tree), f"{module.name} has no module docstring"
