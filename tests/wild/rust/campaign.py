"""``make wild-rust``: real crates with serde derives, read as specs with zero edits.

Phase: a campaign beside the test suite (minutes, not seconds; not part of ``make test``).
Inputs: ``crates.txt`` beside this file (lines ``<package> <crate> <version>``: Debian's
``librust-<package>-dev``, whose sources are ``/usr/share/cargo/registry/<crate>-<version>/``).
For each crate: its ``Cargo.toml`` and every ``src/**/*.rs`` become a spec (``language =
"rust"``), read with the crate's default features plus every feature whose name says serde
(``serde``, ``serde1``, ``with-serde``, ...; serde derives are usually behind one), and every
public type that derives ``Serialize`` or ``Deserialize`` as ``[spec] types``.
Outputs: per crate, the types asked for, the ones modelled (in the IR, with no error inside
their declaration) and, for each one not modelled, the diagnostics that explain it; the
``generable`` ones among them (no error in any declaration they reach); totals;
then serde's verdicts on a seeded sample of the generable types (``serde_sample``: cases
judged, agreement, every disagreement, the crates and types whose sample serde's side could
not build and why); ``build/wild/rust/report.json``.  A crate is read in a child process with a time limit, so a
crash or a hang is a figure, never the campaign's end.
Guarantees: exits non-zero when a crate crashes the toolchain (INT001 or an exception), hangs,
or leaves a type unmodelled with no diagnostic that explains it, or when serde and the
bindings disagree on a case no listed divergence excuses; a crate missing from the
registry is reported (install it: ``make wild-rust`` does, as root).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from tests.wild.rust import serde_sample

HERE = Path(__file__).resolve().parent
REGISTRY = Path("/usr/share/cargo/registry")
LIMIT = 180  # seconds a crate may take
_DERIVE = re.compile(
    r"\bderive\(([^)]*)\)"
)  # in #[derive(..)] and #[cfg_attr(.., derive(..))]
_ITEM = re.compile(
    r"^\s*pub\s+(?:struct|enum)\s+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE
)


def crates() -> list[tuple[str, str]]:
    """(crate, version) per line of ``crates.txt`` (``package crate version``)."""
    out = []
    for line in (HERE / "crates.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            _, name, version = line.split()
            out.append((name, version))
    return out


def public_serde_types(text: str) -> list[str]:
    """Public structs and enums whose attributes derive Serialize or Deserialize
    (directly or under ``cfg_attr``): the item after each such derive."""
    names = []
    for derive in _DERIVE.finditer(text):
        if not re.search(r"\b(Serialize|Deserialize)\b", derive.group(1)):
            continue
        following = _ITEM.search(text, derive.end())
        if following is None:
            continue
        between = text[derive.end() : following.start()]
        if re.search(r"\b(struct|enum|fn|impl|mod|trait)\b", between):
            continue  # the derive belongs to a non-public item
        names.append(following.group(1))
    return names


def features_of(cargo: Path) -> list[str]:
    try:
        table = tomllib.loads(cargo.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return []
    declared = set(table.get("features", {}))
    optional = {
        name
        for name, dep in table.get("dependencies", {}).items()
        if isinstance(dep, dict) and dep.get("optional")
    }
    return sorted(f for f in declared | optional if "serde" in f.lower())


def make_spec(name: str, root: Path, into: Path) -> list[str]:
    """Copy the crate's sources into a spec folder; the public serde types."""
    sources = ["Cargo.toml"]
    shutil.copyfile(root / "Cargo.toml", into / "Cargo.toml")
    types: list[str] = []
    for path in sorted((root / "src").rglob("*.rs")):
        rel = path.relative_to(root).as_posix()
        target = into / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text(encoding="utf-8", errors="replace")
        target.write_text(text, encoding="utf-8")
        sources.append(rel)
        types.extend(public_serde_types(text))
    types = sorted(set(types))
    spec = {
        "id": re.sub(r"[^a-z0-9]+", "_", name.lower()),
        "language": "rust",
        "sources": sources,
        "roles": ["client", "server"],
        "types": types,
    }
    lines = ["[spec]"] + [f"{k} = {json.dumps(v)}" for k, v in spec.items()]
    lines += ["[rust]", f"features = {json.dumps(features_of(root / 'Cargo.toml'))}"]
    (into / "spec.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return types


def read_one(spec_dir: str) -> dict[str, Any]:
    """In the child: load the spec; which requested types are modelled, and why not."""
    from codegen.diagnostics import Diagnostics
    from codegen.frontends.rust.crate import read_crate
    from codegen.pipeline import load_protocol
    from codegen.spec.source import SourceText

    spec = Path(spec_dir)
    table = tomllib.loads((spec / "spec.toml").read_text(encoding="utf-8"))
    config = table["spec"]
    outcome = load_protocol(spec, spec)
    sources = [
        SourceText(rel, (spec / rel).read_text(encoding="utf-8"))
        for rel in config["sources"]
    ]
    crate = read_crate(sources, tuple(table["rust"]["features"]), True, Diagnostics())
    ranges: dict[str, list[tuple[str, int, int]]] = {}
    generic: set[str] = set()
    derived: set[str] = set()
    for item in crate.items:
        if item.node.type not in ("struct_item", "enum_item"):
            continue
        name_node = item.node.child_by_field_name("name")
        if name_node is None:
            continue
        name = name_node.text.decode()
        if {"Serialize", "Deserialize"} & item.attrs.derives:
            derived.add(name)
        ranges.setdefault(name, []).append(
            (
                item.source.rel_path,
                item.node.start_point[0] + 1,
                item.node.end_point[0] + 1,
            )
        )
        if item.node.child_by_field_name("type_parameters") is not None and any(
            p.type == "type_parameter"
            for p in item.node.child_by_field_name("type_parameters").named_children
        ):
            generic.add(name)

    def within(file: str, line: int, type_name: str) -> bool:
        return any(
            file == f and first <= line <= last for f, first, last in ranges[type_name]
        )

    decls = outcome.protocol.decls if outcome.protocol else ()
    errors = outcome.diags.errors()
    report: dict[str, Any] = {
        "types": len(config["types"]),
        "modelled": [],
        "unmodelled": {},
        "crash": [d.headline() for d in outcome.diags.items if d.code == "INT001"],
        "codes": sorted({d.code for d in errors}),
    }
    closed = _closed(outcome.protocol, ranges, errors)
    report["generable"] = []
    for type_name in config["types"]:
        if type_name not in ranges:
            report["unmodelled"][type_name] = [
                (
                    "not compiled with the selected features (#[cfg], cfg(test) or an "
                    "uncompiled module)"
                )
            ]
            continue
        if type_name not in derived:
            report["unmodelled"][type_name] = [
                (
                    "derives no Serialize/Deserialize with the selected features (the "
                    "derive scanned is under a cfg_attr not enabled, or another crate's)"
                )
            ]
            continue
        if type_name in generic:
            instances = [
                d.name
                for d in decls
                if d.name.startswith(type_name)
                and within(d.span.file, d.span.line, type_name)
            ]
            report["unmodelled"][type_name] = [
                f"generic: modelled per use ({len(instances)} instance(s) in this crate)"
            ]
            continue
        inside = [
            d.headline() for d in errors if within(d.span.file, d.span.line, type_name)
        ]
        present = any(within(d.span.file, d.span.line, type_name) for d in decls)
        if present and not inside:
            report["modelled"].append(type_name)
            if closed(type_name):
                report["generable"].append(type_name)
            continue
        why = inside or [
            d.headline()
            for d in outcome.diags.items
            if within(d.span.file, d.span.line, type_name)
        ]
        report["unmodelled"][type_name] = why[:3]
    return report


def _closed(
    protocol: Any, ranges: dict[str, list[tuple[str, int, int]]], errors: list[Any]
) -> Any:
    """A predicate: is a type generable alone, i.e. no error inside the declaration of
    any type it reaches (a field whose type could not be read is an error at the field,
    inside a declaration of the closure)?  What the serde sample draws from."""
    from codegen import ir
    from codegen.ir.index import Index

    if protocol is None:
        return lambda name: False
    index = Index(protocol)
    items = [r for rs in ranges.values() for r in rs]

    def item_of(span: Any) -> tuple[str, int, int] | None:
        return next(
            (r for r in items if r[0] == span.file and r[1] <= span.line <= r[2]), None
        )

    def exprs(decl: Any) -> list[Any]:
        if isinstance(decl, ir.StructDecl):
            return [f.type for f in decl.fields] + [*decl.bases, decl.index_value]
        if isinstance(decl, ir.UnionDecl):
            return [v.type for v in decl.variants]
        if isinstance(decl, ir.AliasDecl):
            return [decl.target]
        return []

    def closed(type_name: str) -> bool:
        stack = [
            d
            for d in protocol.decls
            if any(
                d.span.file == f and a <= d.span.line <= b
                for f, a, b in ranges[type_name]
            )
        ]
        seen: set[str] = set()
        spans: set[tuple[str, int, int]] = set()
        while stack:
            decl = stack.pop()
            if decl.name in seen:
                continue
            seen.add(decl.name)
            found = item_of(decl.span)
            if found is not None:
                spans.add(found)
            for expr in exprs(decl):
                for name in index.references(expr):
                    target = index.get(name)
                    if target is not None:
                        stack.append(target)
        return not any(
            d.span.file == f and a <= d.span.line <= b
            for d in errors
            for f, a, b in spans
        )

    return closed


def run(only: list[str]) -> int:
    """Every crate of ``crates.txt`` (or those named in ``only``)."""
    out_dir = Path("build/wild/rust")
    out_dir.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    failures: list[str] = []
    for name, version in crates():
        if only and name not in only:
            continue
        root = REGISTRY / f"{name}-{version}"
        if not root.is_dir():
            results[name] = {"missing": str(root)}
            failures.append(f"{name}: {root} is not installed")
            continue
        with tempfile.TemporaryDirectory(prefix="31-wild-") as tmp:
            types = make_spec(name, root, Path(tmp))
            try:
                child = subprocess.run(
                    [sys.executable, "-m", "tests.wild.rust.campaign", "--one", tmp],
                    capture_output=True,
                    text=True,
                    timeout=LIMIT,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                results[name] = {"types": len(types), "hang": LIMIT}
                failures.append(f"{name}: no answer within {LIMIT} s")
                continue
        if child.returncode != 0:
            results[name] = {"types": len(types), "crash": child.stderr[-2000:]}
            failures.append(f"{name}: the reader crashed: {child.stderr[-300:]}")
            continue
        report = json.loads(child.stdout.strip().splitlines()[-1])
        results[name] = report
        if report["crash"]:
            failures.append(f"{name}: INT001 {report['crash'][0]}")
        for type_name, why in report["unmodelled"].items():
            if not why:
                failures.append(f"{name}: {type_name} is not modelled, unexplained")
        print(
            f"{name:24} {len(report['modelled']):4}/{report['types']:<4} modelled"
            f"  {' '.join(report['codes'])}",
            flush=True,
        )
    # serde's verdicts on a sample of the modelled types (serde_sample.py)
    # (drawn from the types whose every reachable declaration reads without error)
    modelled_by_crate = {
        name: r["generable"] for name, r in results.items() if r.get("generable")
    }
    versions = dict(crates())
    roots = {name: REGISTRY / f"{name}-{versions[name]}" for name in modelled_by_crate}
    chosen = serde_sample.sample(modelled_by_crate)
    print(f"serde oracle on {sum(map(len, chosen.values()))} sampled types", flush=True)
    rows = serde_sample.judge_sample(
        chosen,
        roots,
        {name: features_of(root / "Cargo.toml") for name, root in roots.items()},
        out_dir / "oracle",
    )
    serde = serde_sample.totals(rows)
    for text in serde["disagreements"]:
        print(text, flush=True)
    if serde["disagreements"]:
        failures.append(
            f"serde disagrees with the bindings on {len(serde['disagreements'])} case(s)"
        )
    if chosen and not serde.get("cases"):
        # Nothing judged (no serde program built, cargo or the registry missing): the
        # campaign would agree on nothing and pass; the reasons are in the report.
        failures.append("the serde oracle judged no case of its sample")
    asked = sum(r.get("types", 0) for r in results.values())
    modelled = sum(len(r.get("modelled", [])) for r in results.values())
    read = [r for r in results.values() if "modelled" in r]
    with_types = [r for r in read if r["types"]]
    summary = {
        "crates": len(results),
        "crates_read": len(read),
        "crates_with_serde_types": len(with_types),
        "types": asked,
        "modelled": modelled,
        "share_modelled": round(modelled / asked, 4) if asked else None,
        "generable": sum(len(r.get("generable", [])) for r in results.values()),
        "serde": {k: v for k, v in serde.items() if k != "disagreements"}
        | {"disagreements": len(serde["disagreements"])},
        "failures": failures,
    }
    (out_dir / "report.json").write_text(
        json.dumps(
            {
                "summary": summary,
                "crates": results,
                "serde": {"totals": serde, "crates": rows},
            },
            indent=1,
        ),
        encoding="utf-8",
    )
    print(json.dumps(summary, indent=1))
    print(
        f"{summary['crates']} crates, {asked} serde types, {modelled} modelled "
        f"({100 * (summary['share_modelled'] or 0):.1f} %); serde on a sample: "
        f"{serde['judged_types']} of {serde['sampled_types']} sampled types judged "
        f"({serde['crates_sampled']} crates), {serde['cases']} cases, {serde['agree']} "
        f"agree ({100 * (serde['agreement'] or 0):.2f} %), "
        f"{len(serde['disagreements'])} disagreements; "
        f"{len(serde['not_judged'])} crates or types not judged (why: report.json)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(read_one(sys.argv[2])))
        sys.exit(0)
    sys.exit(run(sys.argv[1:]))
