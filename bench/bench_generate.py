"""Benchmark: ``codegen generate`` (whole process, all specs) against datamodel-codegen.

Phase: measurement (``make bench``), never a timed test.
Inputs: the checkout's specs and generated output, copied to a scratch project, and our
emitted JSON Schemas (the peer's input).
Outputs: median wall times, interleaved in one run so machine noise hits every side alike:
- a no-op ``generate`` and a no-op ``generate --check`` (nothing changed since the last
  run: the records let both skip every spec; targets 0.3 s and 0.4 s);
- a full run (``generate --no-cache``: every spec read, rendered, formatted, compared)
  and the ratio full / datamodel-codegen (``--formatters ruff-format``, all schemas);
- ``ahp`` alone, full, against the peer on ahp's schema.
Guarantees: writes only to temporary directories.  A checkout without the records (an
older revision measured by ``summary.py --baseline``) runs ``generate`` in full each time,
which is what its no-op cost was.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from support import ENV, ROOT, result

BIN = Path(sys.executable).parent
CODEGEN = [sys.executable, "-m", "codegen", "generate"]
# An older checkout (summary.py --baseline) has no records and no --no-cache.
FULL = ["--no-cache"] if (ROOT / "codegen" / "cache.py").is_file() else []


def _time(command: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True, env=ENV)
    return time.perf_counter() - start


def _project(tmp: Path) -> Path:
    project = tmp / "project"
    project.mkdir()
    shutil.copy2(ROOT / "pyproject.toml", project / "pyproject.toml")
    shutil.copytree(ROOT / "specs", project / "specs")
    shutil.copytree(ROOT / "generated", project / "generated")
    return project


def _peer(schema: Path, out: Path) -> list[str]:
    return [
        str(BIN / "datamodel-codegen"),
        *("--input", str(schema), "--input-file-type", "jsonschema"),
        *("--output", str(out / f"{schema.stem}.py")),
        *("--output-model-type", "pydantic_v2.BaseModel"),
        *("--target-python-version", "3.11", "--formatters", "ruff-format"),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    schemas = sorted((ROOT / "generated").glob("*/schema/*.schema.json"))
    if not schemas:
        print("no generated schemas; run `make generate` first", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        project = _project(tmp)
        peers = [_peer(schema, tmp) for schema in schemas]
        ahp = next(i for i, s in enumerate(schemas) if s.parent.parent.name == "ahp")
        _time(CODEGEN, project)  # brings the copy up to date, warms the file cache
        cases: dict[str, list[float]] = {
            k: [] for k in ("noop", "check", "full", "peer", "ahp", "ahp_peer")
        }
        for _ in range(args.runs):
            cases["noop"].append(_time(CODEGEN, project))
            cases["check"].append(_time([*CODEGEN, "--check"], project))
            cases["full"].append(_time([*CODEGEN, *FULL], project))
            cases["peer"].append(sum(_time(cmd, tmp) for cmd in peers))
            cases["ahp"].append(_time([*CODEGEN, *FULL, "ahp"], project))
            cases["ahp_peer"].append(_time(peers[ahp], tmp))
    median = {k: statistics.median(v) for k, v in cases.items()}
    names = ", ".join(s.parent.parent.name for s in schemas)
    print(
        f"codegen generate, {len(schemas)} specs ({names}); median of {args.runs} runs"
    )
    print(
        f"  no-op generate:              {median['noop'] * 1e3:7.0f} ms  (target 300)"
    )
    print(
        f"  no-op generate --check:      {median['check'] * 1e3:7.0f} ms  (target 400)"
    )
    print(f"  full run (--no-cache):       {median['full'] * 1e3:7.0f} ms")
    print(f"  datamodel-codegen, all:      {median['peer'] * 1e3:7.0f} ms")
    print(f"  ratio full / peer:           {median['full'] / median['peer']:7.2f}x")
    print(f"  ahp alone, full / peer:      {median['ahp'] / median['ahp_peer']:7.2f}x")
    result(
        "generate",
        {
            **median,
            "full_ratio": median["full"] / median["peer"],
            "ahp_ratio": median["ahp"] / median["ahp_peer"],
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
