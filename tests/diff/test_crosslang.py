"""The same small protocol (2 requests, a struct with required and optional fields, a closed
enum, a tagged union) in TypeScript, Rust serde, Go and prose: diffing TypeScript against each
must show zero wire changes, or exactly the differences the source language really has.
"""

from __future__ import annotations

import pytest

from codegen.diff import Level, Severity, diff_sides
from tests.diff.support import CROSSLANG, REPO, rel


@pytest.mark.parametrize("language", ["rust", "prose"])
def test_same_protocol_has_no_wire_change(language: str) -> None:
    report = diff_sides(
        rel(CROSSLANG / "typescript"), rel(CROSSLANG / language), cwd=REPO
    )
    assert [f"{r.change.where}: {r.change.message}" for r in report.rated] == []
    # And back: the comparison is symmetric in what it finds.
    back = diff_sides(
        rel(CROSSLANG / language), rel(CROSSLANG / "typescript"), cwd=REPO
    )
    assert back.rated == []


def test_prose_has_the_same_python_api() -> None:
    report = diff_sides(
        rel(CROSSLANG / "typescript"),
        rel(CROSSLANG / "prose"),
        level=Level.PYTHON,
        cwd=REPO,
    )
    assert report.rated == []


def test_go_differs_only_where_encoding_json_does() -> None:
    """Go has no closed string enums, no sum types, and encoding/json reads a missing key
    as the zero value; those are real wire differences, and the only ones reported."""
    report = diff_sides(rel(CROSSLANG / "typescript"), rel(CROSSLANG / "go"), cwd=REPO)
    found = sorted((r.change.rule.id, r.change.where) for r in report.rated)
    always_written = [
        "AskParams.question",
        "AskResult.color",
        "OpenParams.displayName",
        "OpenParams.part",
        "OpenParams.uri",
        "OpenResult.ok",
    ]
    assert found == sorted(
        [("field.presence-relaxed", where) for where in always_written]
        + [
            # type Color string + typed constants: an open enum with the same members
            ("enum.opened", "Color"),
            # omitempty: a missing key reads as "" (and "" is left out when written)
            ("field.default-changed", "OpenParams.color"),
            ("type.changed", "OpenParams.part"),  # one struct, not a tagged union
        ]
    )
    opened = next(r for r in report.rated if r.change.rule.id == "enum.opened")
    assert opened.severity is Severity.COMPATIBLE
    # The other way round the enum closes: a TypeScript reader rejects values a Go
    # writer may send.
    back = diff_sides(rel(CROSSLANG / "go"), rel(CROSSLANG / "typescript"), cwd=REPO)
    closed = [r for r in back.rated if r.change.rule.id == "enum.closed"]
    assert [(r.change.where, r.severity) for r in closed] == [
        ("Color", Severity.BREAKING)
    ]
