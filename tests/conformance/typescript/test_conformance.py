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


def test_the_tjs_root_is_compared_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every candidate root differs from the peer (each value judged differently): each
    # is compared once to choose the closest, and tsc decides that one's values without
    # comparing it again.
    compared: list[list[str]] = []
    decided: list[int] = []
    differences = harness._differences
    decide = harness._decide

    def counting(*args: Any, **kwargs: Any) -> Any:
        compared.append(list(args[2]))
        return differences(*args, **kwargs)

    def deciding(spec: Any, differing: list[Any], verdict: Any) -> None:
        decided.append(len(differing))
        decide(spec, differing, verdict)

    def valid(validator: Any, value: Any) -> bool:
        return type(validator).__name__ == "Draft7Validator"  # theirs yes, ours no

    monkeypatch.setattr(harness, "_differences", counting)
    monkeypatch.setattr(harness, "_decide", deciding)
    monkeypatch.setattr(harness, "_valid", valid)
    monkeypatch.setattr(
        harness, "tsc_accepts", lambda files, name, values: [False] * len(values)
    )
    verdict = run_case("tjs", "annotation-title", draws=2)
    names = [n for [n] in compared]
    assert names == ["MySubObject", "AnotherSubObject", "MyObject"]
    assert len(decided) == 1 and decided[0] > 0
    assert verdict.ok and "tsc decides" in verdict.divergence


def _refused(tmp_path: Any, text: str) -> Any:
    folder = tmp_path / "case"
    folder.mkdir()
    (folder / "main.ts").write_text(text, encoding="utf-8")
    return harness._expected_failure("tjs", "case", "no schema", folder)


def test_both_refuse_it_at_the_roots_declaration(tmp_path: Any) -> None:
    verdict = _refused(tmp_path, "export type MyNever = never;\n")
    assert verdict.ok and "MyNever" in verdict.divergence


def test_an_error_elsewhere_is_not_the_peers_refusal(tmp_path: Any) -> None:
    # The root reads well; a syntax error on another line refuses the case, not the root.
    verdict = _refused(tmp_path, "export type Fine = string;\nlet = ;\n")
    assert not verdict.ok and "elsewhere" in verdict.why
