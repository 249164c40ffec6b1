"""Snapshots of a directory tree for the crash tests: which files exist with which bytes."""

from __future__ import annotations

import shutil
from pathlib import Path

from codegen.writer import TX_DIR

_CACHES = {
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".codegen_cache",
}


def snapshot(root: Path, under: list[str] | None = None) -> dict[str, bytes]:
    """Every file (root-relative) and its bytes, outside the writer's own ``TX_DIR``."""
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts[0] == TX_DIR or _CACHES & set(rel.parts):
            continue
        if path.is_file() or path.is_symlink():
            name = rel.as_posix()
            if under is None or any(name.startswith(u + "/") for u in under):
                out[name] = path.read_bytes()
    return out


def within(tree: dict[str, bytes], prefix: str) -> dict[str, bytes]:
    return {k: v for k, v in tree.items() if k.startswith(prefix.rstrip("/") + "/")}


def restore(root: Path, tree: dict[str, bytes], dirs: list[str]) -> None:
    """Put ``root`` back to exactly ``tree`` (for the listed top-level dirs)."""
    shutil.rmtree(root / TX_DIR, ignore_errors=True)
    for name in dirs:
        shutil.rmtree(root / name, ignore_errors=True)
    for rel, data in tree.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
