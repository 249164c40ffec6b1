"""Edits that change no wire form must report nothing: reordering, alias inlined, doc and
comment edits, a base interface spelled out, a type renamed (a Python-API change only).
"""

from __future__ import annotations

import pytest

from codegen.diff import Level, diff_sides
from tests.diff.support import NOCHANGE, REPO, rel

CASES = sorted(p.name for p in NOCHANGE.iterdir() if p.is_dir())


@pytest.mark.parametrize("name", CASES)
def test_no_wire_change(name: str) -> None:
    case = NOCHANGE / name
    report = diff_sides(rel(case / "old"), rel(case / "new"), cwd=REPO)
    assert [r.change.message for r in report.rated] == []
    assert report.exit_code("compatible") == 0
    assert report.bump == "none"
    assert report.text() == (
        "no changes at the wire level\nsuggested version bump: none\n"
    )


@pytest.mark.parametrize(
    ("name", "python_rules"),
    [
        ("reordered", set()),
        ("doc-edits", set()),
        ("comments", set()),
        ("base-flattened", {"python.type-added"}),  # the base is a class too
        ("alias-inlined", {"python.type-removed"}),
        ("interface-renamed-wire-same", {"python.type-renamed"}),
    ],
)
def test_python_level_of_no_wire_change(name: str, python_rules: set[str]) -> None:
    case = NOCHANGE / name
    report = diff_sides(
        rel(case / "old"), rel(case / "new"), level=Level.PYTHON, cwd=REPO
    )
    assert {r.change.rule.id for r in report.rated} == python_rules


def test_there_are_no_change_cases() -> None:
    # test_no_wire_change passes vacuously on an empty folder.
    assert len(CASES) >= 6, CASES
