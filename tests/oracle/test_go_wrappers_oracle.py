"""The Done-when of custom marshalers: a package whose unions are custom-marshaled wrappers
(gopls' ``Or_*`` form, an any-JSON wrapper, a text-marshaled string, a declared wrapper)
generates bindings that agree with encoding/json on drawn instances; a wrong form is caught.

Needs ``go`` (installed by .ci/run): without it the oracle's error fails the test.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from codegen.oracles.report import describe
from tests.oracle.go_fixture_support import oracle_report

FIXTURE = (
    Path(__file__).resolve().parent.parent / "frontends" / "go_fixtures" / "wrappers"
)
UNIONS = {"Or_Hover_contents", "Or_int32_string", "Or_Range_Position", "Name", "Opaque"}


def test_custom_marshaled_unions_agree_with_encoding_json(tmp_path: Path) -> None:
    report = oracle_report(FIXTURE, tmp_path)
    assert report.error is None, report.error
    assert UNIONS | {"Hover"} <= set(report.targets), report.skipped
    counts = report.counts()
    assert 0 < counts["oracle_accepts"] < counts["cases"]
    assert counts["cases"] >= 20 * len(report.targets)
    assert not report.failures, "\n\n".join(describe(o) for o in report.failures[:5])


def test_a_wrong_wire_form_is_found_by_the_oracle(tmp_path: Path) -> None:
    fixture = tmp_path / "fixture" / "wrappers"
    shutil.copytree(FIXTURE, fixture)
    toml = fixture / "spec.toml"
    # Declared as a string: Go reads integers too, and rejects what the union does not.
    toml.write_text(
        toml.read_text(encoding="utf-8").replace(
            'Opaque = "any"', 'Opaque = "any"\nOr_int32_string = "string"'
        ),
        encoding="utf-8",
    )
    report = oracle_report(fixture, tmp_path / "repo")
    assert report.error is None, report.error
    wrong = {o.case.type_name for o in report.failures}
    assert "Or_int32_string" in wrong
