"""Building a generated package in its own folder (`pip install generated/<id>/python`)
leaves build/ and *.egg-info/ there: git ignores them (the package's .gitignore) and so
does ``generate --check``; anything else in the generator's folders still counts."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from codegen.writer import apply_plan, diff_plan
from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    shutil.copytree(REPO / "specs" / "piglet", root / "specs" / "piglet")
    shutil.copytree(REPO / "generated" / "piglet", root / "generated" / "piglet")
    return root


def test_building_in_place_leaves_check_clean_and_git_quiet(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    package = root / "generated/piglet/python"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
        + ["--no-build-isolation", "--wheel-dir", str(tmp_path / "dist"), "."],
        cwd=package,
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    # the wheel carries the runtime subpackage (setuptools installs only listed packages)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {
        "piglet_protocol/_rpc/__init__.py",
        "piglet_protocol/_rpc/connection.py",
    } <= names
    leftovers = {".build", "piglet_protocol.egg-info"}
    assert leftovers <= {p.name for p in package.iterdir()}
    assert not (package / "build").exists()  # setup.cfg: out of type checkers' way
    (package / "build" / "lib").mkdir(parents=True)  # an older build's folder
    (package / "dist").mkdir()
    (package / "dist" / "piglet_protocol-5-py3-none-any.whl").write_bytes(b"x")
    check = run_codegen(root, "generate", "--check")
    assert check.returncode == 0, check.stdout[-2000:] + check.stderr
    # the package's own .gitignore hides them from git
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "generated"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "build/" not in status and "egg-info" not in status and "dist/" not in status
    assert ".build" not in status
    assert "generated/piglet/python/.gitignore" in status
    # generate leaves them alone; a stray file of another kind is still stale
    assert run_codegen(root, "generate", "-q").returncode == 0
    assert (package / ".build").is_dir()
    (package / "piglet_protocol" / "stray.py").write_text("x = 1\n")
    stale = run_codegen(root, "generate", "--check")
    assert stale.returncode == 1 and "piglet_protocol/stray.py" in stale.stdout


def test_type_checkers_over_the_tree_see_one_copy_of_a_built_package(
    tmp_path: Path,
) -> None:
    """mypy --strict over a folder holding a built package: with the generated
    setup.cfg the build copy is in .build/ and skipped; without it (the rejecting
    twin) setuptools' build/lib copy is a duplicate module."""
    root = _copy(tmp_path)
    package = root / "generated/piglet/python"
    for cfg in (True, False):
        if not cfg:
            (package / "setup.cfg").unlink()
            shutil.rmtree(package / ".build")
        built = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
            + ["--no-build-isolation", "--wheel-dir", str(tmp_path / "dist"), "."],
            cwd=package,
            capture_output=True,
            text=True,
            check=False,
        )
        assert built.returncode == 0, built.stderr
        checked = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "."],
            cwd=package,
            capture_output=True,
            text=True,
            check=False,
        )
        assert (checked.returncode == 0) == cfg, checked.stdout[-2000:]


def test_a_package_called_build_stays_the_generators(tmp_path: Path) -> None:
    plan = {
        "gen/x/python/build/__init__.py": "a\n",
        "gen/x/python/pyproject.toml": "b\n",
    }
    apply_plan(tmp_path, plan, ["gen/x"])
    stale = tmp_path / "gen/x/python/build/old.py"
    stale.write_text("old\n")
    egg = tmp_path / "gen/x/python/x.egg-info/PKG-INFO"
    egg.parent.mkdir()
    egg.write_text("Name: x\n")
    changes, _ = diff_plan(tmp_path, plan, ["gen/x"])
    assert changes.removed == ["gen/x/python/build/old.py"]
    apply_plan(tmp_path, plan, ["gen/x"])
    assert not stale.exists() and egg.exists()
