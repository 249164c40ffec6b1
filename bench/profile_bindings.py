"""Per-sample profile of the generated bindings against datamodel-codegen's models.

Phase: measurement (by hand, while tuning the Python backend), never a timed test.
Inputs: one spec's accepted wire samples (params, results, types), as ``bench_bindings``.
Outputs: per target type, the time per message of ours and of datamodel-codegen's models
(decode+validate+encode), the ratio, and our share of the total time, slowest share first.
Guarantees: writes only to a temporary directory.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import defaultdict
from typing import Any

from bench_bindings import _corpus

from tests.roundtrip import harness


def _per_call(work: Any, rounds: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.thread_time()
        for _ in range(rounds):
            work()
        best = min(best, (time.thread_time() - start) / rounds)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    ours_t: dict[str, float] = defaultdict(float)
    theirs_t: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    with tempfile.TemporaryDirectory() as tmp:
        module = harness.datamodel_module(args.spec, tmp)
        for example in _corpus(args.spec):
            data = example.json_text.encode()
            ours = harness.ours_adapter(args.spec, example)
            target = harness.target_of(args.spec, example)
            theirs = harness.datamodel_adapter(module, target)
            label = target.type_name or f"{example.method}.{example.part.value}"

            def run_ours(a: Any = ours, d: bytes = data) -> None:
                a.dump_json(a.validate_json(d, by_name=False), by_alias=True)

            def run_theirs(a: Any = theirs, d: bytes = data) -> None:
                a.dump_json(a.validate_json(d), by_alias=True, exclude_unset=True)

            ours_t[label] += _per_call(run_ours, args.rounds)
            theirs_t[label] += _per_call(run_theirs, args.rounds)
            counts[label] += 1
    total_ours = sum(ours_t.values())
    total_theirs = sum(theirs_t.values())
    print(
        f"total ours {total_ours * 1e6:.0f} us, theirs {total_theirs * 1e6:.0f} us, "
        f"ratio {total_theirs / total_ours:.2f}x"
    )
    print(
        f"{'type':40} {'n':>3} {'ours us':>8} {'theirs us':>9} {'ratio':>6} {'excess us':>9}"
    )
    rows = sorted(ours_t, key=lambda k: -(ours_t[k] - theirs_t[k]))
    for label in rows[: args.top]:
        print(
            f"{label[:40]:40} {counts[label]:3} {ours_t[label] * 1e6:8.1f} "
            f"{theirs_t[label] * 1e6:9.1f} {theirs_t[label] / ours_t[label]:6.2f} "
            f"{(ours_t[label] - theirs_t[label]) * 1e6:9.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
