"""Benchmark: ``codegen generate`` (whole process, all specs) against datamodel-codegen.

Phase: measurement (``make bench``), never a timed test.
Inputs: the repo's specs and our emitted JSON Schemas (the peer's input).
Outputs: a table of median wall times and the ratio ours / peer, from interleaved runs in
the same process tree, so machine noise hits both sides alike.
Guarantees: writes only to a temporary directory (our generate run is idempotent and
changes nothing when generated/ is current).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _time(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=REPO, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    schemas = sorted((REPO / "generated").glob("*/schema/*.schema.json"))
    if not schemas:
        print("no generated schemas; run `make generate` first", file=sys.stderr)
        return 2
    ours_cmd = [str(BIN / "codegen"), "generate"]
    with tempfile.TemporaryDirectory() as tmp:
        peer_cmds = [
            [
                str(BIN / "datamodel-codegen"),
                "--input",
                str(schema),
                "--input-file-type",
                "jsonschema",
                "--output",
                str(Path(tmp) / f"{schema.stem}.py"),
                "--output-model-type",
                "pydantic_v2.BaseModel",
                "--target-python-version",
                "3.11",
                "--formatters",
                "ruff-format",
            ]
            for schema in schemas
        ]
        ours: list[float] = []
        peer: list[float] = []
        _time(ours_cmd)  # warm the file cache for both sides
        for _ in range(args.runs):
            ours.append(_time(ours_cmd))
            peer.append(sum(_time(cmd) for cmd in peer_cmds))
        # One spec each, so process start-up weighs the same on both sides.
        single_ours: list[float] = []
        single_peer: list[float] = []
        ahp = next(i for i, s in enumerate(schemas) if s.parent.parent.name == "ahp")
        for _ in range(args.runs):
            single_ours.append(_time([*ours_cmd, "ahp"]))
            single_peer.append(_time(peer_cmds[ahp]))
    names = ", ".join(s.parent.parent.name for s in schemas)
    _report(f"all specs ({names})", ours, peer, args.runs)
    _report("ahp alone", single_ours, single_peer, args.runs)
    return 0


def _report(label: str, ours: list[float], peer: list[float], runs: int) -> None:
    ours_median, peer_median = statistics.median(ours), statistics.median(peer)
    print(f"{label}; runs: {runs}")
    print(
        f"  codegen generate (schema, bindings, servers, docs): {ours_median * 1e3:6.0f} ms"
    )
    print(
        f"  datamodel-codegen --formatters ruff-format:         {peer_median * 1e3:6.0f} ms"
    )
    print(f"  ratio codegen / datamodel-codegen: {ours_median / peer_median:.2f}x")


if __name__ == "__main__":
    raise SystemExit(main())
