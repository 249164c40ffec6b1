"""The one place that writes generated files: compare, write atomically, remove stale files.

Phase: output.
Inputs: a plan ``{repo-relative path: text}`` and the directories the generator owns.
Outputs: files on disk (``apply``) or a unified diff of what would change (``check``).
Guarantees: each file is written to a temporary file in its directory and renamed into place,
so a crash never leaves a half-written file; files in owned directories that the plan no longer
contains are removed; unchanged files are not touched (mtimes stay, tools stay quiet).
"""

from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

_IGNORED_PARTS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


@dataclass
class Changes:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def any(self) -> bool:
        return bool(self.created or self.updated or self.removed)


# Build output of `pip install` run in a generated package's folder (the package's own
# .gitignore names them too): never the generator's files, never stale.
_BUILD_OUTPUT = {"build", "dist", ".eggs"}


def _owned_files(
    root: Path, owned_dirs: list[str], planned: frozenset[str] = frozenset()
) -> set[str]:
    planned_dirs = {str(Path(rel).parent) for rel in planned}
    found: set[str] = set()
    for owned in owned_dirs:
        base = root / owned
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            if not path.is_file() or _IGNORED_PARTS & set(path.parts):
                continue
            rel = path.relative_to(root).as_posix()
            if rel not in planned and _is_build_output(path, base, root, planned_dirs):
                continue
            found.add(rel)
    return found


def _is_build_output(
    path: Path, base: Path, root: Path, planned_dirs: set[str]
) -> bool:
    """Inside a ``build/``, ``dist/``, ``.eggs/`` or ``*.egg-info/`` folder of an owned
    directory that holds no generated file (a package named ``build`` stays owned)."""
    folder = path.parent
    while folder != base:
        name = folder.name
        if name in _BUILD_OUTPUT or name.endswith(".egg-info"):
            inside = folder.relative_to(root).as_posix()
            return not any(
                d == inside or d.startswith(inside + "/") for d in planned_dirs
            )
        folder = folder.parent
    return False


def _changes(
    root: Path, plan: dict[str, str], owned_dirs: list[str]
) -> tuple[Changes, dict[str, str]]:
    """What applying the plan would change, and the current text of each updated file."""
    changes = Changes()
    old_texts: dict[str, str] = {}
    for rel in sorted(plan):
        path = root / rel
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        if old == plan[rel]:
            continue
        if old is None:
            changes.created.append(rel)
        else:
            changes.updated.append(rel)
            old_texts[rel] = old
    changes.removed = sorted(
        _owned_files(root, owned_dirs, frozenset(plan)) - set(plan)
    )
    return changes, old_texts


def diff_plan(
    root: Path, plan: dict[str, str], owned_dirs: list[str]
) -> tuple[Changes, str]:
    changes, old_texts = _changes(root, plan, owned_dirs)
    chunks: list[str] = []
    for rel in sorted(changes.created + changes.updated):
        old = old_texts.get(rel)
        chunks.extend(
            difflib.unified_diff(
                (old or "").splitlines(keepends=True),
                plan[rel].splitlines(keepends=True),
                fromfile=f"a/{rel}" if old is not None else "/dev/null",
                tofile=f"b/{rel}",
            )
        )
    for rel in changes.removed:
        old = (root / rel).read_text(encoding="utf-8", errors="replace")
        chunks.extend(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                [],
                fromfile=f"a/{rel}",
                tofile="/dev/null",
            )
        )
    return changes, "".join(
        chunk if chunk.endswith("\n") else chunk + "\n" for chunk in chunks
    )


def apply_plan(root: Path, plan: dict[str, str], owned_dirs: list[str]) -> Changes:
    changes, _ = _changes(root, plan, owned_dirs)
    for rel in changes.created + changes.updated:
        write_atomic(root / rel, plan[rel])
    for rel in changes.removed:
        (root / rel).unlink()
        _prune_empty_dirs((root / rel).parent, root)
    return changes


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def _prune_empty_dirs(directory: Path, root: Path) -> None:
    while directory != root and directory.is_dir() and not any(directory.iterdir()):
        directory.rmdir()
        directory = directory.parent
