"""Two peers' test suites as conformance cases of the Rust (serde) frontend (issue 31).

Phase: verification (``make conformance-rust``; a fast slice in ``make test``).
Inputs: a case's Rust source (copied to a temporary spec folder), the root types to read
as ``[spec] types``, and the peer's expectation as an ``Expected``: a bundle to draw
instances from and a predicate saying whether the peer accepts a JSON value
(``schemars_cases`` and ``typeshare_cases`` build them from the suites' files).
Outputs: ``judge`` → a ``Verdict``: the source read through the public pipeline
(``load_protocol``, ``render_outputs``), our JSON Schema compared with the peer's by wire
meaning both ways: instances drawn from the peer's schema and from ours
(``codegen.oracles.draw``) get a verdict from each side; where the two differ, the serde
oracle (``codegen.oracles.rust``: real serde_json built by cargo from Debian's crates)
reads the instance and decides.  A case whose every difference serde decides our way
passes as a *peer divergence* (the reason says which instances); one serde decides the
peer's way fails.
Guarantees: the suites are only read; comparison is by JSON values, never by text; cargo
builds share one target folder under ``build/conformance-rust`` so serde is compiled once
per machine, not per case.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from codegen.backends.jsonschema import written_bundle
from codegen.oracles.case import Case, OracleUnavailable
from codegen.oracles.draw import draw
from codegen.oracles.rust import RustOracle
from codegen.oracles.subject import Subject
from codegen.pipeline import load_protocol, render_outputs
from codegen.spec.config import SpecConfig
from tests.conformance.verdict import Verdict

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
SUITES = REPO.parent / "shared" / "conformance"  # ../shared, beside the checkout
BUILD = REPO / "build" / "conformance-rust"
DRAWS = 24


@dataclass
class Expected:
    """The peer's expectation for one root type."""

    root: str  # our type name (the `[spec] types` entry)
    bundle: dict[str, Any]  # a schema bundle with the peer's root under `name`
    name: str
    accepts: Callable[[Any], bool]
    # "read": the peer's schema says what serde reads; "written": what serde writes
    # (schemars' `.ser` snapshots), judged on serde's own output
    contract: str = "read"


@dataclass
class Ours:
    bundle: dict[str, Any]
    spec: Path
    config: SpecConfig


_PRIVATE = re.compile(r"^(struct|enum|type|mod)\b", re.MULTILINE)


def public_items(text: str) -> str:
    """A file's top-level items made ``pub``: the serde oracle's table names them from
    outside their module; visibility has no wire meaning."""
    return _PRIVATE.sub(r"pub \1", text)


def read_ours(
    folder: Path,
    sources: list[str],
    roots: list[str],
    tmp: Path,
    rewrite: Callable[[str], str] | None = None,
) -> Ours | str:
    """The case's sources read as a spec of ``[spec] types = roots`` (the first source
    passed through ``rewrite`` first, the same copy the serde oracle compiles); the
    rendered schema bundle, or the first errors as a string."""
    spec = tmp / "spec"
    shutil.copytree(folder, spec, dirs_exist_ok=True)
    if rewrite is not None:
        first = spec / sources[0]
        first.write_text(rewrite(first.read_text(encoding="utf-8")), encoding="utf-8")
    (spec / "spec.toml").write_text(
        "[spec]\n"
        f'id = "conf"\nlanguage = "rust"\nsources = {json.dumps(sources)}\n'
        f"types = {json.dumps(roots)}\n"
        # a spec of types alone: a transport without JSON-RPC keeps the method heuristics
        # (MTH011) out of a type comparison
        '[transport]\nkind = "http-post-envelope"\nframings = ["http-post"]\n',
        encoding="utf-8",
    )
    try:
        outcome = load_protocol(spec, spec)
    except Exception as exc:  # noqa: BLE001 - a crash is a finding, reported as such
        return f"ours: crashed ({exc!r})"
    if not outcome.ok() or outcome.protocol is None or outcome.config is None:
        first = [d.headline() for d in outcome.diags.errors()][:2]
        return f"ours: errors {first}"
    outputs = render_outputs(outcome.protocol, outcome.config)
    text = next(t for p, t in outputs.items() if p.endswith(".schema.json"))
    return Ours(json.loads(text), spec, outcome.config)


