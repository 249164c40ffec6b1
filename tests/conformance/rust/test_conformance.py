"""The fast slice of the Rust peer suites (``make conformance-rust`` runs them all, with
the serde oracle deciding differences): a sample of cases across constructs agrees by wire
meaning both ways without asking serde, a case we read differently fails, the harness
finds each case's root and gives typeshare's inputs their serde derives, and the
out-of-scope list names real cases with reasons."""

from __future__ import annotations

import pytest

from tests.conformance.rust import schemars_cases, typeshare_cases
from tests.conformance.rust.report import known_failures, out_of_scope

FAST_SCHEMARS = [
    "enum_repr~enum_repr",
    "enums~renamed",
    "structs~tuple",
    # read and written forms apart (the .ser one is judged on our written form)
    "contract~internally_tagged_enum.de",
    "enums_flattened~external_enums_flattened",
]
FAST_TYPESHARE = ["can_generate_simple_enum", "can_handle_quote_in_serde_rename"]


@pytest.mark.parametrize("case", FAST_SCHEMARS)
def test_a_schemars_case_agrees_both_ways(case: str) -> None:
    verdict = schemars_cases.run_case(case, draws=8, serde=False)
    assert verdict.ok, (verdict.why, verdict.disagreements[:3])


@pytest.mark.parametrize("case", FAST_TYPESHARE)
def test_a_typeshare_case_agrees_both_ways(case: str) -> None:
    verdict = typeshare_cases.run_case(case, draws=8, serde=False)
    assert verdict.ok, (verdict.why, verdict.disagreements[:3])


def test_a_case_we_read_differently_fails() -> None:
    # TryFrom<String>'s code rejects most strings (the peer's pattern says which); we
    # read any string, so the peer's schema rejects what ours accepts
    verdict = schemars_cases.run_case(
        "from_into~into_and_try_from", draws=8, serde=False
    )
    assert not verdict.ok and verdict.disagreements


def test_the_root_is_the_type_the_test_passes() -> None:
    assert schemars_cases.root_expression("structs~unit") == "UnitStruct"
    assert schemars_cases.root_expression("enums~externally_tagged_enum") == "External"
    # the #[test] fn, not the `fn from` of an `impl From` above it in the file
    assert schemars_cases.root_expression("from_into~from.de") == "ClampingI8"
    assert schemars_cases.root_expression("from_into~into_and_try_from") == (
        "EventSequenceNumber"
    )
    # a test that builds its schema from a value names no type
    assert schemars_cases.root_expression("from_value~json_value").startswith("value:")


def test_typeshare_items_get_serde_derives_once() -> None:
    text = (
        "#[typeshare]\n/// doc\npub struct A { x: u8 }\n"
        "#[derive(Serialize, Deserialize)]\n#[typeshare]\npub enum B { #[typeshare(skip)] C }\n"
        "#[typeshare]\npub type T = Option<u8>;\n"
    )
    out = typeshare_cases._derived(text)
    assert out.count("#[derive(Serialize, Deserialize)]") == 2
    assert out.index("#[derive(Serialize, Deserialize)]") < out.index("pub struct A")
    # a variant's #[typeshare(skip)] is no item: nothing is inserted before it
    assert "#[derive(Serialize, Deserialize)]\nC" not in out
    # a type alias takes no derive (rustc rejects one)
    assert "#[derive(Serialize, Deserialize)]\n#[typeshare]\npub type T" not in out


@pytest.mark.parametrize(
    ("suite", "known"),
    [("schemars", schemars_cases.cases), ("typeshare", typeshare_cases.cases)],
)
def test_listed_cases_exist_and_say_why(suite: str, known: object) -> None:
    names = set(known())  # type: ignore[operator]
    listed = out_of_scope(suite)
    assert listed
    for case, reason in listed.items():
        assert case in names, case
        assert len(reason) > 20, case


@pytest.mark.parametrize(
    ("suite", "known"),
    [("schemars", schemars_cases.cases), ("typeshare", typeshare_cases.cases)],
)
def test_listed_failures_are_real_in_scope_cases_with_reasons(
    suite: str, known: object
) -> None:
    names = set(known())  # type: ignore[operator]
    failing = known_failures(suite)
    skipped = out_of_scope(suite)
    for case, reason in failing.items():
        assert case in names and case not in skipped, case
        assert len(reason) > 40, case
