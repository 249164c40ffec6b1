"""A user's template folder replaces single built-in templates; the rest stay built in."""

from __future__ import annotations

import shutil
from pathlib import Path

from codegen.backends.render import TEMPLATES_DIR, builtin_templates
from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent


def _project(tmp_path: Path, settings: str = "") -> Path:
    (tmp_path / "pyproject.toml").write_text(f"[tool.codegen]\n{settings}")
    shutil.copytree(REPO / "specs" / "piglet", tmp_path / "specs" / "piglet")
    return tmp_path


def _override(folder: Path, name: str, edit: str) -> None:
    target = folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(edit + (TEMPLATES_DIR / name).read_text())


def test_one_template_is_replaced_and_the_others_stay(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _override(project / "mine", "docs/index.md.j2", "Our house style.\n")
    done = run_codegen(project, "generate", "--templates", "mine", "-q")
    assert done.returncode == 0, done.stderr
    docs = project / "generated/piglet/docs"
    assert (docs / "index.md").read_text().startswith("Our house style.\n")
    assert not (docs / "methods.md").read_text().startswith("Our house style.")
    # every other file is what the built-in templates give
    plain = tmp_path / "plain"
    assert run_codegen(project, "generate", "-o", str(plain), "-q").returncode == 0
    ours = {
        p.relative_to(docs.parent): p.read_text()
        for p in docs.parent.rglob("*")
        if p.is_file() and "_provenance" not in p.name
    }
    theirs = {
        p.relative_to(plain / "piglet"): p.read_text()
        for p in (plain / "piglet").rglob("*")
        if p.is_file() and "_provenance" not in p.name
    }
    assert {k for k in ours if ours[k] != theirs[k]} == {Path("docs/index.md")}


def test_the_settings_name_the_folder_and_a_flag_overrides_it(tmp_path: Path) -> None:
    project = _project(tmp_path, 'templates = "house"\n')
    _override(project / "house", "python/__init__.py.j2", "{# house #}\n# house\n")
    _override(project / "other", "python/__init__.py.j2", "# other\n")
    init = project / "generated/piglet/python/piglet_protocol/__init__.py"
    assert run_codegen(project, "generate", "-q").returncode == 0
    assert init.read_text().startswith("# house\n")
    assert (
        run_codegen(project, "generate", "--templates", "other", "-q").returncode == 0
    )
    assert init.read_text().startswith("# other\n")
    # --check with the settings' templates sees the flag's output as stale
    assert run_codegen(project, "generate", "--check", "-q").returncode == 1


def test_a_file_that_replaces_nothing_is_named(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "mine" / "python").mkdir(parents=True)
    (project / "mine" / "python" / "model.py.j2").write_text("typo\n")
    done = run_codegen(project, "generate", "--templates", "mine")
    assert done.returncode == 0
    assert (
        "warning: template python/model.py.j2 in mine replaces no built-in"
        in done.stderr
    )
    assert "python/models.py.j2" in done.stderr  # the names it could have meant
    assert "python/models.py.j2" in builtin_templates()


def test_a_broken_template_is_an_error_with_its_name_and_line(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "mine" / "docs").mkdir(parents=True)
    (project / "mine" / "docs" / "index.md.j2").write_text("ok\n{% if %}\n")
    done = run_codegen(project, "generate", "--templates", "mine")
    assert done.returncode == 1
    assert "error: template " in done.stderr and "index.md.j2:2:" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (project / "generated").exists()
    (project / "mine" / "docs" / "index.md.j2").write_text("{{ no_such_value }}\n")
    undefined = run_codegen(project, "generate", "--templates", "mine")
    assert (
        undefined.returncode == 1 and "'no_such_value' is undefined" in undefined.stderr
    )
    (project / "mine" / "docs" / "index.md.j2").write_text("{{ 1 // 0 }}\n")
    raising = run_codegen(project, "generate", "--templates", "mine")
    assert raising.returncode == 1 and "ZeroDivisionError" in raising.stderr
    assert "Traceback" not in raising.stderr


def test_formatter_none_leaves_the_templates_layout(tmp_path: Path) -> None:
    project = _project(tmp_path, 'formatter = "none"\n')
    assert run_codegen(project, "generate", "-q").returncode == 0
    assert run_codegen(project, "generate", "--check", "-q").returncode == 0
    formatted = run_codegen(project, "generate", "--check", "--formatter", "ruff", "-q")
    # ruff reorders imports and wraps long lines the templates leave as they are
    assert formatted.returncode == 1 and "python/piglet_protocol/" in formatted.stdout