def judge(
    case: str,
    ours: Ours,
    expected: list[Expected],
    draws: int = DRAWS,
    serde: bool = True,
) -> Verdict:
    """Compare ours with each expectation; differences go to serde when ``serde``."""
    roots = [e.root for e in expected]
    verdict = Verdict(case, True, "", roots)
    differing: list[tuple[Expected, Any, bool, bool]] = []
    written: list[tuple[Expected, Any]] = []
    for exp in expected:
        defs = ours.bundle.get("$defs", {})
        if exp.root not in defs:
            return Verdict(case, False, f"ours: no definition {exp.root}", roots)
        mine = Draft202012Validator({"$ref": f"#/$defs/{exp.root}", "$defs": defs})
        instances = draw(exp.bundle, exp.name, draws) + draw(
            ours.bundle, exp.root, draws
        )
        for value in instances:
            if exp.contract == "written":
                written.append((exp, value))
                continue
            theirs_ok = exp.accepts(value)
            ours_ok = _valid(mine, value)
            if theirs_ok != ours_ok:
                differing.append((exp, value, theirs_ok, ours_ok))
    if not differing and not written:
        return verdict
    if not serde:
        verdict.ok = False
        verdict.disagreements = [_show(e, v, t) for e, v, t, _ in differing]
        verdict.why = (
            f"{len(differing)} instance(s) judged differently (serde not asked)"
        )
        return verdict
    try:
        oracle = _oracle(case, ours)
        names = oracle.type_names()
    except OracleUnavailable as exc:
        return Verdict(
            case, False, f"serde oracle unavailable: {str(exc)[:300]}", roots
        )
    missing = sorted({e.root for e, *_ in differing} - names) + sorted(
        {e.root for e, _ in written} - names
    )
    if missing:
        why = oracle.skipped.get(missing[0], "not in the oracle's table")
        return Verdict(case, False, f"serde cannot judge {missing[0]}: {why}", roots)
    answers = oracle.judge(
        [Case("conf", e.root, json.dumps(v), "conf") for e, v, _, _ in differing]
    )
    peer_wrong: list[str] = []
    for (exp, value, theirs_ok, ours_ok), answer in zip(differing, answers):
        line = _show(exp, value, theirs_ok)
        if answer.accept == ours_ok:
            peer_wrong.append(line)
        else:
            verdict.disagreements.append(line + f" — serde {_says(answer.accept)}")
    if written:
        read = oracle.judge(
            [Case("conf", e.root, json.dumps(v), "conf") for e, v in written]
        )
        for (exp, _), answer in zip(written, read):
            if not answer.accept or answer.output is None:
                continue
            output = json.loads(answer.output)
            # what our schema says a writer writes (``x-written-form`` where it differs)
            defs = written_bundle(ours.bundle)["$defs"]
            mine = Draft202012Validator({"$ref": f"#/$defs/{exp.root}", "$defs": defs})
            shown = f"{exp.root}: serde writes {answer.output[:100]}"
            if not _valid(mine, output):
                verdict.disagreements.append(shown + " (ours rejects it)")
            elif not exp.accepts(output):
                peer_wrong.append(shown + " (the peer's serialize schema rejects it)")
    if verdict.disagreements:
        verdict.ok = False
        verdict.why = (
            f"{len(verdict.disagreements)} instance(s) where serde sides with the peer"
        )
    elif peer_wrong:
        verdict.divergence = f"serde sides with us on {len(peer_wrong)} instance(s), e.g. {peer_wrong[0]}"
    return verdict


def _oracle(case: str, ours: Ours) -> RustOracle:
    """The serde oracle on the case's own sources, built in a folder of its own whose
    ``target`` is shared (serde and serde_json compiled once)."""
    slug = "".join(c if c.isalnum() or c in "-_." else "_" for c in case)
    build = BUILD / "cases" / slug
    shared = BUILD / "target"
    (build / "rust").mkdir(parents=True, exist_ok=True)
    shared.mkdir(parents=True, exist_ok=True)
    link = build / "rust" / "target"
    if not link.exists():
        link.symlink_to(shared, target_is_directory=True)
    subject = Subject(
        "conf",
        ours.spec,
        ours.config,
        None,  # type: ignore[arg-type]  # the oracle reads only config and sources
        types.ModuleType("conf"),
        ours.bundle,
        None,
    )
    oracle = RustOracle(subject, build)
    # the binary is shared by every case: always rebuild this case's table
    stamp = build / "rust" / ".built"
    if stamp.exists():
        stamp.unlink()
    return oracle


def _says(accept: bool) -> str:
    return "accepts" if accept else "rejects"


def _show(exp: Expected, value: Any, theirs_ok: bool) -> str:
    side = "peer accepts, ours rejects" if theirs_ok else "ours accepts, peer rejects"
    return f"{exp.root}: {json.dumps(value)[:120]} ({side})"


def _valid(validator: Any, value: Any) -> bool:
    try:
        return bool(validator.is_valid(value))
    except Exception:  # noqa: BLE001 - a schema the library cannot judge
        return False


def temporary() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="31-conf-")
