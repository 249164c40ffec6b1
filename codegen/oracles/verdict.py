"""Each case's verdict: does the source language agree with the bindings and the schema?

Phase: verification (``make oracle``).
Inputs: a case, the oracle's ``Answer``, our ``OurVerdict``, how the oracle compares
outputs (``bytes`` or ``values``) and the ``Divergences``.
Outputs: an ``Outcome``: ``agree``, ``excused`` (every disagreement matched a listed
divergence, named in ``excused_by``) or ``failure`` (``problems`` says what disagrees:
``verdict`` (bindings), ``schema``, ``output``, with the first difference).
Guarantees: accept/reject is compared exactly; outputs are compared only when both sides
accept; in ``bytes`` mode token for token (key order and number spelling included), relaxed
only by normalizations the divergences file lists; in ``values`` mode (TypeScript: no writer
of its own, so what it holds is what it read) as JSON values.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from codegen.oracles.case import Answer, Case
from codegen.oracles.divergences import Divergences, Rule
from codegen.oracles.jsontext import Relax, difference, dumps
from codegen.oracles.ours import OurVerdict


@dataclass
class Outcome:
    case: Case
    oracle: Answer
    ours: OurVerdict
    status: str = "agree"
    problems: list[str] = field(default_factory=list)
    excused_by: list[str] = field(default_factory=list)
    # per problem, the open finding it is (tests/oracle/open_findings.toml), or None
    open_findings: list[str | None] = field(default_factory=list)
    output_compared: bool = False
    output_exact: bool = False  # equal before any normalization
    output_agrees: bool = True  # equal, possibly after listed normalizations

    @property
    def known(self) -> bool:
        """A failure whose every problem is an open finding owned elsewhere."""
        return bool(self.open_findings) and all(self.open_findings)

    def as_dict(self) -> dict[str, object]:
        return {
            **self.case.as_dict(),
            "status": self.status,
            "problems": self.problems,
            "excused_by": self.excused_by,
            "open_findings": self.open_findings,
            "oracle": self.oracle.as_dict(),
            "bindings": self.ours.bindings.as_dict(),
            "schema": {
                "accept": self.ours.schema_accepts,
                "detail": self.ours.schema_detail,
            },
        }


def nulls_as_read(text: str, output: str) -> str | None:
    """The JSON text with each ``null`` replaced by what the oracle wrote at the same
    place (the zero value it read), or left out where the oracle wrote nothing; None when
    the text has no null to replace."""
    found = False

    def walk(value: Any, written: Any) -> Any:
        nonlocal found
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                there = written.get(key) if isinstance(written, dict) else None
                present = isinstance(written, dict) and key in written
                if item is None and there is not None:
                    found = True
                    out[key] = there
                elif item is None and not present:
                    found = True
                else:
                    out[key] = walk(item, there)
            return out
        if isinstance(value, list):
            items = []
            for index, item in enumerate(value):
                there = (
                    written[index]
                    if isinstance(written, list) and index < len(written)
                    else None
                )
                if item is None and there is not None:
                    found = True
                    items.append(there)
                else:
                    items.append(walk(item, there))
            return items
        return value

    try:
        read = walk(json.loads(text), json.loads(output))
    except ValueError:
        return None
    return dumps(read) if found else None


def _word(accept: bool) -> str:
    return "accept" if accept else "reject"


def classify(
    case: Case,
    oracle: Answer,
    ours: OurVerdict,
    *,
    language: str,
    compares: str,
    divergences: Divergences,
    rejudge: Callable[[Case], OurVerdict] | None = None,
    open_findings: Sequence[Rule] = (),
) -> Outcome:
    outcome = Outcome(case, oracle, ours)
    if (
        rejudge is not None
        and oracle.accept
        and not (ours.bindings.accept and ours.schema_accepts)
        and oracle.output is not None
        and divergences.normalization("null-as-zero", language)
    ):
        read_as = nulls_as_read(case.text, oracle.output)
        if read_as is not None:
            again = rejudge(replace(case, text=read_as))
            if again.bindings.accept and again.schema_accepts:
                # The same message with each null as the source language read it.
                _relaxed(outcome, divergences, "null-as-zero")
                ours = again
    facts = {
        "spec": case.spec,
        "language": language,
        "type": case.type_name,
        "kind": case.kind,
        "mutation": case.mutation,
        "json": case.text,
        "oracle": _word(oracle.accept),
        "bindings": _word(ours.bindings.accept),
        "schema": _word(ours.schema_accepts),
    }
    problems: list[tuple[str, str]] = []
    if ours.write_refused:
        # Writers never refuse what readers accept: a failure even where the oracle
        # rejects the value too (the bindings' "reject" is then no agreement).
        problems.append(
            (
                "writer",
                "bindings read the value, their writer refused it: "
                + ours.write_refused,
            )
        )
    if oracle.accept != ours.bindings.accept:
        problems.append(
            ("verdict", f"oracle {facts['oracle']}s, bindings {facts['bindings']}")
        )
    if oracle.accept != ours.schema_accepts:
        problems.append(
            ("schema", f"oracle {facts['oracle']}s, schema {facts['schema']}s")
        )
    if oracle.accept and ours.bindings.accept:
        found = _output_problem(
            case, oracle, ours, language, compares, divergences, outcome
        )
        if found is not None:
            problems.append(("output", found))
    for what, text in problems:
        rule = divergences.excuse({**facts, "what": what})
        if rule is None:
            outcome.problems.append(f"{what}: {text}")
            finding = next(
                (f for f in open_findings if f.matches({**facts, "what": what})), None
            )
            outcome.open_findings.append(finding.id if finding else None)
        else:
            outcome.excused_by.append(rule.id)
    if outcome.problems:
        outcome.status = "failure"
    elif outcome.excused_by:
        outcome.status = "excused"
    return outcome


# The relaxations of ``bytes`` comparisons, in the order they are tried.
BYTES_NORMALIZATIONS = (
    "unknown-keys-dropped",
    "number-spelling",
    "map-key-order",
    "float64-numbers",
    "float-parse-one-ulp",
)


def _output_problem(
    case: Case,
    oracle: Answer,
    ours: OurVerdict,
    language: str,
    compares: str,
    divergences: Divergences,
    outcome: Outcome,
) -> str | None:
    written = ours.bindings.output or ""
    if compares == "values":
        outcome.output_compared = True
        by_value = divergences.normalization("ts-number-values", language)
        relax = Relax(ordered=False, numbers="value" if by_value else "tokens")
        found = difference(case.text, written, relax)
        outcome.output_agrees = found is None
        if found is not None:
            return f"{found} (input vs bindings' output)"
        outcome.output_exact = (
            difference(case.text, written, Relax(ordered=False)) is None
        )
        if not outcome.output_exact:
            _relaxed(outcome, divergences, "ts-number-values")
        return None
    expected = oracle.output
    if expected is None:
        return None  # the source language's writer failed: nothing to compare with
    outcome.output_compared = True
    found = difference(expected, written)
    if found is None:
        outcome.output_exact = True
        return None
    enabled = [
        n for n in BYTES_NORMALIZATIONS if divergences.normalization(n, language)
    ]

    def compare(names: list[str]) -> str | None:
        text = written
        if "unknown-keys-dropped" in names and ours.output_known_keys is not None:
            text = ours.output_known_keys
        relax = Relax(
            numbers="value" if "number-spelling" in names else "tokens",
            structs=ours.struct_paths if "map-key-order" in names else None,
            maps_unordered="map-key-order" in names,
            floats=(
                ours.float_paths
                if "float64-numbers" in names or "float-parse-one-ulp" in names
                else frozenset()
            ),
            one_ulp="float-parse-one-ulp" in names,
        )
        return difference(expected, text, relax)

    relaxed = compare(enabled)
    if relaxed is not None:
        outcome.output_agrees = False
        return (
            f"{relaxed}; oracle wrote {expected[:400]}; bindings wrote {written[:400]}"
        )
    # Name only the relaxations this case needed: the first ones (in the order above) that
    # make the outputs equal, then drop any the others make unnecessary.
    needed: list[str] = []
    for name in enabled:
        if compare(needed) is None:
            break
        needed.append(name)
    for name in list(needed):
        if compare([n for n in needed if n != name]) is None:
            needed.remove(name)
    for name in needed:
        _relaxed(outcome, divergences, name)
    return None


def _relaxed(outcome: Outcome, divergences: Divergences, name: str) -> None:
    outcome.excused_by.append(name)
    divergences.note_normalization(name)
