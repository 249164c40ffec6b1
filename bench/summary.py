"""``make bench``: every benchmark in one run, and a one-screen summary of the ratios.

Phase: measurement, never a timed test.
Inputs: this checkout; optionally ``--baseline REV`` (a git revision, extracted with
``git archive`` into a temporary folder, measured by the same scripts in the same run, so
the table shows before and after); ``--quick`` for shorter runs.
Outputs: ``build/bench/summary.md`` (the table of targets, the machine's load, then each
benchmark's own report), printed as well.
Guarantees: writes only ``build/bench/`` and temporary folders; the ratios compare sides
measured in the same run, so a loaded machine moves both.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = REPO / "build" / "bench" / "summary.md"

# (script, quick arguments, full arguments)
BENCHES = (
    ("bench_generate.py", ["--runs", "3"], ["--runs", "5"]),
    ("bench_bindings.py", ["--seconds", "0.5"], ["--seconds", "1.0"]),
    ("bench_server.py", ["--requests", "1000"], ["--requests", "3000"]),
    ("bench_sdk_models.py", ["--seconds", "0.5"], ["--seconds", "1.0"]),
    ("bench_sdk_server.py", ["--requests", "1000"], ["--requests", "3000"]),
    ("bench_scale.py", ["--sizes", "1", "10", "30"], ["--sizes", "1", "10", "100"]),
)

# (label, result name, key, target text, better when)
ROWS = (
    ("no-op generate (s)", "generate", "noop", "<= 0.3", "low"),
    ("no-op generate --check (s)", "generate", "check", "<= 0.4", "low"),
    ("full run (s)", "generate", "full", "", "low"),
    ("full run / datamodel-codegen", "generate", "full_ratio", "<= 0.33", "low"),
    ("ahp alone / datamodel-codegen", "generate", "ahp_ratio", "", "low"),
    ("scale: largest size (s)", "scale", "total_max", "half of before", "low"),
    ("scale: growth / size growth", "scale", "linearity", "<= 1.2", "low"),
    ("bindings acp / datamodel-codegen", "bindings.acp", "ratio", ">= 1.0", "high"),
    ("bindings acp1 / datamodel-codegen", "bindings.acp1", "ratio", ">= 1.0", "high"),
    ("bindings ahp / datamodel-codegen", "bindings.ahp", "ratio", ">= 1.0", "high"),
    ("bindings mcp / datamodel-codegen", "bindings.mcp", "ratio", ">= 1.0", "high"),
    (
        "bindings openctx / datamodel-codegen",
        "bindings.openctx",
        "ratio",
        ">= 1.0",
        "high",
    ),
    (
        "bindings piglet / datamodel-codegen",
        "bindings.piglet",
        "ratio",
        ">= 1.0",
        "high",
    ),
    # The user's real alternative: the official SDK of the protocol (pinned in
    # tests/interop/requirements.txt, run from .venv-interop), on the same messages.
    (
        "bindings mcp / official SDK (mcp.types)",
        "sdk_models.mcp",
        "ratio",
        ">= 1.5",
        "high",
    ),
    (
        "bindings acp1 / official SDK (acp.schema)",
        "sdk_models.acp1",
        "ratio",
        ">= 1.5",
        "high",
    ),
    # Information: no models at all (pydantic-core parses each message and writes it
    # back) against the SDK: the most any binding built on pydantic reaches.
    (
        "bindings mcp: shells (same keys, no checks) / official SDK",
        "sdk_models.mcp",
        "shells_ratio",
        "",
        "high",
    ),
    (
        "bindings acp1: shells (same keys, no checks) / official SDK",
        "sdk_models.acp1",
        "shells_ratio",
        "",
        "high",
    ),
    (
        "bindings mcp: floor (parse + write, no models) / official SDK",
        "sdk_models.mcp",
        "floor_ratio",
        "",
        "high",
    ),
    (
        "bindings acp1: floor (parse + write, no models) / official SDK",
        "sdk_models.acp1",
        "floor_ratio",
        "",
        "high",
    ),
    (
        "server mcp / official SDK server, stdio",
        "sdk_server.mcp",
        "ratio",
        ">= 2.0",
        "high",
    ),
    (
        "server acp1 / official SDK agent, stdio",
        "sdk_server.acp1",
        "ratio",
        ">= 2.0",
        "high",
    ),
    (
        "server CPU per round trip: official SDK server / mcp",
        "sdk_server.mcp",
        "server_cpu_ratio",
        "",
        "high",
    ),
    (
        "server CPU per round trip: official SDK agent / acp1",
        "sdk_server.acp1",
        "server_cpu_ratio",
        "",
        "high",
    ),
    # The server's own cost: the generated client against the generated server, over
    # the least server that client can talk to (bench_server.py's floor), one core.
    (
        "server stdio: generated / floor",
        "server.stdio",
        "generated_floor",
        ">= 0.8",
        "high",
    ),
    (
        "server WebSocket: generated / floor",
        "server.websocket",
        "generated_floor",
        ">= 0.8",
        "high",
    ),
    # Information: the same ratio block by block (100 round trips each, measured back to
    # back): its median, and the quartiles, the spread one run's figure hides.
    (
        "server stdio: generated / floor, median of blocks",
        "server.stdio",
        "generated_floor_median",
        "",
        "high",
    ),
    ("  (quartiles: low)", "server.stdio", "generated_floor_q1", "", "high"),
    ("  (quartiles: high)", "server.stdio", "generated_floor_q3", "", "high"),
    # Information: against a bare echo loop.  One core: a round trip costs what both
    # peers spend on it (bench_server.py says why the all-cores figures swing).
    ("server stdio / echo loop", "server.stdio", "ratio", "", "high"),
    ("server WebSocket / echo loop", "server.websocket", "ratio", "", "high"),
    (
        "server stdio / echo loop, all cores",
        "server.stdio_all_cores",
        "ratio",
        "",
        "high",
    ),
    (
        "server WebSocket / echo loop, all cores",
        "server.websocket_all_cores",
        "ratio",
        "",
        "high",
    ),
    # The generated client against a server that only parses and answers: the most
    # any server reaches with that client.
    ("server stdio: floor / echo loop", "server.stdio", "floor_ratio", "", "high"),
    (
        "server WebSocket: floor / echo loop",
        "server.websocket",
        "floor_ratio",
        "",
        "high",
    ),
)


def run_all(root: Path, quick: bool) -> tuple[dict[str, dict[str, float]], str]:
    env = {**os.environ, "CODEGEN_BENCH_ROOT": str(root)}
    results: dict[str, dict[str, float]] = {}
    reports: list[str] = []
    for script, quick_args, full_args in BENCHES:
        command = [
            sys.executable,
            str(HERE / script),
            *(quick_args if quick else full_args),
        ]
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, check=False
        )
        lines = []
        for line in done.stdout.splitlines():
            if line.startswith("RESULT "):
                _, name, data = line.split(" ", 2)
                results[name] = json.loads(data)
            else:
                lines.append(line)
        if done.returncode != 0:
            lines.append(f"(failed, exit {done.returncode}): {done.stderr[-2000:]}")
        reports.append(f"### {script}\n\n```\n" + "\n".join(lines) + "\n```\n")
    scale = results.get("scale", {})
    totals = [v for k, v in scale.items() if k.startswith("total_")]
    if totals:
        scale["total_max"] = max(totals)
    return results, "\n".join(reports)


def _value(results: dict[str, dict[str, float]], name: str, key: str) -> str:
    value = results.get(name, {}).get(key)
    return "—" if value is None else f"{value:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="a git revision to measure as 'before'")
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    args = parser.parse_args()
    load_before = os.getloadavg()
    after, after_report = run_all(REPO, args.quick)
    before: dict[str, dict[str, float]] = {}
    before_report = ""
    if args.baseline:
        with tempfile.TemporaryDirectory(prefix="codegen-baseline-") as tmp:
            archive = subprocess.run(
                ["git", "archive", args.baseline],
                cwd=REPO,
                capture_output=True,
                check=True,
            ).stdout
            tar = Path(tmp) / "tree.tar"
            tar.write_bytes(archive)
            with tarfile.open(tar) as tree:
                tree.extractall(Path(tmp) / "tree", filter="data")
            before, before_report = run_all(Path(tmp) / "tree", args.quick)
    load_after = os.getloadavg()
    lines = [
        "# codegen benchmarks",
        "",
        (
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
            f"{os.cpu_count()} cores; load average {load_before[0]:.1f} before, "
            f"{load_after[0]:.1f} after (ratios are of sides measured in the same run)."
        ),
        "",
        "| measure | target | "
        + (f"before ({args.baseline}) | " if args.baseline else "")
        + "now |",
        "|---|---|" + ("---|" if args.baseline else "") + "---|",
    ]
    for label, name, key, target, _ in ROWS:
        cells = [label, target]
        if args.baseline:
            cells.append(_value(before, name, key))
        cells.append(_value(after, name, key))
        lines.append("| " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n\n## now\n\n" + after_report
    if args.baseline:
        text += f"\n## before ({args.baseline})\n\n" + before_report
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
