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
SLICE = Options(per_type=8, draws=2, official_draws=1)


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
