"""Benchmark: the generated bindings against the official SDKs' own models, same messages.

Phase: measurement (``make bench``), never a timed test.
Inputs: the official schema of each protocol (``../shared/corpus``: MCP 2025-11-25's
``schema.json``, ACP 1.21.0's ``schema.json``); instances drawn from each definition that
is a model class of both the generated package and the SDK (``codegen.oracles.draw``,
deterministic, cached in ``build/bench/`` so a ``--baseline`` run reads the same ones);
the SDKs pinned in ``tests/interop/requirements.txt``, run by the interop venv
(``make .venv-interop/.installed``; ``CODEGEN_INTEROP_PYTHON`` names another python).
Outputs, per protocol (``mcp`` against the MCP SDK's ``mcp.types``, ``acp1`` against the ACP
SDK's ``acp.schema``): the messages both sides read without error, the share each writes
back exactly, messages/second of each (read JSON, validate, write JSON, each side as it is
documented to do it: ``sdk_models_worker.py``) and the ratio ours / SDK: the median of
the per-round ratios, with their quartiles and the spread of the median per process pair;
and the floor / SDK (the floor: pydantic-core parses each message and writes it back, no
models) and shells / SDK (models of the same wire keys, every field ``Any``: the object
built and written, nothing checked): what no binding built on pydantic passes.
Guarantees: both sides run in their own subprocess of the same worker script and the same
python (the interop venv's: one pydantic and pydantic-core for both), measured pass by pass
in turns (A/B, B/A, ...) in CPU time, each round on the same freshly shuffled order of the
messages (a mixed stream, as a connection reads; grouped by type, each model's schema
would stay in the caches and the figure would be another), in several fresh process pairs;
the median ratio of the rounds, so load that comes and goes falls on both alike and a
lucky pass decides nothing; writes only ``build/bench/``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
from pathlib import Path
from typing import Any

from support import ROOT as REPO
from support import result

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus"
CACHE = HERE.parent / "build" / "bench"
INTEROP_PYTHON = Path(
    os.environ.get("CODEGEN_INTEROP_PYTHON")
    or HERE.parent / ".venv-interop" / "bin" / "python"
)
WORKER = HERE / "sdk_models_worker.py"

# spec -> (official schema, the SDK worker's side, the SDK's name in the table)
PROTOCOLS = {
    "mcp": (CORPUS / "mcp" / "2025-11-25" / "schema.json", "mcp-sdk", "MCP SDK"),
    "acp1": (CORPUS / "acp1" / "1.21.0" / "schema.json", "acp-sdk", "ACP SDK"),
}


class Worker:
    """A ``sdk_models_worker.py`` subprocess: one command, one answer."""

    def __init__(
        self, python: str, side: str, env: dict[str, str], prefix: tuple[str, ...] = ()
    ) -> None:
        # ``prefix``: a command the worker runs under (``bench_sdk_instructions.py``'s
        # callgrind).
        self.process = subprocess.Popen(
            [*prefix, python, str(WORKER), side],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )

    def ask(self, op: str, **fields: Any) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"op": op, **fields}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"worker {self.process.args!r} ended")
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"op": "quit"}) + "\n")
        self.process.stdin.close()
        self.process.wait(timeout=30)


def _messages(
    spec: str, schema_path: Path, names: list[str], per_type: int
) -> list[list[str]]:
    """``[type, JSON text]`` pairs drawn from the official schema, cached by content."""
    text = schema_path.read_text(encoding="utf-8")
    key = hashlib.sha256(
        json.dumps([text, names, per_type]).encode("utf-8")
    ).hexdigest()[:16]
    cached = CACHE / f"sdk-messages-{spec}-{key}.json"
    if cached.is_file():
        loaded: list[list[str]] = json.loads(cached.read_text(encoding="utf-8"))
        return loaded
    from codegen.oracles.draw import draw

    bundle = json.loads(text)
    drawn = [
        [name, json.dumps(value, ensure_ascii=False)]
        for name in names
        for value in draw(bundle, name, per_type)
    ]
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(drawn), encoding="utf-8")
    return drawn


def _profile(items: list[list[str]], ours: list[float], sdk: list[float]) -> None:
    """Per type: the time of ours and of the SDK, slowest excess of ours first."""
    per: dict[str, list[float]] = {}
    for (name, _), a, b in zip(items, ours, sdk, strict=True):
        row = per.setdefault(name, [0.0, 0.0, 0.0])
        row[0] += 1
        row[1] += a
        row[2] += b
    print(f"{'type':44} {'n':>3} {'ours µs':>9} {'SDK µs':>9} {'SDK/ours':>8}")
    for name, (n, a, b) in sorted(per.items(), key=lambda kv: kv[1][2] - kv[1][1])[:30]:
        print(f"{name[:44]:44} {int(n):3} {a * 1e6:9.1f} {b * 1e6:9.1f} {b / a:8.2f}")


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    return q1, median, q3


def bench_spec(
    spec: str,
    seconds: float,
    per_type: int,
    pairs: int,
    profile: bool = False,
    also: Path | None = None,
) -> dict[str, float] | None:
    schema_path, sdk_side, _ = PROTOCOLS[spec]
    package = f"{spec}_protocol"
    # Both sides run by the interop venv's python: one pydantic and pydantic-core (the
    # generated package needs nothing else), so the ratio compares the models alone.
    ours_env = {
        **os.environ,
        "PYTHONPATH": str(REPO / "generated" / spec / "python"),
    }
    sdk_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    ratios: list[float] = []  # SDK / ours, per round (both passes on one order)
    pair_medians: list[float] = []
    floors: list[float] = []  # SDK / floor, per round
    shells: list[float] = []  # SDK / shells, per round
    alsos: list[float] = []  # SDK / the other copy of ours, per round
    times: dict[str, list[float]] = {
        "ours": [],
        "sdk": [],
        "floor": [],
        "shells": [],
        "also": [],
    }
    versions: dict[str, Any] = {}
    for pair in range(pairs):
        # Fresh processes per pair: another memory layout and hash seed, which move a
        # process's speed by themselves; the median over pairs evens that out.
        ours = Worker(str(INTEROP_PYTHON), f"ours:{package}", ours_env)
        sdk = Worker(str(INTEROP_PYTHON), sdk_side, sdk_env)
        floor = Worker(str(INTEROP_PYTHON), "floor", sdk_env)
        shell = Worker(str(INTEROP_PYTHON), f"shells:{package}", ours_env)
        # Another copy of the package (another revision's), in the same rounds: a
        # change measured against the load both meet, not against another run's.
        other = (
            Worker(
                str(INTEROP_PYTHON),
                f"ours:{package}",
                {**os.environ, "PYTHONPATH": str(also)},
            )
            if also is not None
            else None
        )
        try:
            versions = {"ours": ours.ask("version"), "sdk": sdk.ask("version")}
            official = set(json.loads(schema_path.read_text(encoding="utf-8"))["$defs"])
            names = sorted(official & set(ours.ask("names")) & set(sdk.ask("names")))
            items = _messages(spec, schema_path, names, per_type)
            ok_ours = ours.ask("load", items=items)
            ok_sdk = sdk.ask("load", items=items)
            both = [i for i, (a, b) in enumerate(zip(ok_ours, ok_sdk)) if a and b]
            exact_ours = ours.ask("keep", indices=both)
            exact_sdk = sdk.ask("keep", indices=both)
            floor.ask("load", items=items)
            floor.ask("keep", indices=both)
            shell.ask("load", items=items)
            shell.ask("keep", indices=both)
            if other is not None:
                other.ask("load", items=items)
                other.ask("keep", indices=both)
            if profile and pair == 0:
                kept = [items[i] for i in both]
                _profile(
                    kept, ours.ask("times", rounds=20), sdk.ask("times", rounds=20)
                )
            mine: list[float] = []
            spent = 0.0
            rounds = 0
            while rounds < 7 or spent < seconds * 2 / pairs:
                # Each round one shuffled order (a mixed stream), read by both sides; who
                # goes first alternates, so neither always finds the caches the other left.
                seed = pair * 100_000 + rounds
                sides = [
                    ("ours", ours),
                    ("sdk", sdk),
                    ("floor", floor),
                    ("shells", shell),
                ]
                if other is not None:
                    sides.append(("also", other))
                took: dict[str, float] = {}
                for name, worker in sides if rounds % 2 == 0 else sides[::-1]:
                    took[name] = float(worker.ask("pass", seed=seed))
                    times[name].append(took[name])
                    spent += took[name]
                mine.append(took["sdk"] / took["ours"])
                floors.append(took["sdk"] / took["floor"])
                shells.append(took["sdk"] / took["shells"])
                if other is not None:
                    alsos.append(took["sdk"] / took["also"])
                rounds += 1
            ratios.extend(mine)
            pair_medians.append(statistics.median(mine))
        finally:
            ours.close()
            sdk.close()
            floor.close()
            shell.close()
            if other is not None:
                other.close()
    count = len(both)
    q1, median, q3 = _quartiles(ratios)
    return {
        "types": len({items[i][0] for i in both}),
        "messages": count,
        "drawn": len(items),
        "ours_exact": exact_ours,
        "sdk_exact": exact_sdk,
        "ours": count / statistics.median(times["ours"]),
        "sdk": count / statistics.median(times["sdk"]),
        "ratio": median,
        # No models at all (pydantic-core parses and writes): what no binding built on
        # pydantic passes.
        "floor_ratio": statistics.median(floors),
        # Models of the same wire keys that check nothing (each field Any): what no
        # binding built on pydantic model classes passes.
        "shells_ratio": statistics.median(shells),
        "ratio_q1": q1,
        "ratio_q3": q3,
        "pair_min": min(pair_medians),
        "pair_max": max(pair_medians),
        "rounds": len(ratios),
        "same_pydantic": float(versions["ours"] == versions["sdk"]),
        **({"also_ratio": statistics.median(alsos)} if alsos else {}),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per side")
    parser.add_argument("--per-type", type=int, default=10, help="instances drawn")
    parser.add_argument(
        "--pairs", type=int, default=3, help="fresh process pairs (median over all)"
    )
    parser.add_argument("--spec", action="append", choices=sorted(PROTOCOLS))
    parser.add_argument(
        "--profile", action="store_true", help="print the time per type, too"
    )
    parser.add_argument(
        "--also",
        type=Path,
        metavar="DIR",
        help="another copy of the generated package (DIR holds <spec>_protocol/, e.g. "
        "another worktree's generated/mcp/python), measured in the same rounds",
    )
    args = parser.parse_args()
    if not INTEROP_PYTHON.is_file():
        print(f"skipped: no {INTEROP_PYTHON} (make .venv-interop/.installed)")
        return 0
    print(
        "spec   against        types  messages (of drawn)  exact: ours / SDK"
        "   msgs/s ours    msgs/s SDK   ours / SDK"
    )
    for spec in args.spec or sorted(PROTOCOLS):
        r = bench_spec(
            spec, args.seconds, args.per_type, args.pairs, args.profile, args.also
        )
        if r is None:
            continue
        result(f"sdk_models.{spec}", r)
        print(
            f"{spec:6} {PROTOCOLS[spec][2]:13} {int(r['types']):6} "
            f"{int(r['messages']):9} ({int(r['drawn']):5})"
            f"    {r['ours_exact']:6.1%} / {r['sdk_exact']:6.1%}"
            f"  {r['ours']:12.0f}  {r['sdk']:12.0f}  {r['ratio']:10.2f}x"
        )
        print(
            f"       ratio over {int(r['rounds'])} rounds: quartiles "
            f"{r['ratio_q1']:.2f}-{r['ratio_q3']:.2f}; median per process pair "
            f"{r['pair_min']:.2f}-{r['pair_max']:.2f}"
            + f"; floor (pydantic-core parses and writes, no models) / SDK "
            f"{r['floor_ratio']:.2f}x; shells (models of the same keys that check "
            f"nothing) / SDK {r['shells_ratio']:.2f}x"
            + ("" if r["same_pydantic"] else "; NOTE: the sides' pydantic differ")
        )
        if "also_ratio" in r:
            print(f"       --also / SDK, same rounds: {r['also_ratio']:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
