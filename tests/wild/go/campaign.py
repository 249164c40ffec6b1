"""``make wild-go``: the Go frontend on real packages it has never seen.

Inputs: the Debian ``golang-*-dev`` packages pinned in ``packages.txt`` (installed by the
make target), their sources under ``/usr/share/gocode/src``.
What it does: every Go package directory of those packages that declares a json-tagged
struct becomes a spec (its non-test ``.go`` files as sources, every exported json-tagged
type in ``[spec] types``), read by the pipeline in a child process with a time limit; each
requested type is modelled, or unmodelled with the reason (the diagnostic at it, or the
note that excluded it).  A sample of the directories is then generated and judged by the
encoding/json oracle (``codegen.oracles``) on drawn instances.
Outputs: ``build/wild/go/report.json`` and a summary on stdout: packages, directories,
types, the share modelled, the reasons for the rest, the oracle's agreement.
Fails (exit 1) on a crash (INT001), a hang (the time limit), an unmodelled type without a
reason, or an oracle disagreement that no listed divergence excuses.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import tree_sitter_go
from tree_sitter import Language, Parser

REPO = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
GOCODE = Path("/usr/share/gocode/src")
OUT = REPO / "build" / "wild" / "go"
TIME_LIMIT = 120  # seconds per directory (a package's child gets that per directory)
ORACLE_SAMPLE = 8  # directories judged by the oracle
_LANGUAGE = Language(tree_sitter_go.language())


def packages() -> list[str]:
    lines = (HERE / "packages.txt").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def package_dirs(package: str) -> dict[Path, list[Path]]:
    """The package's Go directories: directory → its non-test ``.go`` files."""
    listed = subprocess.run(
        ["dpkg", "-L", package], capture_output=True, text=True, check=False
    ).stdout.splitlines()
    out: dict[Path, list[Path]] = {}
    for line in listed:
        path = Path(line)
        if (
            path.suffix == ".go"
            and not path.name.endswith("_test.go")
            and GOCODE in path.parents
            and not {"testdata", "vendor", "examples", "example"} & set(path.parts)
            and path.is_file()
        ):
            out.setdefault(path.parent, []).append(path)
    return out


def json_types(files: list[Path]) -> dict[str, tuple[str, int, int]]:
    """Exported non-generic struct types with a ``json:`` tag: name → (file, first, last
    line)."""
    found: dict[str, tuple[str, int, int]] = {}
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if b'json:"' not in data:
            continue
        root = Parser(_LANGUAGE).parse(data).root_node
        for node in root.named_children:
            if node.type != "type_declaration":
                continue
            for spec in node.named_children:
                name_node = spec.child_by_field_name("name")
                kind = spec.child_by_field_name("type")
                if (
                    spec.type != "type_spec"
                    or name_node is None
                    or kind is None
                    or kind.type != "struct_type"
                    or spec.child_by_field_name("type_parameters") is not None
                ):
                    continue
                name = (name_node.text or b"").decode()
                text = kind.text or b""
                if name[:1].isupper() and b'json:"' in text and name not in found:
                    found[name] = (
                        str(path),
                        spec.start_point[0] + 1,
                        spec.end_point[0] + 1,
                    )
    return found


def write_spec(folder: Path, spec_id: str, files: list[Path], types: list[str]) -> Path:
    spec_dir = folder / "specs" / spec_id
    spec_dir.mkdir(parents=True)
    (spec_dir / "spec.toml").write_text(
        "[spec]\n"
        f'id = "{spec_id}"\n'
        'language = "go"\n'
        f"sources = {json.dumps([str(f) for f in sorted(files)])}\n"
        f"types = {json.dumps(types)}\n\n"
        "[transport]\n"
        'kind = "http-post-envelope"\n'
        'framings = ["http-post"]\n\n'
        "[python]\n"
        f'package = "{spec_id.replace("-", "_")}_protocol"\n',
        encoding="utf-8",
    )
    return spec_dir


def read_many(pairs: list[str]) -> None:
    """Child process: load each spec (``spec_dir`` and ``repo``, alternating) and print
    one JSON line per spec, as soon as it is read (a hang shows which one)."""
    from codegen.pipeline import load_protocol

    for spec_dir, repo in zip(pairs[::2], pairs[1::2]):
        began = time.monotonic()
        outcome = load_protocol(Path(spec_dir), Path(repo))
        protocol = outcome.protocol
        line = {
            "spec_dir": spec_dir,
            "seconds": round(time.monotonic() - began, 2),
            "decls": [d.name for d in protocol.decls] if protocol else [],
            "diags": [
                [d.code, d.severity.value, d.span.file, d.span.line, d.message]
                for d in outcome.diags.items
            ],
        }
        print(json.dumps(line), flush=True)


def classify(
    types: dict[str, tuple[str, int, int]], result: dict[str, Any], repo: Path
) -> dict[str, str]:
    """Each requested type → "" (modelled) or the reason it is not."""
    decls = set(result["decls"])
    located: dict[str, list[list[Any]]] = {}
    for diag in result["diags"]:
        code, severity, file, line, _ = diag
        path = str((repo / file).resolve()) if file else ""
        for name, (tfile, first, last) in types.items():
            if (
                path == tfile
                and first <= line <= last
                and (severity == "error" or code in ("GOW001", "SYN005"))
            ):
                located.setdefault(name, []).append(diag)
    out: dict[str, str] = {}
    for name in types:
        mine = located.get(name, [])
        if mine:
            code, _, _, _, message = mine[0]
            out[name] = f"{code}: {message}"
        elif name not in decls:
            out[name] = "not in the IR (no diagnostic at it)"
        else:
            out[name] = ""
    return out


