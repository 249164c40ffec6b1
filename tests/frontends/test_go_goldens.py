"""Golden cases for the Go frontend: one folder per trap under tests/golden/go.

Each folder is a tiny spec (spec.toml + input.go or input.godoc.txt); the expectations are the IR dump after the
passes and the rendered diagnostics.  Refresh with ``pytest --update-goldens``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.golden_support import check_spec_case

CASES = sorted(
    p for p in (Path(__file__).parent.parent / "golden" / "go").iterdir() if p.is_dir()
)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_go_golden(case: Path, update_goldens: bool) -> None:
    check_spec_case(case, update_goldens)


def test_golden_cases_cover_every_go_trap() -> None:
    names = {case.name for case in CASES}
    assert {"wire_semantics", "page_listing", "method_overrides", "bad_input"} <= names
