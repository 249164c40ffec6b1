"""``make conformance-ts``'s figures: every case of both suites, in scope or not, with
the reason of each failure; writes ``build/conformance-ts.json`` and prints the table.

Phase: verification (a campaign, not in ``make test``).
Inputs: the suites under ``../shared/conformance`` and ``out_of_scope.toml``.
Outputs: per suite: cases, out of scope, in scope, passing (and of them, those whose
differences tsc decided our way, each with its divergence), the share passing.
Guarantees: one case's crash is that case's failure, never the run's.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.conformance.typescript.harness import (
    cases,
    divergences,
    not_built,
    out_of_scope,
    run_case,
)


def main(argv: list[str]) -> int:
    suites = argv or ["tjsg", "tjs"]
    out: dict[str, object] = {}
    for suite in suites:
        skipped = out_of_scope(suite)
        diverging = divergences(suite)
        missing = not_built(suite)
        passed: list[str] = []
        failed: dict[str, str] = {}
        decided: dict[str, str] = {}  # passing, every difference decided by tsc
        for case in cases(suite):
            if case in skipped:
                continue
            try:
                verdict = run_case(suite, case)
            except Exception as exc:  # noqa: BLE001 - a harness crash is the case's
                failed[case] = f"crashed: {exc!r}"
                continue
            if verdict.ok:
                passed.append(case)
                if verdict.divergence:
                    decided[case] = verdict.divergence
            elif case in diverging:
                failed[case] = "listed divergence: " + diverging[case]
            elif case in missing:
                failed[case] = "not built: " + missing[case]
            else:
                failed[case] = verdict.why + (
                    f" e.g. {verdict.disagreements[0]}" if verdict.disagreements else ""
                )
            print(
                case, "ok" if verdict.ok else "FAIL " + failed[case][:160], flush=True
            )
        in_scope = len(passed) + len(failed)
        share = len(passed) / in_scope if in_scope else 0.0
        out[suite] = {
            "cases": len(cases(suite)),
            "out_of_scope": len(skipped),
            "in_scope": in_scope,
            "passing": len(passed),
            "share": round(share, 3),
            "failing": failed,
            "divergences": len([c for c in failed if c in diverging]),
            "not_built": len([c for c in failed if c in missing]),
            "passing_by_tsc": len(decided),
            "decided_by_tsc": decided,
            "out_of_scope_reasons": skipped,
        }
        print(
            f"{suite}: {len(cases(suite))} cases, {len(skipped)} out of scope, "
            f"{in_scope} in scope, {len(passed)} passing ({share:.1%}; "
            f"{len(decided)} of them with differences tsc decides our way), "
            f"{len([c for c in failed if c in diverging])} failing as listed divergences, "
            f"{len([c for c in failed if c in missing])} as not built",
            flush=True,
        )
    target = Path("build/conformance-ts.json")
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(out, indent=2, sort_keys=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
