"""The fast slice of the peer conformance suites (``make conformance-ts`` runs them all):
a sample of cases across constructs must agree by wire meaning both ways, the lists of
out-of-scope cases and divergences name real cases with reasons, and a case whose
expectation we do not meet is reported as a failure (the harness can fail)."""

from __future__ import annotations

import pytest

from tests.conformance.typescript.harness import (
    cases,
    divergences,
    out_of_scope,
    run_case,
)

FAST = [
    ("tjsg", "import-simple"),
    ("tjsg", "type-aliases-local-namespace"),
    ("tjsg", "undefined-property"),
    ("tjs", "interface-single"),
]


@pytest.mark.parametrize(("suite", "case"), FAST)
def test_a_case_agrees_both_ways(suite: str, case: str) -> None:
    verdict = run_case(suite, case, draws=8)
    assert verdict.ok, (verdict.why, verdict.disagreements[:3])


def test_a_case_we_read_differently_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    # the peer widens nothing here: its enum of two literals against our string
    verdict = run_case("tjsg", "literal-index-type", draws=8)
    assert not verdict.ok and verdict.disagreements


@pytest.mark.parametrize("suite", ["tjsg", "tjs"])
def test_listed_cases_exist_and_say_why(suite: str) -> None:
    known = set(cases(suite))
    for table in (out_of_scope(suite), divergences(suite)):
        for case, reason in table.items():
            assert case in known, case
            assert len(reason) > 20, case
