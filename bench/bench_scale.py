"""Benchmark: how generation time grows with spec size (synthetic 1×, 10×, 100× AHP).

Phase: measurement (``make bench``), never a timed test.
Inputs: specs/ahp, copied N times into one TypeScript file with every declared name and
method prefixed by the copy number (``P3InitializeParams``, ``p3Initialize``).
Outputs: seconds per phase (frontend + passes, backends + formatting) at each size and the
growth relative to 1×, which should stay close to N (linear).
Guarantees: writes only to a temporary directory.
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from pathlib import Path

from support import ROOT as REPO
from support import result

from codegen.pipeline import load_protocol, render_protocol

_DECLARED = re.compile(
    r"^(?:export )?(?:const enum|enum|interface|type) (\w+)", re.MULTILINE
)


def _base_source() -> str:
    text = "".join(
        (REPO / "specs/ahp" / name).read_text(encoding="utf-8")
        for name in ("state.ts", "commands.ts")
    )
    text = re.sub(r"^import .*$|^export type \{.*$", "", text, flags=re.MULTILINE)
    return (
        text
        + "\nexport type ActionEnvelope = unknown;\nexport type StateAction = unknown;\n"
    )


def _copy(text: str, names: list[str], number: int) -> str:
    pattern = re.compile(
        r"\b(" + "|".join(sorted(names, key=len, reverse=True)) + r")\b"
    )
    renamed = pattern.sub(lambda m: f"P{number}{m.group(1)}", text)
    return re.sub(
        r"@method (\w)(\w*)",
        lambda m: f"@method p{number}{m.group(1).upper()}{m.group(2)}",
        renamed,
    )


def _spec(root: Path, copies: int) -> Path:
    base = _base_source()
    names = _DECLARED.findall(base)
    spec = root / "specs" / f"scale{copies}"
    spec.mkdir(parents=True)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    body = "\n".join(_copy(base, names, number) for number in range(copies))
    (spec / "input.ts").write_text(body, encoding="utf-8")
    (spec / "spec.toml").write_text(
        f'[spec]\nid = "scale{copies}"\nlanguage = "typescript"\nsources = ["input.ts"]\n',
        encoding="utf-8",
    )
    return spec


def measure(copies: int) -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        spec = _spec(Path(tmp), copies)
        start = time.perf_counter()
        outcome = load_protocol(spec, Path(tmp))
        read = time.perf_counter() - start
        assert (
            outcome.protocol is not None and outcome.config is not None
        ), "spec failed"
        start = time.perf_counter()
        render_protocol(outcome.protocol, outcome.config)
        return read, time.perf_counter() - start, len(outcome.protocol.decls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 100])
    args = parser.parse_args()
    print("copies  decls  read+passes s  render s   growth vs 1x (read, render)")
    first: tuple[float, float] | None = None
    data: dict[str, float] = {}
    for copies in args.sizes:
        read, render, decls = measure(copies)
        first = first or (read, render)
        print(
            f"{copies:6} {decls:6} {read:13.2f} {render:9.2f}"
            f"   {read / first[0]:6.1f}x {render / first[1]:6.1f}x"
        )
        data[f"total_{copies}"] = read + render
    sizes = sorted(args.sizes)
    if len(sizes) >= 2:
        small, large = sizes[-2], sizes[-1]
        growth = data[f"total_{large}"] / data[f"total_{small}"]
        data["linearity"] = growth / (large / small)
        print(
            f"time {small}x -> {large}x grew {growth:.1f}x for {large / small:.0f}x the "
            f"size: {data['linearity']:.2f} of linear (target <= 1.2)"
        )
    result("scale", data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
