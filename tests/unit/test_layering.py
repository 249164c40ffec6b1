"""Layers import only downward (DESIGN.md §2), checked on the source with ``ast``.

The rules, each a folder of ``codegen/`` and the imports its modules must not make:
the IR model imports nothing of the package; the rest of ``ir/`` only the model; frontends
never reach passes, backends or Jinja; passes never reach frontends or backends; backends
never reach frontends; the diff never reaches backends or Jinja; the runtime copied into
generated packages imports nothing of codegen at all (it must run without it); nothing
reaches the oracle campaign, which reads generated output and renders none.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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


def modules_under(folder: str) -> list[Path]:
    found = sorted((PACKAGE / folder).rglob("*.py"))
    assert len(found) > 1, f"no modules under {folder}: the check would pass vacuously"
    return found


# folder → import prefixes its modules must not use
RULES: dict[str, tuple[str, ...]] = {
    "frontends": (
        "codegen.backends", "codegen.passes", "codegen.cli", "codegen.oracles", "jinja2",
    ),
    "passes": (
        "codegen.backends", "codegen.frontends", "codegen.cli", "codegen.oracles",
        "jinja2",
    ),
    "backends": ("codegen.frontends", "codegen.cli", "codegen.diff", "codegen.oracles"),
    "diff": ("codegen.backends", "codegen.cli", "codegen.oracles", "jinja2"),
    "runtime": ("codegen",),
    "spec": (
        "codegen.frontends", "codegen.backends", "codegen.passes", "codegen.cli",
        "codegen.oracles",
    ),
    # The oracle campaign checks generated output; it never renders any.
    "oracles": ("codegen.backends", "codegen.cli", "jinja2"),
}  # fmt: skip


def violations(module: Path, forbidden: tuple[str, ...]) -> set[str]:
    return {
        name
        for name in imports_of(module)
        if any(name == p or name.startswith(p + ".") for p in forbidden)
    }


@pytest.mark.parametrize("folder", sorted(RULES))
def test_folder_imports_only_downward(folder: str) -> None:
    for module in modules_under(folder):
        bad = violations(module, RULES[folder])
        assert not bad, f"{module.relative_to(PACKAGE)} imports {sorted(bad)}"


def test_ir_model_imports_nothing_from_the_package() -> None:
    model = PACKAGE / "ir" / "__init__.py"
    assert not {name for name in imports_of(model) if name.startswith("codegen")}
    for module in modules_under("ir"):
        outside = {
            name
            for name in imports_of(module)
            if name.startswith("codegen")
            and not name.startswith("codegen.ir")
            and name != "codegen"
        }
        assert not outside, f"{module.name} imports {sorted(outside)}"


def test_every_module_says_what_it_is() -> None:
    for module in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        assert ast.get_docstring(
            tree
        ), f"{module.relative_to(PACKAGE)} has no docstring"


def test_the_layering_check_sees_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from codegen.backends import python\nimport jinja2\nimport codegen.ir\n",
        encoding="utf-8",
    )
    assert violations(bad, RULES["frontends"]) == {
        "codegen.backends",
        "codegen.backends.python",
        "jinja2",
    }
    assert violations(bad, RULES["runtime"]) == {
        "codegen.backends",
        "codegen.backends.python",
        "codegen.ir",
    }
    good = tmp_path / "good.py"
    good.write_text(
        "from codegen import ir\nimport json\nimport codegen_extra\n", encoding="utf-8"
    )
    assert not violations(good, RULES["frontends"])
    assert not violations(good, ("codegen.i",))  # a prefix is a whole dotted name
