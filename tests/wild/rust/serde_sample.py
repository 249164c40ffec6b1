"""``make wild-rust``'s serde oracle: a sample of the modelled types judged against serde.

Phase: the last step of the real-crates campaign (``campaign.py``), after every crate is
read; not part of ``make test``.
Inputs: per crate, its registry folder, the features the campaign read it with and the
modelled types it can generate alone (``generable``); a scratch folder (``build/wild/rust/oracle``: kept between runs, so an
unchanged crate's serde program is not built again).
What it does: ``sample`` picks a deterministic sample (seeded per crate, at most
``PER_CRATE`` types a crate, ``MAX_TYPES`` in all, spread across crates).  Each sampled
crate becomes a spec of its own sources whose ``[spec] types`` are its sampled types;
``codegen generate`` renders its bindings and JSON Schema, and ``codegen.oracles.run``
judges it exactly as ``make oracle`` judges a spec: instances drawn from our schema and
their mutants, read by serde_json (``from_str`` then ``to_string``, on the crate's own
declarations, built offline against ``/usr/share/cargo/registry``; one program per crate
whose table holds only its sampled types) and by the generated bindings; accept/reject and
the written-back output compared (``codegen.oracles.verdict``), deliberate divergences from
``tests/oracle/divergences.toml`` only.
Outputs: ``judge_sample``: per crate, the sampled types, those judged, those serde's side
could not build (with the compiler's reason) or our side could not generate (with the
first errors), the cases, the agreements and every disagreement described (type, JSON,
both sides' answers); ``totals`` sums them.  A sample that does not generate as a whole
is tried type by type: the ones that generate are judged, the others explained.
Guarantees: the sample depends only on the campaign's results and ``SEED``; a crate whose
sample does not build or generate is a counted figure with its reason, never a pass and
never a crash of the campaign.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
SEED = 31
PER_CRATE = 4  # sampled types per crate at most
MAX_TYPES = 100  # sampled types in all at most
PER_TYPE = 24  # cases per type (drawn instances, then mutants)
DRAWS = 4  # instances drawn from our schema per type
GENERATE_LIMIT = 600  # seconds ``codegen generate`` may take for one crate


def sample(
    modelled: dict[str, list[str]],
    seed: int = SEED,
    per_crate: int = PER_CRATE,
    cap: int = MAX_TYPES,
) -> dict[str, list[str]]:
    """Crate → its sampled types: ``per_crate`` at most from each crate (a generator
    seeded by the seed and the crate's name, so one crate's sample does not move when
    another's types change), then the first type of every crate, the second of every
    crate, ... until ``cap``."""
    picks: dict[str, list[str]] = {}
    for crate in sorted(modelled):
        names = sorted(set(modelled[crate]))
        chooser = random.Random(f"{seed}:{crate}")
        picks[crate] = chooser.sample(names, min(per_crate, len(names)))
    out: dict[str, list[str]] = {}
    taken = 0
    for rank in range(per_crate):
        for crate in sorted(picks):
            if rank < len(picks[crate]) and taken < cap:
                out.setdefault(crate, []).append(picks[crate][rank])
                taken += 1
    return {crate: sorted(types) for crate, types in out.items()}


def spec_id(crate: str) -> str:
    return "wild-" + re.sub(r"[^a-z0-9]+", "-", crate.lower()).strip("-")


def write_spec(
    crate: str, root: Path, features: list[str], types: list[str], scratch: Path
) -> str:
    """The crate's ``Cargo.toml`` and ``src/**/*.rs`` as ``scratch/specs/<id>/``, a spec
    of the sampled types alone (a message-less transport: a spec of types)."""
    ident = spec_id(crate)
    folder = scratch / "specs" / ident
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    sources = ["Cargo.toml"]
    shutil.copyfile(root / "Cargo.toml", folder / "Cargo.toml")
    for path in sorted((root / "src").rglob("*.rs")):
        rel = path.relative_to(root).as_posix()
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, folder / rel)
        sources.append(rel)
    package = ident.replace("-", "_") + "_protocol"
    (folder / "spec.toml").write_text(
        "[spec]\n"
        f'id = "{ident}"\n'
        'language = "rust"\n'
        f"sources = {json.dumps(sources)}\n"
        f"types = {json.dumps(types)}\n\n"
        "[transport]\n"
        'kind = "http-post-envelope"\n'
        'framings = ["http-post"]\n\n'
        "[rust]\n"
        f"features = {json.dumps(features)}\n\n"
        "[python]\n"
        f'package = "{package}"\n',
        encoding="utf-8",
    )
    return ident


def generate(ident: str, scratch: Path) -> str | None:
    """Our bindings and schema for the spec (``scratch/generated/<id>/``); None when
    done, else the first errors."""
    codegen = Path(sys.executable).parent / "codegen"
    try:
        done = subprocess.run(
            [
                str(codegen),
                "generate",
                "--no-cache",
                "-q",
                str(scratch / "specs" / ident),
                "-o",
                str(scratch / "generated"),
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
            timeout=GENERATE_LIMIT,
        )
    except subprocess.TimeoutExpired:
        return f"codegen generate took over {GENERATE_LIMIT} s"
    if done.returncode == 0:
        return None
    # the headlines of the first errors (``file:line:col: error[CODE]: message``)
    text = done.stdout + done.stderr
    folder = (scratch / "specs" / ident).resolve()
    prefixes = [folder, scratch / "specs" / ident]
    if folder.is_relative_to(REPO):
        prefixes.append(folder.relative_to(REPO))
    for prefix in prefixes:  # paths in the crate, as in its registry folder
        text = text.replace(f"{prefix}/", "")
    errors = [line for line in text.splitlines() if ": error[" in line]
    return " | ".join(dict.fromkeys(errors[:3])) or text[-400:]


def share_cargo_target(ident: str, scratch: Path) -> None:
    """The crate's serde program builds in a ``target`` shared by every crate, so serde,
    serde_json and their kin compile once (each program keeps its own copy of the
    binary: ``RustOracle``)."""
    shared = scratch / "cargo-target"
    shared.mkdir(parents=True, exist_ok=True)
    rust = scratch / "build" / "oracle" / ident / "rust"
    rust.mkdir(parents=True, exist_ok=True)
    link = rust / "target"
    if not link.exists():
        link.symlink_to(shared.resolve(), target_is_directory=True)


def judge_crate(ident: str, types: list[str], scratch: Path) -> dict[str, Any]:
    """One crate's sample through ``codegen.oracles.run.run_spec``, as ``make oracle``."""
    from codegen.oracles.divergences import load_divergences, load_open_findings
    from codegen.oracles.report import describe
    from codegen.oracles.run import Options, run_spec

    share_cargo_target(ident, scratch)
    report = run_spec(
        ident,
        scratch,
        load_divergences(REPO),
        Options(per_type=PER_TYPE, draws=DRAWS, types=tuple(types)),
        load_open_findings(REPO),
    )
    counts = report.counts()
    not_built = {
        name: report.skipped.get(name, "not in serde's table")
        for name in types
        if name not in report.targets
    }
    return {
        "spec": ident,
        "sampled": types,
        "judged": report.targets,
        "not_built": not_built,
        "error": report.error,
        "cases": counts["cases"],
        "agree": counts["cases"] - counts["failures"],
        "excused": counts["excused"],
        "failures": counts["failures"],
        "disagreements": [describe(o) for o in report.failures],
        "seconds": round(report.seconds, 1),
    }


def judge_sample(
    chosen: dict[str, list[str]],
    roots: dict[str, Path],
    features: dict[str, list[str]],
    scratch: Path,
) -> dict[str, dict[str, Any]]:
    """Crate → its row (``judge_crate``'s, or why its sample was not judged)."""
    rows: dict[str, dict[str, Any]] = {}
    for crate, types in sorted(chosen.items()):
        ident = write_spec(crate, roots[crate], features[crate], types, scratch)
        problem = generate(ident, scratch)
        alone: dict[str, str] = {}
        if problem is not None and len(types) > 1:
            # each type alone: the ones that generate are judged, the others explained
            for name in types:
                write_spec(crate, roots[crate], features[crate], [name], scratch)
                why = generate(ident, scratch)
                if why is not None:
                    alone[name] = f"our side did not generate it: {why}"
            kept = [name for name in types if name not in alone]
            if kept:
                write_spec(crate, roots[crate], features[crate], kept, scratch)
                problem = generate(ident, scratch)
        if problem is not None:
            rows[crate] = {
                "spec": ident,
                "sampled": types,
                "judged": [],
                "error": f"our side did not generate: {problem}",
            }
        else:
            kept = [name for name in types if name not in alone]
            rows[crate] = judge_crate(ident, kept, scratch)
            rows[crate]["sampled"] = types
            rows[crate]["not_built"].update(alone)
        row = rows[crate]
        print(
            f"  serde {crate:24} {len(row['judged']):2}/{len(types)} types"
            f" {row.get('cases', 0):4} cases {row.get('failures', 0):3} disagree"
            + (f"  ({row['error'][:160]})" if row.get("error") else ""),
            flush=True,
        )
    return rows


def totals(rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The campaign's serde figures from the crates' rows."""
    cases = sum(r.get("cases", 0) for r in rows.values())
    agree = sum(r.get("agree", 0) for r in rows.values())
    not_judged: dict[str, str] = {}
    for crate, row in sorted(rows.items()):
        if row.get("error"):
            not_judged[crate] = row["error"][:600]
        for name, why in row.get("not_built", {}).items():
            not_judged[f"{crate}::{name}"] = why[:600]
    return {
        "crates_sampled": len(rows),
        "sampled_types": sum(len(r["sampled"]) for r in rows.values()),
        "judged_types": sum(len(r["judged"]) for r in rows.values()),
        "cases": cases,
        "agree": agree,
        "agreement": round(agree / cases, 4) if cases else None,
        "disagreements": [
            d for _, row in sorted(rows.items()) for d in row.get("disagreements", [])
        ],
        "not_judged": not_judged,
    }
