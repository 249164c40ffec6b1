"""Verdicts: a disagreement fails unless a listed divergence excuses it."""

from __future__ import annotations

from collections import Counter

from codegen.oracles.case import Answer, Case
from codegen.oracles.divergences import Divergences, Rule
from codegen.oracles.ours import OurVerdict
from codegen.oracles.verdict import classify, nulls_as_read

CASE = Case("s", "T", '{"a":1}', "ours:0")


def _divergences(*normalizations: str, rules: tuple[Rule, ...] = ()) -> Divergences:
    return Divergences(
        {name: (("go", "typescript"), "why") for name in normalizations},
        list(rules),
        Counter(),
    )


def _ours(accept: bool, output: str | None = None, **extra: object) -> OurVerdict:
    return OurVerdict(Answer(accept, output), extra.pop("known", output), accept, "", **extra)  # type: ignore[arg-type]


def test_agreement() -> None:
    outcome = classify(
        CASE,
        Answer(True, '{"a":1}'),
        _ours(True, '{"a":1}'),
        language="go",
        compares="bytes",
        divergences=_divergences(),
    )
    assert outcome.status == "agree" and outcome.output_exact


def test_verdict_disagreement_fails() -> None:
    outcome = classify(
        CASE,
        Answer(False, None, "nope"),
        _ours(True, '{"a":1}'),
        language="go",
        compares="bytes",
        divergences=_divergences(),
    )
    assert outcome.status == "failure"
    assert [p.split(":")[0] for p in outcome.problems] == ["verdict", "schema"]


def test_output_disagreement_fails_without_a_normalization() -> None:
    oracle = Answer(True, '{"a":1}')
    ours = _ours(True, '{"a":1,"zz":2}', known='{"a":1}')
    strict = classify(
        CASE, oracle, ours, language="go", compares="bytes", divergences=_divergences()
    )
    assert strict.status == "failure" and strict.problems[0].startswith("output")
    relaxed = classify(
        CASE,
        oracle,
        ours,
        language="go",
        compares="bytes",
        divergences=_divergences("unknown-keys-dropped"),
    )
    assert relaxed.status == "excused" and relaxed.excused_by == [
        "unknown-keys-dropped"
    ]


def test_a_rule_excuses_only_what_it_names() -> None:
    rule = Rule("r", "why", (("what", ("verdict",)),))
    outcome = classify(
        CASE,
        Answer(False, None),
        _ours(True, '{"a":1}'),
        language="go",
        compares="bytes",
        divergences=_divergences(rules=(rule,)),
    )
    # The bindings' verdict is excused, the schema's is not.
    assert outcome.status == "failure" and outcome.excused_by == ["r"]
    assert outcome.problems[0].startswith("schema")


def test_open_findings_are_attributed_not_excused() -> None:
    finding = Rule("f", "why", (("oracle", ("reject",)),), owner="issue 99")
    outcome = classify(
        CASE,
        Answer(False, None),
        _ours(True, '{"a":1}'),
        language="go",
        compares="bytes",
        divergences=_divergences(),
        open_findings=[finding],
    )
    assert outcome.status == "failure" and outcome.known
    assert outcome.open_findings == ["f", "f"]


def test_typescript_compares_values_with_the_input() -> None:
    case = Case("s", "T", '{"n":1.0,"m":2}', "ours:0")
    outcome = classify(
        case,
        Answer(True, case.text),
        _ours(True, '{"m":2,"n":1}'),
        language="typescript",
        compares="values",
        divergences=_divergences("ts-number-values"),
    )
    assert outcome.status == "excused" and outcome.excused_by == ["ts-number-values"]
    wrong = classify(
        case,
        Answer(True, case.text),
        _ours(True, '{"m":2,"n":3}'),
        language="typescript",
        compares="values",
        divergences=_divergences("ts-number-values"),
    )
    assert wrong.status == "failure"


def test_null_as_zero_rereads_the_case_as_the_oracle_read_it() -> None:
    case = Case("s", "T", '{"a":null,"b":[null,"x"],"c":null}', "ours:0")
    oracle = Answer(True, '{"a":"","b":["","x"]}')
    assert nulls_as_read(case.text, oracle.output or "") == '{"a":"","b":["","x"]}'
    seen: list[str] = []

    def rejudge(again: Case) -> OurVerdict:
        seen.append(again.text)
        return _ours(True, '{"a":"","b":["","x"]}')

    outcome = classify(
        case,
        oracle,
        _ours(False),
        language="go",
        compares="bytes",
        divergences=_divergences("null-as-zero"),
        rejudge=rejudge,
    )
    assert seen == ['{"a":"","b":["","x"]}']
    assert outcome.status == "excused" and outcome.excused_by == ["null-as-zero"]
    # Without the normalization listed, the same case fails.
    plain = classify(
        case,
        oracle,
        _ours(False),
        language="go",
        compares="bytes",
        divergences=_divergences(),
        rejudge=rejudge,
    )
    assert plain.status == "failure"


def test_a_writer_refusal_fails_even_where_the_oracle_rejects() -> None:
    """Writers never refuse what readers accept: a value the bindings read but could not
    write is a failure, not an agreement with an oracle that rejects it."""
    refused = _ours(False, None, write_refused="PydanticSerializationError: boom")
    for oracle in (Answer(False, None, "nope"), Answer(True, '{"a":1}')):
        outcome = classify(
            CASE,
            oracle,
            refused,
            language="go",
            compares="bytes",
            divergences=_divergences(),
        )
        assert outcome.status == "failure"
        assert outcome.problems[0].startswith("writer: bindings read the value")
    # the twin: a plain rejection that agrees with the oracle is no failure
    plain = _ours(False, None)
    outcome = classify(
        CASE,
        Answer(False, None, "nope"),
        plain,
        language="go",
        compares="bytes",
        divergences=_divergences(),
    )
    assert outcome.status != "failure"
