"""Benchmark: the generated bindings against datamodel-codegen's models, orjson and msgspec.

Phase: measurement (``make bench``), never a timed test.
Inputs: every accepted wire sample of every spec (params, results, types).
Outputs, per spec, in one run:
- fidelity: the share of samples each binding writes back exactly (same JSON values with
  ``1`` vs ``1.0`` told apart, and the same key order where serde/Go fix it);
- speed: messages/second decoded+validated+encoded (each side's fastest pass over the
  samples, the sides taking turns pass by pass), as ratios against orjson
  (``loads``+``dumps``, no validation: the floor) and msgspec (untyped decode+encode),
  and against datamodel-codegen's models built from our own JSON Schema.
Guarantees: writes only to a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from typing import Any

import msgspec
import orjson
from support import ROOT as REPO
from support import result

from codegen import ir
from tests.roundtrip import harness


def _corpus(spec: str) -> list[ir.Example]:
    return [
        e
        for e in harness.protocol(spec).examples
        if e.expect is ir.Expectation.ACCEPT and e.part is not ir.ExamplePart.MESSAGE
    ]


def _rates(
    works: dict[str, Callable[[], None]], count: int, seconds: float
) -> dict[str, float]:
    """Messages/second of each side, measured in turns: one pass over the samples by
    each side in turn, again and again until each has had about ``seconds``; a side's
    rate is that of its fastest pass.  Load that comes and goes on a shared machine
    falls on every side alike, and a burst spoils only the passes it hits."""
    best = dict.fromkeys(works, float("inf"))
    spent = 0.0
    rounds = 0
    while rounds < 5 or spent < seconds * len(works):
        for name, work in works.items():
            start = time.perf_counter()
            work()
            took = time.perf_counter() - start
            best[name] = min(best[name], took)
            spent += took
        rounds += 1
    return {name: count / took for name, took in best.items()}


def _exact(spec: str, written: Any, original: Any) -> bool:
    if not harness.strict_equal(written, original):
        return False
    return not harness.fixes_key_order(spec) or harness.same_key_order(
        written, original
    )


def bench_spec(spec: str, dm_dir: str, seconds: float) -> dict[str, float]:
    samples = _corpus(spec)
    module = harness.datamodel_module(spec, dm_dir)
    ours = [(harness.ours_adapter(spec, e), e.json_text.encode()) for e in samples]
    theirs = [
        (
            harness.datamodel_adapter(module, harness.target_of(spec, e)),
            e.json_text.encode(),
        )
        for e in samples
    ]
    originals = [json.loads(e.json_text) for e in samples]

    def written(adapter: Any, data: bytes) -> Any:
        value = adapter.validate_json(data, by_name=False)
        return json.loads(adapter.dump_json(value, by_alias=True, exclude_unset=False))

    ours_exact = sum(
        _exact(spec, written(a, d), o)
        for (a, d), o in zip(ours, originals, strict=True)
    )
    theirs_exact = 0
    for (adapter, data), original in zip(theirs, originals, strict=True):
        value = adapter.validate_json(data)
        out = json.loads(adapter.dump_json(value, by_alias=True, exclude_unset=True))
        theirs_exact += _exact(spec, out, original)

    def run_ours() -> None:
        for adapter, data in ours:
            adapter.dump_json(adapter.validate_json(data, by_name=False), by_alias=True)

    def run_theirs() -> None:
        for adapter, data in theirs:
            adapter.dump_json(
                adapter.validate_json(data), by_alias=True, exclude_unset=True
            )

    def run_orjson() -> None:
        for _, data in ours:
            orjson.dumps(orjson.loads(data))

    def run_msgspec() -> None:
        for _, data in ours:
            msgspec.json.encode(msgspec.json.decode(data))

    n = len(samples)
    rates = _rates(
        {
            "ours": run_ours,
            "theirs": run_theirs,
            "orjson": run_orjson,
            "msgspec": run_msgspec,
        },
        n,
        seconds,
    )
    return {
        "samples": n,
        "ours_exact": ours_exact / n,
        "theirs_exact": theirs_exact / n,
        **rates,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    parser.add_argument(
        "--spec", action="append", help="only this spec (again for more; default all)"
    )
    args = parser.parse_args()
    specs = sorted(
        p.parent.parent.name for p in (REPO / "generated").glob("*/python/*/")
    )
    specs = sorted(set(specs) & set(args.spec)) if args.spec else sorted(set(specs))
    print(
        "spec     samples  exact round trip: ours / datamodel-codegen   "
        "msgs/s ours  vs datamodel-codegen  vs orjson  vs msgspec"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for spec in specs:
            r = bench_spec(spec, tmp, args.seconds)
            result(f"bindings.{spec}", {"ratio": r["ours"] / r["theirs"], **r})
            print(
                f"{spec:8} {int(r['samples']):7}  {r['ours_exact']:7.1%} / {r['theirs_exact']:7.1%}"
                f"                  {r['ours']:10.0f}  {r['ours'] / r['theirs']:8.2f}x"
                f"  {r['ours'] / r['orjson']:8.3f}x {r['ours'] / r['msgspec']:8.3f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