def oracle_sample(
    chosen: list[tuple[str, Path]], scratch: Path
) -> list[dict[str, Any]]:
    from codegen.oracles.divergences import load_divergences, load_open_findings
    from codegen.oracles.report import describe
    from codegen.oracles.run import Options, run_spec

    codegen = Path(sys.executable).parent / "codegen"
    rows: list[dict[str, Any]] = []
    for spec_id, spec_dir in chosen:
        done = subprocess.run(
            [
                str(codegen),
                "generate",
                "--no-cache",
                "-q",
                str(spec_dir),
                "-o",
                str(scratch / "generated"),
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        if done.returncode != 0:
            rows.append(
                {
                    "spec": spec_id,
                    "generated": False,
                    "why": (done.stdout + done.stderr)[-400:],
                }
            )
            continue
        report = run_spec(
            spec_id,
            scratch,
            load_divergences(REPO),
            Options(per_type=15, draws=2),
            load_open_findings(REPO),
        )
        counts = report.counts()
        rows.append(
            {
                "spec": spec_id,
                "generated": True,
                "error": report.error,
                "targets": len(report.targets),
                "cases": counts["cases"],
                "agree": counts["cases"] - counts["failures"],
                "failures": counts["failures"],
                "first_failures": [describe(o) for o in report.failures[:3]],
            }
        )
    return rows


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="wild-go-"))
    rows: list[dict[str, Any]] = []
    failures: list[str] = []
    clean: list[tuple[str, Path, int]] = []
    try:
        for package in packages():
            planned: list[tuple[str, str, Path, dict[str, tuple[str, int, int]]]] = []
            for directory, files in sorted(package_dirs(package).items()):
                types = json_types(files)
                if not types:
                    continue
                rel = directory.relative_to(GOCODE).as_posix()
                spec_id = f"w{len(rows) + len(planned)}-" + directory.name.replace(
                    ".", "-"
                )
                spec_dir = write_spec(scratch, spec_id, files, sorted(types))
                planned.append((rel, spec_id, spec_dir, types))
            if not planned:
                continue
            args: list[str] = []
            for _, _, spec_dir, _ in planned:
                args.extend([str(spec_dir), str(scratch)])
            try:
                child = subprocess.run(
                    [sys.executable, __file__, "--many", *args],
                    capture_output=True,
                    text=True,
                    check=False,
                    cwd=REPO,
                    timeout=TIME_LIMIT * len(planned),
                )
                output, died = child.stdout, child.returncode != 0
                stderr = child.stderr
            except subprocess.TimeoutExpired as expired:
                raw = expired.stdout or b""
                output = raw.decode() if isinstance(raw, bytes) else raw
                died, stderr = True, "over the time limit"
            results = {}
            for line in output.splitlines():
                if line.startswith("{"):
                    item = json.loads(line)
                    results[item["spec_dir"]] = item
            for rel, spec_id, spec_dir, types in planned:
                result = results.get(str(spec_dir))
                if result is None:
                    failures.append(f"{rel}: not read ({stderr[-300:]})")
                    rows.append(
                        {
                            "package": package,
                            "dir": rel,
                            "types": {n: "not read" for n in types},
                        }
                    )
                    continue
                if result["seconds"] > TIME_LIMIT:
                    failures.append(f"{rel}: slow ({result['seconds']} s)")
                crashes = [d for d in result["diags"] if d[0] == "INT001"]
                failures.extend(f"{rel}: INT001 {d[4][:200]}" for d in crashes)
                verdicts = classify(types, result, scratch)
                errors = sum(1 for d in result["diags"] if d[1] == "error")
                rows.append(
                    {
                        "package": package,
                        "dir": rel,
                        "types": verdicts,
                        "errors": errors,
                        "seconds": result["seconds"],
                    }
                )
                if not errors and len(types) >= 2:
                    clean.append((spec_id, spec_dir, len(types)))
            if died and len(results) == len(planned):
                failures.append(f"{package}: the reader exited badly: {stderr[-300:]}")
        # The oracle on a sample: the clean directories with the most types.
        clean.sort(key=lambda item: -item[2])
        judged = oracle_sample([(s, d) for s, d, _ in clean[:ORACLE_SAMPLE]], scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    verdicts = [v for row in rows for v in row["types"].values()]
    modelled = sum(1 for v in verdicts if v == "")
    reasons = Counter(v.split(":", 1)[0] for v in verdicts if v)
    unexplained = [v for v in verdicts if v == "not in the IR (no diagnostic at it)"]
    cases = sum(r.get("cases", 0) for r in judged)
    agree = sum(r.get("agree", 0) for r in judged)
    oracle_failures = [r for r in judged if r.get("failures") or r.get("error")]
    summary = {
        "packages": len({r["package"] for r in rows}),
        "directories": len(rows),
        "types": len(verdicts),
        "modelled": modelled,
        "share_modelled": round(modelled / len(verdicts), 4) if verdicts else 0.0,
        "unmodelled_by_reason": dict(reasons.most_common()),
        "unexplained": len(unexplained),
        "crashes_or_hangs": failures,
        "oracle": {
            "directories": len(judged),
            "cases": cases,
            "agree": agree,
            "with_disagreements": [r["spec"] for r in oracle_failures],
        },
        "seconds": round(time.monotonic() - started, 1),
    }
    (OUT / "report.json").write_text(
        json.dumps({"summary": summary, "rows": rows, "oracle": judged}, indent=1),
        encoding="utf-8",
    )
    print(json.dumps(summary, indent=1))
    bad = bool(failures or unexplained or oracle_failures)
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--many":
        read_many(sys.argv[2:])
        sys.exit(0)
    os.chdir(REPO)
    sys.exit(main())
