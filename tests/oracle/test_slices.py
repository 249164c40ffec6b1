"""A bounded slice of ``make oracle`` for every built-in spec, and each oracle's own facts.

The toolchains (go, cargo with Debian's serde crates, node with the pinned typescript) are
installed by ``.ci/run`` and the Makefile; when one is missing these tests fail with the
oracle's message naming what to install: they never skip into passing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from codegen.oracles.case import Answer, Case
from codegen.oracles.divergences import load_divergences, load_open_findings
from codegen.oracles.report import describe
from codegen.oracles.run import BUILD_DIR, Options, make_oracle, run_spec
from codegen.oracles.subject import load_subject
from codegen.pipeline import discover_specs

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = [p.name for p in discover_specs(REPO / "specs")]
SLICE = Options(per_type=4, draws=2, official_draws=1)


@pytest.mark.parametrize("spec", SPECS)
def test_a_slice_of_the_campaign_finds_nothing_new(spec: str) -> None:
    report = run_spec(
        spec, REPO, load_divergences(REPO), SLICE, load_open_findings(REPO)
    )
    assert report.error is None, report.error
    counts = report.counts()
    # It really ran: types, cases, and the oracle both accepted and rejected some.
    assert report.targets and counts["cases"] >= 2 * len(report.targets)
    assert 0 < counts["oracle_accepts"] < counts["cases"]
    new = [o for o in report.failures if not o.known]
    assert not new, "\n\n".join(describe(o) for o in new[:5])


def _judge(spec: str, cases: Sequence[tuple[str, str]]) -> list[Answer]:
    subject = load_subject(spec, REPO)
    oracle = make_oracle(subject, REPO / BUILD_DIR / spec)
    return oracle.judge([Case(spec, t, text, "test") for t, text in cases])


def test_serde_oracle_reads_as_serde_does() -> None:
    answers = _judge(
        "acp",
        [
            ("ProtocolVersion", '"1.2.3"'),
            ("ProtocolVersion", '"not-a-version"'),
            ("ToolCallId", "1.0"),
            # A struct with tag = "type" ignores the tag's value when it reads.
            ("ToolCallLocation", '{"type":"Other","path":"a"}'),
            ("ReadTextFileParams", '{"path":"a","line":null}'),
        ],
    )
    assert answers[0] == Answer(True, '"1.2.3"')
    assert not answers[1].accept and "version" in answers[1].detail
    assert not answers[2].accept
    assert answers[3] == Answer(True, '{"type":"ToolCallLocation","path":"a"}')
    assert answers[4] == Answer(True, '{"path":"a"}')


def test_go_oracle_reads_as_encoding_json_does() -> None:
    answers = _judge(
        "piglet",
        [
            ("CancelParams", '{"id":1}'),
            ("CancelParams", '{"id":1.0}'),
            ("CancelParams", '{"ID":5,"other":1}'),  # keys match case-insensitively
            ("AbortWithMarkerParams", '{"reason":null}'),  # null into a string: no-op
        ],
    )
    assert answers[0] == Answer(True, '{"id":1}')
    assert not answers[1].accept and "1.0" in answers[1].detail
    assert answers[2] == Answer(True, '{"id":5}')
    assert answers[3] == Answer(True, '{"reason":""}')


def test_typescript_oracle_checks_types() -> None:
    answers = _judge(
        "ahp",
        [
            ("InitializeParams", '{"protocolVersion":1,"clientId":"c"}'),
            ("InitializeParams", '{"clientId":"c"}'),
            ("InitializeParams", '{"protocolVersion":"1","clientId":"c"}'),
            # An extra key alone does not reject (listed in divergences.toml) ...
            ("InitializeParams", '{"protocolVersion":1,"clientId":"c","zz":1}'),
            # ... and does not hide an error behind it.
            ("InitializeParams", '{"zz":1,"protocolVersion":"1","clientId":"c"}'),
        ],
    )
    assert [a.accept for a in answers] == [True, False, False, True, False]
    assert "protocolVersion" in answers[1].detail
    assert "excess property /zz" in answers[3].detail


def test_typescript_oracle_reads_a_union_as_parsed_messages() -> None:
    """tsc guesses a union member from a fresh literal's keys and reports unknown keys
    nested in it (or a weak type with none of its keys) as other errors; the second look
    reads the case as a parsed message, unknown keys aside, and still rejects real errors.
    """
    roots = '"jsonrpc":"2.0","method":"notifications/roots/list_changed"'
    # A task's keys under the roots notification: tsc takes it for a task status
    # notification (TS2322 on "status"), the first look cannot see an excess key.
    task = '"taskId":"t","status":"completed","createdAt":"c","lastUpdatedAt":"u"'
    answers = _judge(
        "mcp",
        [
            ("ClientNotification", "{" + roots + ',"params":{' + task + "}}"),
            ("ClientNotification", "{" + roots + ',"params":{' + task + ',"_meta":5}}'),
            ("ClientNotification", "{" + roots + ',"params":{"_meta":5}}'),
            (
                "ClientNotification",
                '{"jsonrpc":"2.0","method":"notifications/nope","params":{}}',
            ),
            (
                "ClientNotification",
                '{"jsonrpc":"1.0","method":"notifications/initialized"}',
            ),
        ],
    )
    assert [a.accept for a in answers] == [True, False, False, False, False]
    assert "JSON.parse" in answers[0].detail
    assert "/params/status ignored" in answers[0].detail
