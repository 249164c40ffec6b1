"""Golden-file comparison shared by the golden tests: compare, or rewrite with --update-goldens."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest


def check_golden(path: Path, actual: str, update: bool) -> None:
    if update:
        path.write_text(actual, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"{path} is missing; run pytest --update-goldens to create it")
    expected = path.read_text(encoding="utf-8")
    if expected != actual:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                fromfile=f"expected/{path.name}",
                tofile=f"actual/{path.name}",
            )
        )
        pytest.fail(f"golden mismatch for {path}:\n{diff}")
