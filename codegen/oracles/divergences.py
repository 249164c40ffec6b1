"""The one list of deliberate divergences from the source languages (``divergences.toml``).

Phase: verification (``make oracle``).
Inputs: ``tests/oracle/divergences.toml``: ``[normalization.<id>]`` tables (a way of
comparing that the harness applies only when the file lists it: ``languages`` and
``reason``) and ``[[case]]`` rules (which disagreements are deliberate: conditions on
``spec``, ``language``, ``type`` (a glob), ``kind`` (the mutation kind), ``mutation`` and
``json`` (regular expressions on its description and on the case's JSON), the ``oracle`` /
``bindings`` / ``schema``
verdicts and ``what`` disagrees (``verdict``, ``schema`` or ``output``), plus ``id`` and
``reason``).
Outputs: ``Divergences``: ``normalization(id, language)`` and ``excuse(...)`` (the rule
that excuses a disagreement, or None); counts of use per rule, so a rule that excuses
nothing any more is reported as stale.  ``load_open_findings``: the ``[[finding]]`` entries
of ``tests/oracle/open_findings.toml`` (same conditions, plus an ``owner``): disagreements
whose fix belongs elsewhere; they are not excused, only attributed.
Guarantees: every entry has a reason; an unknown normalization id, an unknown key or a
rule without conditions is an error (a typo must not excuse everything).
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

DIVERGENCES_FILE = Path("tests/oracle/divergences.toml")
# Disagreements the campaign found whose fix belongs to another part of the project (a
# frontend being reworked, the union semantics): NOT divergences, they still fail
# ``make oracle``; listed so reports name the owner and the bounded slice in ``make test``
# fails only on new disagreements.
OPEN_FINDINGS_FILE = Path("tests/oracle/open_findings.toml")
# The comparisons the harness knows how to relax; the file decides which apply.
NORMALIZATIONS = {
    "unknown-keys-dropped": "bytes mode: compare with the bindings' output without the "
    "unknown keys they kept",
    "number-spelling": "bytes mode: numbers written as floats compare by value",
    "ts-excess-properties": "TypeScript: an excess-property error alone does not reject",
    "ts-number-values": "TypeScript: outputs compare as JSON values",
    "ts-enums-as-values": "TypeScript: an enum is read as the union of its values",
    "ts-undefined-as-optional": "TypeScript: a key typed `T | undefined` may be absent",
    "map-key-order": "bytes mode: the keys of maps and of any-JSON objects compare unordered",
    "float64-numbers": "bytes mode: numbers of float and any-JSON fields compare as float64",
    "float-parse-one-ulp": "bytes mode: numbers of float and any-JSON fields compare as "
    "float64 within four units in the last place (serde_json parse best-effort)",
    "null-as-zero": "a rejected case is re-read by the bindings with each null as the "
    "oracle read it",
}
_CONDITIONS = (
    "spec",
    "language",
    "type",
    "kind",
    "mutation",
    "json",
    "oracle",
    "bindings",
    "schema",
    "what",
)
_RULE_KEYS = {"id", "reason", "owner", *_CONDITIONS}


class DivergenceFileError(Exception):
    pass


@dataclass(frozen=True)
class Rule:
    id: str
    reason: str
    # (condition, accepted values): a fact matches when it matches any of the values
    conditions: tuple[tuple[str, tuple[str, ...]], ...]
    owner: str = ""  # an open finding's owner (an issue, a part of the project)

    def matches(self, facts: dict[str, str]) -> bool:
        return all(
            any(_matches(key, facts.get(key, ""), wanted) for wanted in values)
            for key, values in self.conditions
        )


def _matches(key: str, have: str, wanted: str) -> bool:
    if key == "type":
        return fnmatch.fnmatchcase(have, wanted)
    if key in ("mutation", "json"):
        return re.search(wanted, have) is not None
    return have == wanted


@dataclass
class Divergences:
    normalizations: dict[str, tuple[tuple[str, ...], str]]
    rules: list[Rule]
    used: Counter[str]

    def normalization(self, name: str, language: str) -> bool:
        entry = self.normalizations.get(name)
        return entry is not None and language in entry[0]

    def excuse(self, facts: dict[str, str]) -> Rule | None:
        for rule in self.rules:
            if rule.matches(facts):
                self.used[rule.id] += 1
                return rule
        return None

    def note_normalization(self, name: str) -> None:
        self.used[name] += 1


def load_open_findings(repo: Path) -> list[Rule]:
    """``[[finding]]`` entries: the conditions of ``[[case]]``, an ``owner``, a reason."""
    path = repo / OPEN_FINDINGS_FILE
    data = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    unknown_top = set(data) - {"finding"}
    if unknown_top:
        raise DivergenceFileError(f"{path}: unknown tables {sorted(unknown_top)}")
    entries = data.get("finding", [])
    out: list[Rule] = []
    for entry, rule in zip(entries, _rules(path, entries), strict=True):
        owner = str(entry.get("owner", "")).strip()
        if not owner:
            raise DivergenceFileError(f"{path}: finding {rule.id!r} needs an owner")
        out.append(Rule(rule.id, rule.reason, rule.conditions, owner))
    return out


def _rules(path: Path, entries: list[dict[str, object]]) -> list[Rule]:
    rules: list[Rule] = []
    ids: set[str] = set()
    for entry in entries:
        unknown = set(entry) - _RULE_KEYS
        if unknown:
            raise DivergenceFileError(
                f"{path}: unknown keys {sorted(unknown)} in {entry.get('id')!r}"
            )
        rule_id = str(entry.get("id", ""))
        reason = str(entry.get("reason", "")).strip()
        conditions = tuple(
            (
                k,
                (
                    tuple(str(v) for v in value)
                    if isinstance(value, list)
                    else (str(value),)
                ),
            )
            for k in _CONDITIONS
            if (value := entry.get(k)) is not None
        )
        if not rule_id or not reason or not conditions or rule_id in ids:
            raise DivergenceFileError(
                f"{path}: every entry needs a unique id, a reason and a condition ({rule_id!r})"
            )
        ids.add(rule_id)
        rules.append(Rule(rule_id, reason, conditions))
    return rules


def load_divergences(repo: Path) -> Divergences:
    path = repo / DIVERGENCES_FILE
    data = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    unknown_top = set(data) - {"normalization", "case"}
    if unknown_top:
        raise DivergenceFileError(f"{path}: unknown tables {sorted(unknown_top)}")
    normalizations: dict[str, tuple[tuple[str, ...], str]] = {}
    for name, entry in data.get("normalization", {}).items():
        if name not in NORMALIZATIONS:
            raise DivergenceFileError(
                f"{path}: unknown normalization {name!r} (known: {sorted(NORMALIZATIONS)})"
            )
        reason = str(entry.get("reason", "")).strip()
        languages = tuple(str(x) for x in entry.get("languages", []))
        if not reason or not languages:
            raise DivergenceFileError(
                f"{path}: normalization {name!r} needs languages and a reason"
            )
        normalizations[name] = (languages, reason)
    for entry in data.get("case", []):
        if "owner" in entry:
            raise DivergenceFileError(
                f"{path}: a divergence has no owner; open findings go in {OPEN_FINDINGS_FILE}"
            )
    rules = _rules(path, data.get("case", []))
    return Divergences(normalizations, rules, Counter())
