"""Layers import only downward (DESIGN.md §2), checked on the source with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent.parent / "codegen"


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _modules(folder: str) -> list[Path]:
    found = sorted((PACKAGE / folder).rglob("*.py"))
    assert len(found) > 1, f"no modules under {folder}: the check would pass vacuously"
    return found


def test_ir_imports_nothing_from_the_package() -> None:
    assert not {
        name for name in imports_of(PACKAGE / "ir.py") if name.startswith("codegen")
    }


def test_frontends_never_import_backends_or_jinja() -> None:
    for module in _modules("frontends"):
        bad = {
            name
            for name in imports_of(module)
            if name.startswith(
                ("codegen.backends", "codegen.render", "jinja2", "codegen.passes")
            )
        }
        assert not bad, f"{module.name} imports {sorted(bad)}"


def test_passes_never_import_backends_or_frontends() -> None:
    for module in _modules("passes"):
        bad = {
            name
            for name in imports_of(module)
            if name.startswith(("codegen.backends", "codegen.frontends", "jinja2"))
        }
        assert not bad, f"{module.name} imports {sorted(bad)}"


def test_backends_never_import_frontends() -> None:
    for module in _modules("backends"):
        bad = {
            name for name in imports_of(module) if name.startswith("codegen.frontends")
        }
        assert not bad, f"{module.name} imports {sorted(bad)}"


def test_the_layering_check_sees_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from codegen.backends import python\nimport jinja2\n", encoding="utf-8"
    )
    assert {"codegen.backends", "jinja2"} <= imports_of(bad)
    good = tmp_path / "good.py"
    good.write_text("from codegen import ir\nimport json\n", encoding="utf-8")
    assert not {n for n in imports_of(good) if n.startswith("codegen.backends")}
