"""The divergences file: every entry has a reason, typos are errors, rules match as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.oracles.divergences import (
    DIVERGENCES_FILE,
    NORMALIZATIONS,
    OPEN_FINDINGS_FILE,
    DivergenceFileError,
    load_divergences,
    load_open_findings,
)

REPO = Path(__file__).resolve().parent.parent.parent


def _repo_with(tmp_path: Path, divergences: str, findings: str = "") -> Path:
    (tmp_path / DIVERGENCES_FILE).parent.mkdir(parents=True)
    (tmp_path / DIVERGENCES_FILE).write_text(divergences, encoding="utf-8")
    (tmp_path / OPEN_FINDINGS_FILE).write_text(findings, encoding="utf-8")
    return tmp_path


def test_the_project_files_load_and_every_entry_has_a_reason() -> None:
    divergences = load_divergences(REPO)
    assert set(divergences.normalizations) <= set(NORMALIZATIONS)
    assert all(len(reason) > 80 for _, reason in divergences.normalizations.values())
    assert divergences.rules and all(len(r.reason) > 80 for r in divergences.rules)
    findings = load_open_findings(REPO)
    assert all(f.owner and f.reason for f in findings)


def test_rules_match_their_conditions(tmp_path: Path) -> None:
    repo = _repo_with(
        tmp_path,
        """
[[case]]
id = "r"
language = ["go", "rust"]
type = "Host*"
mutation = '^null at'
reason = "why"
""",
    )
    rule = load_divergences(repo).rules[0]
    facts = {"language": "go", "type": "HostThing", "mutation": "null at /a"}
    assert rule.matches(facts)
    assert not rule.matches({**facts, "language": "typescript"})
    assert not rule.matches({**facts, "type": "Other"})
    assert not rule.matches({**facts, "mutation": "drop /a"})


@pytest.mark.parametrize(
    "text",
    [
        '[normalization.no-such-thing]\nlanguages = ["go"]\nreason = "x"\n',
        '[normalization.number-spelling]\nlanguages = ["go"]\n',  # no reason
        '[[case]]\nid = "a"\nreason = "x"\n',  # no condition: would excuse everything
        '[[case]]\nid = "a"\nreason = "x"\nkind = "null"\ntypo = 1\n',
        '[[case]]\nid = "a"\nkind = "null"\n',  # no reason
        '[[case]]\nid = "a"\nreason = "x"\nkind = "null"\nowner = "someone"\n',
        "[extra]\n",
    ],
)
def test_mistakes_are_errors(tmp_path: Path, text: str) -> None:
    with pytest.raises(DivergenceFileError):
        load_divergences(_repo_with(tmp_path, text))


def test_an_open_finding_needs_an_owner(tmp_path: Path) -> None:
    repo = _repo_with(
        tmp_path, "", '[[finding]]\nid = "f"\nreason = "x"\nkind = "null"\n'
    )
    with pytest.raises(DivergenceFileError):
        load_open_findings(repo)
