"""The fast slice of the peer conformance suites (``make conformance-ts`` runs them all):
a sample of cases across constructs must agree by wire meaning both ways, the lists of
out-of-scope cases and divergences name real cases with reasons, and a case whose
expectation we do not meet is reported as a failure (the harness can fail)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conformance.typescript import harness
from tests.conformance.typescript.harness import (
    cases,
    divergences,
    not_built,
    out_of_scope,
    run_case,
)

FAST = [
    ("tjsg", "import-simple"),
    ("tjsg", "type-aliases-local-namespace"),
    ("tjsg", "undefined-property"),
    ("tjs", "interface-single"),
    ("tjsg", "type-aliases-tuple-rest"),
    ("tjsg", "type-conditional-infer-rest"),
    ("tjsg", "string-template-expression-literals"),
]


@pytest.mark.parametrize(("suite", "case"), FAST)
def test_a_case_agrees_both_ways(suite: str, case: str) -> None:
    verdict = run_case(suite, case, draws=8)
    assert verdict.ok, (verdict.why, verdict.disagreements[:3])


def test_tsc_decides_a_difference_our_way() -> None:
    # ``typeof arr`` of a non-const array widens to string[] (tsc), the peer keeps the
    # literals: every difference is decided by tsc, in our favour, and recorded
    verdict = run_case("tjsg", "literal-index-type", draws=8)
    assert verdict.ok and "tsc decides" in verdict.divergence


def test_a_difference_tsc_decides_the_peers_way_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []

    def against_us(files: dict[str, str], name: str, values: list[Any]) -> list[Any]:
        calls.append(len(values))
        return [None] * len(values)  # no verdict is never our way

    monkeypatch.setattr(harness, "tsc_accepts", against_us)
    verdict = run_case("tjsg", "literal-index-type", draws=8)
    assert calls and not verdict.ok and verdict.disagreements
    assert "tsc could not judge" in verdict.disagreements[0]


def test_only_tsc_can_excuse_a_difference(monkeypatch: pytest.MonkeyPatch) -> None:
    def peers_way(files: dict[str, str], name: str, values: list[Any]) -> list[Any]:
        # accept exactly what the peer's schema accepted: the literals "abc", "def"
        return [v in ("abc", "def") for v in values]

    monkeypatch.setattr(harness, "tsc_accepts", peers_way)
    verdict = run_case("tjsg", "literal-index-type", draws=8)
    assert not verdict.ok and "expected is right" in verdict.disagreements[0]


@pytest.mark.parametrize("suite", ["tjsg", "tjs"])
def test_listed_cases_exist_and_say_why(suite: str) -> None:
    known = set(cases(suite))
    for table in (out_of_scope(suite), divergences(suite), not_built(suite)):
        for case, reason in table.items():
            assert case in known, case
            assert len(reason) > 20, case
