"""One old/new fixture pair per rule, each with its expected text report (golden).

Each ``fixtures/<rule id>[~variant]/`` holds ``old/`` and ``new/`` specs and ``expected.txt``;
the report must contain the rule the directory is named after.  ``python.*`` fixtures are
diffed at the Python-API level, the others at the wire level.  ``pytest --update-goldens``
rewrites the expectations.
"""

from __future__ import annotations

import pytest

from codegen.diff import RULES, Level, diff_sides
from tests.diff.support import FIXTURES, REPO, level_of, rel, rule_of
from tests.golden_support import check_golden

CASES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


@pytest.mark.parametrize("name", CASES)
def test_rule_fixture(name: str, update_goldens: bool) -> None:
    case = FIXTURES / name
    report = diff_sides(
        rel(case / "old"), rel(case / "new"), level=Level(level_of(name)), cwd=REPO
    )
    assert rule_of(name) in RULES, f"fixture {name} names no rule"
    assert rule_of(name) in {r.change.rule.id for r in report.rated}
    check_golden(case / "expected.txt", report.text(), update_goldens)


def test_fixture_names_are_rules() -> None:
    assert CASES, f"no fixtures under {FIXTURES}"
    assert all(rule_of(name) in RULES for name in CASES)
