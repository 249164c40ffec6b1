"""Benchmark: the bindings against the official SDKs' models in instructions, not time.

Phase: measurement, run by hand (``make bench-instructions``; needs ``valgrind``), never a
timed test.
Inputs: the messages of ``bench_sdk_models.py`` (its cache in ``build/bench/``, drawn the
same way when absent), the interop venv's python, the SDKs it has.
Outputs: per protocol, per side (ours, the SDK, and for information ours called straight:
each class's validator and serializer with no method around them), the instructions one
pass over the messages both sides accept takes, in the orders the benchmark's rounds
shuffle them to (the median over ``--rounds`` orders), and SDK / side.
Guarantees: each side is ``sdk_models_worker.py`` in its own process under callgrind, so
each does what the wall-clock benchmark times, the same way; counts are taken between two
``mark`` commands (callgrind dumps before each ``getppid``), so imports, loading and the
first passes are not counted, and the cost of a command's round trip (an empty interval,
measured too) is taken off.  A count does not move with the machine's load or the other
core's jobs, so a change of half a per cent shows; it is not time: cache misses are not in
it (``--cache-sim`` adds callgrind's estimate, ``Ir + 10 × L1 misses + 100 × LL misses``).
Writes only a scratch directory, removed after a run that ends well (kept, and named, after
one that fails).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
from pathlib import Path

from bench_sdk_models import INTEROP_PYTHON, PROTOCOLS, Worker, _messages
from support import ROOT as REPO
from support import result

_EVENTS = ("Ir", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")


def _totals(path: Path) -> dict[str, int]:
    """A dump's totals by event name (callgrind leaves trailing zero counts out)."""
    names: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("events:"):
            names = line.split()[1:]
        elif line.startswith(("totals:", "summary:")):
            counts = dict(zip(names, map(int, line.split()[1:]), strict=False))
            return {event: counts.get(event, 0) for event in _EVENTS}
    raise RuntimeError(f"no totals in {path}")


def _cost(counts: dict[str, int], cache: bool) -> float:
    if not cache:
        return float(counts["Ir"])
    misses = sum(counts[k] for k in ("I1mr", "D1mr", "D1mw"))
    last = sum(counts[k] for k in ("ILmr", "DLmr", "DLmw"))
    return float(counts["Ir"] + 10 * misses + 100 * last)


def _measure(
    side: str,
    env: dict[str, str],
    items: list[list[str]],
    both: list[int],
    seeds: list[int],
    scratch: Path,
    cache: bool,
) -> list[float]:
    """Per seed, the cost of one pass of ``side`` over the kept items in that order."""
    out = scratch / side.replace(":", "-")
    prefix = (
        "valgrind",
        "--tool=callgrind",
        "--dump-before=getppid",
        f"--cache-sim={'yes' if cache else 'no'}",
        f"--callgrind-out-file={out}",
        f"--log-file={scratch / 'valgrind.%p.log'}",
    )
    worker = Worker(str(INTEROP_PYTHON), side, env, prefix)
    try:
        worker.ask("load", items=items)
        worker.ask("keep", indices=both)
        # Warm: each model's first read (its schema's first use) is not counted.
        worker.ask("pass", seed=seeds[0])
        worker.ask("mark")
        worker.ask("mark")  # an empty interval: a command's own round trip
        for seed in seeds:
            worker.ask("pass", seed=seed)
            worker.ask("mark")
    finally:
        worker.close()
    # Dump k holds the counts since dump k - 1: 1 everything before the first mark, 2 the
    # empty interval, then one per pass.
    dumps = sorted(
        scratch.glob(f"{out.name}.*"), key=lambda p: int(p.name.rsplit(".", 1)[1])
    )
    if len(dumps) < 2 + len(seeds):
        # Not a figure of fewer passes: say so, and where valgrind's log is.
        raise RuntimeError(
            f"{side}: {len(dumps)} callgrind dumps, {2 + len(seeds)} expected "
            f"(valgrind's log: {scratch})"
        )
    costs = [_cost(_totals(p), cache) for p in dumps]
    empty = costs[1]
    return [c - empty for c in costs[2 : 2 + len(seeds)]]


def bench_spec(spec: str, rounds: int, per_type: int, cache: bool) -> dict[str, float]:
    schema_path, sdk_side, _ = PROTOCOLS[spec]
    package = f"{spec}_protocol"
    ours_env = {**os.environ, "PYTHONPATH": str(REPO / "generated" / spec / "python")}
    sdk_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # Which messages both sides read: asked of plain workers (quicker than under valgrind).
    ours = Worker(str(INTEROP_PYTHON), f"ours:{package}", ours_env)
    sdk = Worker(str(INTEROP_PYTHON), sdk_side, sdk_env)
    try:
        official = set(json.loads(schema_path.read_text(encoding="utf-8"))["$defs"])
        names = sorted(official & set(ours.ask("names")) & set(sdk.ask("names")))
        items = _messages(spec, schema_path, names, per_type)
        ok_ours = ours.ask("load", items=items)
        ok_sdk = sdk.ask("load", items=items)
    finally:
        ours.close()
        sdk.close()
    both = [i for i, (a, b) in enumerate(zip(ok_ours, ok_sdk)) if a and b]
    # The seeds of the wall-clock benchmark's first rounds: the same orders it times.
    seeds = list(range(rounds))
    scratch = Path(tempfile.mkdtemp(prefix="codegen-instructions-"))
    try:
        sides = {
            "ours": (f"ours:{package}", ours_env),
            "sdk": (sdk_side, sdk_env),
            "straight": (f"straight:{package}", ours_env),
        }
        per = {
            name: statistics.median(
                _measure(side, env, items, both, seeds, scratch, cache)
            )
            for name, (side, env) in sides.items()
        }
    except BaseException:
        print(f"kept for a look: {scratch} (callgrind's dumps, valgrind's logs)")
        raise
    shutil.rmtree(scratch, ignore_errors=True)
    return {
        "messages": len(both),
        "ours": per["ours"],
        "sdk": per["sdk"],
        "straight": per["straight"],
        "ratio": per["sdk"] / per["ours"],
        "straight_ratio": per["sdk"] / per["straight"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", action="append", choices=sorted(PROTOCOLS))
    parser.add_argument(
        "--rounds", type=int, default=3, help="shuffled orders counted (median)"
    )
    parser.add_argument("--per-type", type=int, default=10, help="instances drawn")
    parser.add_argument(
        "--cache-sim",
        action="store_true",
        help="count callgrind's estimate of cycles (cache misses weighed), not Ir",
    )
    args = parser.parse_args()
    if not INTEROP_PYTHON.is_file():
        print(f"skipped: no {INTEROP_PYTHON} (make .venv-interop/.installed)")
        return 0
    if shutil.which("valgrind") is None:
        print("skipped: no valgrind (apt-get install valgrind)")
        return 0
    unit = "estimated cycles" if args.cache_sim else "instructions"
    print(f"spec   against       messages   {unit} a pass: ours / SDK / straight")
    for spec in args.spec or sorted(PROTOCOLS):
        r = bench_spec(spec, args.rounds, args.per_type, args.cache_sim)
        result(f"sdk_instructions.{spec}", r)
        print(
            f"{spec:6} {PROTOCOLS[spec][2]:13} {int(r['messages']):8}"
            f"   {r['ours'] / 1e6:8.2f} M / {r['sdk'] / 1e6:8.2f} M"
            f" / {r['straight'] / 1e6:8.2f} M"
            f"   SDK / ours {r['ratio']:.3f}x (straight {r['straight_ratio']:.3f}x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
