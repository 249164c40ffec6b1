"""``make conformance-rust``'s figures: every case of both suites, in scope or not, with
the reason of each failure and of each peer divergence; writes
``build/conformance-rust.json`` and prints the table.

Phase: verification (a campaign, not in ``make test``).
Inputs: the suites under ``../shared/conformance`` (``schemars``, ``typeshare``) and
``out_of_scope.toml`` beside this module.
Outputs: per suite: cases, out of scope, in scope, passing (of which peer divergences:
cases where serde decided every difference our way), the share passing.
Guarantees: one case's crash is that case's failure, never the run's.
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

from tests.conformance.rust import schemars_cases, typeshare_cases
from tests.conformance.rust.harness import HERE
from tests.conformance.verdict import Verdict

SUITES: dict[str, tuple[Callable[[], list[str]], Callable[[str], Verdict]]] = {
    "schemars": (schemars_cases.cases, schemars_cases.run_case),
    "typeshare": (typeshare_cases.cases, typeshare_cases.run_case),
}


def out_of_scope(suite: str) -> dict[str, str]:
    table = tomllib.loads((HERE / "out_of_scope.toml").read_text(encoding="utf-8"))
    return {k: v for k, v in table.get(suite, {}).items() if isinstance(v, str)}


def known_failures(suite: str) -> dict[str, str]:
    """In-scope cases that fail, each with why (``[failing.<suite>]``): a divergence the
    serde oracle confirms (serde reads otherwise than the peer and we do), or what we do
    not model yet."""
    table = tomllib.loads((HERE / "out_of_scope.toml").read_text(encoding="utf-8"))
    return dict(table.get("failing", {}).get(suite, {}))


def main(argv: list[str]) -> int:
    out: dict[str, object] = {}
    for suite in argv or list(SUITES):
        list_cases, run_case = SUITES[suite]
        skipped = out_of_scope(suite)
        known = known_failures(suite)
        passed: list[str] = []
        diverging: dict[str, str] = {}
        failed: dict[str, str] = {}
        for case in list_cases():
            if case in skipped:
                continue
            try:
                verdict = run_case(case)
            except Exception as exc:  # noqa: BLE001 - a harness crash is the case's
                verdict = Verdict(case, False, f"crashed: {exc!r}")
            if verdict.ok:
                passed.append(case)
                if verdict.divergence:
                    diverging[case] = verdict.divergence
            else:
                failed[case] = verdict.why + (
                    f" e.g. {verdict.disagreements[0]}" if verdict.disagreements else ""
                )
            shown = "ok" if verdict.ok else "FAIL " + failed[case][:200]
            if not verdict.ok:
                shown += " [listed]" if case in known else " [NOT LISTED]"
            print(suite, case, shown, flush=True)
        in_scope = len(passed) + len(failed)
        share = len(passed) / in_scope if in_scope else 0.0
        out[suite] = {
            "cases": len(list_cases()),
            "out_of_scope": len(skipped),
            "in_scope": in_scope,
            "passing": len(passed),
            "peer_divergences": diverging,
            "share": round(share, 3),
            "failing": failed,
            # why each failing case fails, as listed; a listed case that passes now
            "failing_reasons": {c: known.get(c, "NOT LISTED") for c in failed},
            "listed_but_passing": sorted(set(known) - set(failed)),
            "out_of_scope_reasons": skipped,
        }
        print(
            f"{suite}: {len(list_cases())} cases, {len(skipped)} out of scope, "
            f"{in_scope} in scope, {len(passed)} passing ({share:.1%}; "
            f"{len(diverging)} of them peer divergences serde decided our way), "
            f"{len(failed)} failing",
            flush=True,
        )
    target = Path("build/conformance-rust.json")
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(out, indent=2, sort_keys=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
