"""Benchmark: the TypeScript frontend on very wide declarations (issue 30): an interface
of N fields and a union of N literals, N = 1k, 10k, 100k.

Phase: measurement (``make bench``), never a timed test.
Inputs: a synthetic one-file spec per size (``interface Wide { f0: string; ... }`` and
``type Tags = 'v0' | 'v1' | ...``, both requested with ``[spec] types``).
Outputs: seconds to read the spec (frontend + passes) per size, microseconds per member,
the growth relative to size growth (1.0 = linear; the quadratic member merge this replaced
took more than 10 minutes at 100k), and the named peer on the same file: ``tsc --noEmit``
(TypeScript 5.9, the oracle's pinned compiler, ``make oracle-deps``) when it is installed.
Guarantees: writes only to a temporary directory.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from support import ROOT, result

from codegen.pipeline import load_protocol

TSC = ROOT / "codegen/oracles/npm/node_modules/typescript/bin/tsc"


def _spec(folder: Path, size: int) -> Path:
    fields = "\n".join(f"  f{i}: string;" for i in range(size))
    tags = " | ".join(f"'v{i}'" for i in range(size))
    (folder / "input.ts").write_text(
        f"export interface Wide {{\n{fields}\n}}\nexport type Tags =\n  {tags};\n",
        encoding="utf-8",
    )
    (folder / "spec.toml").write_text(
        '[spec]\nid = "wide"\nlanguage = "typescript"\nsources = ["input.ts"]\n'
        'types = ["Wide", "Tags"]\n',
        encoding="utf-8",
    )
    return folder


def _tsc(folder: Path) -> float | None:
    node = shutil.which("node")
    if node is None or not TSC.is_file():
        return None
    start = time.perf_counter()
    subprocess.run(
        [node, str(TSC), "--noEmit", "--strict", str(folder / "input.ts")],
        check=False,
        capture_output=True,
    )
    return time.perf_counter() - start


def measure(size: int) -> tuple[float, float | None]:
    with tempfile.TemporaryDirectory(prefix="bench-wide-") as tmp:
        folder = _spec(Path(tmp), size)
        start = time.perf_counter()
        outcome = load_protocol(folder, folder)
        seconds = time.perf_counter() - start
        assert outcome.ok(), [d.headline() for d in outcome.diags.errors()][:3]
        return seconds, _tsc(folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    args = parser.parse_args()
    print("members   read s   us/member   tsc s   read/tsc")
    data: dict[str, float] = {}
    for size in args.sizes:
        seconds, peer = measure(size)
        ratio = f"{seconds / peer:8.2f}" if peer else "     n/a"
        peer_text = f"{peer:7.2f}" if peer is not None else "    n/a"
        print(
            f"{size:7} {seconds:8.2f} {seconds / size * 1e6:11.1f} {peer_text} {ratio}"
        )
        data[f"read_{size}"] = seconds
        if peer is not None:
            data[f"tsc_{size}"] = peer
    sizes = sorted(args.sizes)
    if len(sizes) >= 2:
        small, large = sizes[-2], sizes[-1]
        growth = data[f"read_{large}"] / data[f"read_{small}"]
        data["linearity"] = growth / (large / small)
        print(
            f"time {small} -> {large} grew {growth:.1f}x for {large / small:.0f}x the "
            f"members: {data['linearity']:.2f} of linear"
        )
    result("ts_wide", data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
