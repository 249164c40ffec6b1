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


def check_spec_case(case: Path, update: bool) -> None:
    """A golden spec folder: its IR dump and rendered diagnostics against the expectations."""
    from codegen.diagnostics import render_all
    from codegen.ir import dump as ir_dump
    from codegen.pipeline import load_protocol

    outcome = load_protocol(case, repo_root=case)
    dumped = (
        ir_dump.dump(outcome.protocol) if outcome.protocol is not None else "null\n"
    )
    check_golden(case / "expected.ir.json", dumped, update)
    check_golden(
        case / "expected.diagnostics.txt",
        render_all(outcome.diags, case) + "\n",
        update,
    )
