"""What a campaign found: the summary table, the findings file, the failures to re-run.

Phase: verification (``make oracle``), after the verdicts.
Inputs: one ``SpecReport`` per spec (its outcomes, the types tested and left out).
Outputs: ``summary_table`` (per spec: cases, oracle accepts, agreement on accept/reject with
the bindings and with the schema, agreement on output, excused, failures);
``write_report``: ``<out>/<spec>-findings.json`` (counts, the divergences used, the open
findings owned elsewhere that occurred, with their owner and one example each, the failures
grouped into clusters of the same shape with one full example each, every failure) and
``<out>/<spec>-failures.jsonl`` (one failing case per line: ``--failed`` re-runs these).
Guarantees: deterministic order (clusters by size, then signature); percentages are of the
cases where the comparison applies, never of an empty set (shown as ``-``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from codegen.oracles.divergences import Rule
from codegen.oracles.verdict import Outcome


@dataclass
class SpecReport:
    spec: str
    language: str
    outcomes: list[Outcome] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # type → why not tested
    official: str | None = None
    seconds: float = 0.0
    error: str | None = None

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == "failure"]

    def counts(self) -> dict[str, int]:
        out = self.outcomes
        return {
            "cases": len(out),
            "types": len(self.targets),
            "oracle_accepts": sum(o.oracle.accept for o in out),
            "verdict_agree": sum(
                o.oracle.accept == o.ours.bindings.accept for o in out
            ),
            "schema_agree": sum(o.oracle.accept == o.ours.schema_accepts for o in out),
            "outputs_compared": sum(o.output_compared for o in out),
            "output_exact": sum(o.output_compared and o.output_exact for o in out),
            "output_agree": sum(o.output_compared and o.output_agrees for o in out),
            "excused": sum(o.status == "excused" for o in out),
            "failures": len(self.failures),
            "open_findings": sum(o.known for o in self.failures),
        }


def _pct(part: int, whole: int) -> str:
    if whole == 0:
        return "-"
    value = 100.0 * part / whole
    return "100%" if part == whole else f"{min(value, 99.99):.2f}%"


def summary_table(reports: list[SpecReport]) -> str:
    header = (
        "spec",
        "oracle",
        "types",
        "cases",
        "accepted",
        "verdict",
        "schema",
        "output",
        "output*",
        "excused",
        "failures",
        "time",
    )
    rows = [header]
    for report in reports:
        if report.error is not None:
            rows.append(
                (
                    report.spec,
                    report.language,
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    "ERROR",
                    "-",
                )
            )
            continue
        c = report.counts()
        rows.append(
            (
                report.spec,
                report.language,
                str(c["types"]),
                str(c["cases"]),
                str(c["oracle_accepts"]),
                _pct(c["verdict_agree"], c["cases"]),
                _pct(c["schema_agree"], c["cases"]),
                _pct(c["output_exact"], c["outputs_compared"]),
                _pct(c["output_agree"], c["outputs_compared"]),
                str(c["excused"]),
                f"{c['failures']} ({c['open_findings']})",
                f"{report.seconds:.0f}s",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
        for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = (
        "verdict / schema: accept-reject agreement of the bindings / the JSON Schema with the "
        "oracle; output: outputs equal as compared (bytes for Rust and Go, values for "
        "TypeScript); output*: equal after the normalizations listed in "
        "tests/oracle/divergences.toml; excused: cases whose every disagreement is a listed "
        "divergence; failures (open): failing cases (of which open findings owned elsewhere)"
    )
    return "\n".join(lines) + "\n" + notes


def signature(outcome: Outcome) -> str:
    whats = sorted({p.split(":", 1)[0] for p in outcome.problems})
    owners = sorted({f for f in outcome.open_findings if f}) or ["NEW"]
    return (
        f"[{', '.join(owners)}] "
        f"{'+'.join(whats)} | kind={outcome.case.kind} | oracle "
        f"{'accepts' if outcome.oracle.accept else 'rejects'}, bindings "
        f"{'accept' if outcome.ours.bindings.accept else 'reject'}, schema "
        f"{'accepts' if outcome.ours.schema_accepts else 'rejects'}"
    )


def clusters(failures: list[Outcome]) -> list[dict[str, object]]:
    groups: dict[str, list[Outcome]] = {}
    for outcome in failures:
        groups.setdefault(signature(outcome), []).append(outcome)
    out = []
    for sig, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        types = Counter(m.case.type_name for m in members)
        example = min(members, key=lambda m: (len(m.case.text), m.case.key))
        out.append(
            {
                "signature": sig,
                "count": len(members),
                "types": dict(sorted(types.items(), key=lambda kv: (-kv[1], kv[0]))),
                "example": example.as_dict(),
            }
        )
    return out


def write_report(
    report: SpecReport,
    out_dir: Path,
    used: Counter[str],
    open_findings: Sequence[Rule] = (),
) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    failures = report.failures
    by_finding: dict[str, list[Outcome]] = {}
    for outcome in failures:
        for found in {f for f in outcome.open_findings if f}:
            by_finding.setdefault(found, []).append(outcome)
    attributed = [
        {
            "id": rule.id,
            "owner": rule.owner,
            "what": rule.reason,
            "cases": len(by_finding[rule.id]),
            "example": min(
                by_finding[rule.id], key=lambda m: (len(m.case.text), m.case.key)
            ).as_dict(),
        }
        for rule in open_findings
        if rule.id in by_finding
    ]
    findings = {
        "spec": report.spec,
        "language": report.language,
        "error": report.error,
        "official_schema": report.official,
        "counts": report.counts() if report.error is None else {},
        "types_tested": report.targets,
        "types_not_tested": report.skipped,
        "divergences_used": dict(sorted(used.items())),
        "new_failures": sum(not f.known for f in failures),
        "open_findings": attributed,
        "clusters": clusters(failures),
        "failures": [f.as_dict() for f in failures],
    }
    path = out_dir / f"{report.spec}-findings.json"
    path.write_text(
        json.dumps(findings, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    with (out_dir / f"{report.spec}-failures.jsonl").open(
        "w", encoding="utf-8"
    ) as handle:
        for outcome in failures:
            handle.write(json.dumps(outcome.case.as_dict(), ensure_ascii=False) + "\n")
    return path


def describe(outcome: Outcome) -> str:
    """A failure as the console shows it: the case, both verdicts, both outputs."""
    case = outcome.case
    lines = [
        (
            f"{case.spec} {case.type_name} [{case.kind}{': ' + case.mutation if case.mutation else ''}] "
            f"from {case.origin} (key {case.key})"
        ),
        f"  json:     {case.text[:300]}",
        f"  oracle:   {'accept' if outcome.oracle.accept else 'reject'}"
        + (f" → {outcome.oracle.output[:300]}" if outcome.oracle.output else "")
        + (f" ({outcome.oracle.detail[:200]})" if outcome.oracle.detail else ""),
        f"  bindings: {'accept' if outcome.ours.bindings.accept else 'reject'}"
        + (
            f" → {outcome.ours.bindings.output[:300]}"
            if outcome.ours.bindings.output
            else ""
        )
        + (
            f" ({outcome.ours.bindings.detail[:200]})"
            if outcome.ours.bindings.detail
            else ""
        ),
        f"  schema:   {'accept' if outcome.ours.schema_accepts else 'reject'}"
        + (
            f" ({outcome.ours.schema_detail[:200]})"
            if outcome.ours.schema_detail
            else ""
        ),
    ]
    lines.extend(f"  problem:  {p[:500]}" for p in outcome.problems)
    found = sorted({f for f in outcome.open_findings if f})
    if found:
        lines.append(
            f"  open finding: {', '.join(found)} (tests/oracle/open_findings.toml)"
        )
    return "\n".join(lines)
