"""``python -m codegen.oracles [SPEC ...]``: the oracle campaign (``make oracle``).

Phase: verification.
Inputs: spec ids (all built-in specs when none), ``--failed`` (re-run only the last run's
failures), ``--per-type`` / ``--draws`` (budget), ``--type`` (only some types), ``--show``
(how many failures to print per spec).
Outputs: the summary table on stdout, each spec's failures (case, both verdicts, both
outputs), ``build/oracle/<spec>-findings.json`` and ``<spec>-failures.jsonl``; exit status 1
when any case fails or any oracle cannot run, else 0.
Guarantees: the divergences file is read once and a stale entry (one that excused nothing
in a full run) is reported.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from codegen.oracles.divergences import (
    DivergenceFileError,
    load_divergences,
    load_open_findings,
)
from codegen.oracles.report import describe, summary_table, write_report
from codegen.oracles.run import BUILD_DIR, Options, run_spec
from codegen.pipeline import discover_specs
from codegen.spec.config import find_repo_root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen.oracles")
    parser.add_argument(
        "specs", nargs="*", help="spec ids (default: every built-in spec)"
    )
    parser.add_argument(
        "--failed", action="store_true", help="re-run the last failures only"
    )
    parser.add_argument("--per-type", type=int, default=300)
    parser.add_argument("--draws", type=int, default=12)
    parser.add_argument("--official-draws", type=int, default=8)
    parser.add_argument("--type", action="append", default=[], dest="types")
    parser.add_argument(
        "--show", type=int, default=10, help="failures printed per spec"
    )
    args = parser.parse_args(argv)
    repo = find_repo_root(Path.cwd())
    specs = args.specs or [p.name for p in discover_specs(repo / "specs")]
    try:
        divergences = load_divergences(repo)
        open_findings = load_open_findings(repo)
    except DivergenceFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    options = Options(
        per_type=args.per_type,
        draws=args.draws,
        official_draws=args.official_draws,
        failed=args.failed,
        types=tuple(args.types),
    )
    reports = []
    for spec in specs:
        print(f"oracle: {spec} …", file=sys.stderr, flush=True)
        before = Counter(divergences.used)
        report = run_spec(spec, repo, divergences, options, open_findings)
        reports.append(report)
        used = divergences.used - before  # this spec's uses only
        path = write_report(report, repo / BUILD_DIR, used, open_findings)
        if report.error is not None:
            print(f"\n{spec}: the oracle cannot run:\n{report.error}\n")
            continue
        failures = report.failures
        # New disagreements first: open findings are already known to their owners.
        failures = sorted(failures, key=lambda f: f.known)
        for outcome in failures[: args.show]:
            print(describe(outcome) + "\n")
        if len(failures) > args.show:
            print(f"… {len(failures) - args.show} more failures of {spec}")
        if failures:
            known = sum(f.known for f in failures)
            print(
                f"{spec}: {len(failures)} failures, {len(failures) - known} new and "
                f"{known} open findings owned elsewhere (tests/oracle/open_findings.toml); "
                f"owners and clusters in {path.relative_to(repo)}\n"
            )
    print(summary_table(reports))
    full_run = not args.failed and not args.types and not args.specs
    if full_run:
        stale = [r.id for r in divergences.rules if divergences.used[r.id] == 0]
        stale += [n for n in divergences.normalizations if divergences.used[n] == 0]
        for name in stale:
            print(f"note: divergence {name!r} excused no case in this run (stale?)")
        seen = {f for r in reports for o in r.failures for f in o.open_findings if f}
        for rule in open_findings:
            if rule.id not in seen:
                print(
                    f"note: open finding {rule.id!r} did not occur (fixed? remove it)"
                )
    bad = any(r.error is not None or r.failures for r in reports)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
