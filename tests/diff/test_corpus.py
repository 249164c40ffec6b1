"""Real revision histories against their expected reports.

Every consecutive pair of the old ACP crate (9 pairs) and of the four MCP revisions (3 pairs)
is diffed file against file, as a user would pass them, and compared with the expected report
in ``corpus/*.toml``, written from the sources side by side and the changelogs: no change
missed, none invented, none rated otherwise.  Each revision compared with itself reports
nothing, at the Python level too.  The corpus sits in ``../shared/corpus`` beside the checkout;
a revision the frontends cannot read fails here with their diagnostics.
"""

from __future__ import annotations

import itertools
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from codegen.diff import RULES, Level, Report, Severity, SideError, diff_sides
from tests.diff.support import REPO

HERE = Path(__file__).resolve().parent
CORPUS = REPO.parent / "shared" / "corpus"
EXPECTED = HERE / "corpus"


@dataclass(frozen=True)
class Expected:
    rule: str
    where: str
    severity: str
    message: str

    def matches(self, rule: str, where: str, message: str) -> bool:
        return rule == self.rule and where == self.where and self.message in message


@dataclass(frozen=True)
class Pair:
    history: str
    old: str
    new: str
    changes: tuple[Expected, ...]

    @property
    def id(self) -> str:
        return f"{Path(self.old).parent.name}..{Path(self.new).parent.name}"


def _load() -> list[Pair]:
    pairs = []
    for path in sorted(EXPECTED.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for pair in data["pair"]:
            changes = tuple(
                Expected(c["rule"], c["where"], c["severity"], c.get("message", ""))
                for c in pair.get("change", [])
            )
            pairs.append(Pair(path.stem, pair["old"], pair["new"], changes))
    return pairs


PAIRS = _load()


def _side(path: str) -> str:
    """A corpus file as a user in the repository names it (``../shared/corpus/…``)."""
    return Path(os.path.relpath(CORPUS / path, REPO)).as_posix()


def _diff(old: str, new: str, level: Level = Level.WIRE) -> Report:
    try:
        return diff_sides(_side(old), _side(new), level=level, cwd=REPO, outside=True)
    except SideError as exc:
        pytest.fail(f"the frontend cannot read this revision:\n{exc}")


def verdict(pair: Pair, report: Report) -> dict[str, list[str]]:
    """missed, invented and misrated changes of a report against its expectation."""
    found = [
        (r.change.rule.id, r.change.where, r.severity.value, r.change.message)
        for r in report.rated
    ]
    used: set[int] = set()
    missed: list[str] = []
    misrated: list[str] = []
    # Specific expectations first, so one that names no message takes what is left.
    for exp in sorted(pair.changes, key=lambda e: e.message == ""):
        hit = next(
            (
                i
                for i, (rule, where, _, message) in enumerate(found)
                if i not in used and exp.matches(rule, where, message)
            ),
            None,
        )
        if hit is None:
            missed.append(f"{exp.rule} {exp.where} {exp.message}".rstrip())
            continue
        used.add(hit)
        if found[hit][2] != exp.severity:
            misrated.append(
                f"{exp.rule} {exp.where}: {found[hit][2]}, expected {exp.severity}"
            )
    invented = [
        f"{rule} {where}: {message} ({severity})"
        for i, (rule, where, severity, message) in enumerate(found)
        if i not in used
    ]
    return {"missed": missed, "invented": invented, "misrated": misrated}


@pytest.mark.parametrize("pair", PAIRS, ids=[f"{p.history}:{p.id}" for p in PAIRS])
def test_pair_meets_its_expected_report(pair: Pair) -> None:
    report = _diff(pair.old, pair.new)
    assert verdict(pair, report) == {
        "missed": [],
        "invented": [],
        "misrated": [],
    }, report.text()


REVISIONS = sorted({p.old for p in PAIRS} | {p.new for p in PAIRS})


@pytest.mark.parametrize("revision", REVISIONS)
def test_revision_against_itself_reports_nothing(revision: str) -> None:
    report = _diff(revision, revision, Level.PYTHON)
    assert report.rated == []


def test_expected_reports_cover_every_consecutive_pair() -> None:
    for history, count in (("acp-old", 9), ("mcp", 3)):
        pairs = [p for p in PAIRS if p.history == history]
        assert len(pairs) == count, history
        for before, after in itertools.pairwise(pairs):
            assert before.new == after.old, (before.id, after.id)
        for pair in pairs:
            assert (CORPUS / pair.old).is_file() and (CORPUS / pair.new).is_file()


def test_expected_reports_name_real_rules_and_severities() -> None:
    severities = {s.value for s in Severity}
    for pair in PAIRS:
        for exp in pair.changes:
            assert exp.rule in RULES, exp
            assert exp.severity in severities, exp


def test_verdict_catches_missed_invented_and_misrated() -> None:
    """The comparison above can fail: checked on a real pair with doctored expectations."""
    pair = next(p for p in PAIRS if p.id == "v0.0.6..v0.0.7")
    report = _diff(pair.old, pair.new)
    doctored = Pair(
        pair.history,
        pair.old,
        pair.new,
        (
            Expected("method.added", "writeTextFile", "breaking", ""),
            Expected("method.added", "nosuchMethod", "dangerous", ""),
        ),
    )
    result = verdict(doctored, report)
    assert result["misrated"] == [
        "method.added writeTextFile: dangerous, expected breaking"
    ]
    assert result["missed"] == ["method.added nosuchMethod"]
    assert len(result["invented"]) == 2  # readTextFile, PushToolCallParams.locations
