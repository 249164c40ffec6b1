"""Two peers' test suites as conformance cases of the TypeScript frontend (issue 30).

Phase: verification (``make conformance-ts``; a fast slice in ``make test``).
Inputs: ``../shared/conformance/tjsg`` (ts-json-schema-generator) and ``tjs``
(typescript-json-schema): per case a ``main.ts`` (with the other ``.ts`` files beside it)
and the ``schema.json`` the peer expects; ``out_of_scope.toml`` beside this module.
Outputs: ``run_case`` → a ``Verdict``: the case read as a spec of ``[spec] types`` (the
peer's root type), our JSON Schema rendered, then compared by wire meaning both ways:
instances drawn from the expected schema and from ours (``codegen.oracles.draw``, a few
dozen each) must get the same verdict from both schemas.  Where they differ, tsc decides
(``decide.py``: the value as a literal of the root type in ``main.ts``): a case whose every
difference tsc decides our way passes, its ``divergence`` saying so.
Guarantees: the case folder is only read; the comparison is by JSON values, never text.
The peers' schemas close objects (``additionalProperties: false``), a peer option, so the
specs are read with ``extra_keys = "forbid"``; the tjs suite's root is inline and its test
list (not copied) names the type: the declaration of ``main.ts`` whose drawn instances agree
best is taken as the root (tsc is asked only about that one: asked of every candidate, it
would side with our reading of a type that is not the peer's root).
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator, Draft202012Validator

from codegen.backends.jsonschema import build_schema
from codegen.oracles.draw import draw
from codegen.pipeline import load_protocol
from tests.conformance.typescript.decide import tsc_accepts
from tests.conformance.verdict import Verdict

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
SUITES = REPO.parent / "shared" / "conformance"  # ../shared, beside the checkout
DRAWS = 24
_DECLARED = re.compile(
    r"^\s*(?:export\s+)?(?:declare\s+)?(?:const\s+)?(?:interface|type|enum|class)\s+"
    r"([A-Za-z_$][\w$]*)",
    re.MULTILINE,
)


def cases(suite: str) -> list[str]:
    folder = SUITES / suite
    return sorted(p.name for p in folder.iterdir() if (p / "main.ts").is_file())


def out_of_scope(suite: str) -> dict[str, str]:
    table = tomllib.loads((HERE / "out_of_scope.toml").read_text(encoding="utf-8"))
    return dict(table.get(suite, {}))


def divergences(suite: str) -> dict[str, str]:
    """Cases whose expected schema contradicts the checker's own types (each with the
    TypeScript rule that decides); they are reported apart, not counted as passing."""
    table = tomllib.loads((HERE / "divergences.toml").read_text(encoding="utf-8"))
    return dict(table.get(suite, {}))


def not_built(suite: str) -> dict[str, str]:
    """Cases that fail on a construct not built yet, each saying what is missing."""
    table = tomllib.loads((HERE / "not_built.toml").read_text(encoding="utf-8"))
    return dict(table.get(suite, {}))


def run_case(suite: str, case: str, draws: int = DRAWS) -> Verdict:
    folder = SUITES / suite / case
    if not (folder / "schema.json").is_file():
        return _per_type_schemas(suite, case, draws)
    expected = json.loads((folder / "schema.json").read_text(encoding="utf-8"))
    if isinstance(expected, str):
        return _expected_failure(suite, case, expected, folder)
    expected = _local_refs(expected)
    sources = sorted(p.name for p in folder.glob("*.ts"))
    sources.remove("main.ts")
    sources.insert(0, "main.ts")
    with tempfile.TemporaryDirectory(prefix="30-conf-") as tmp:
        spec = Path(tmp) / "spec"
        shutil.copytree(folder, spec)
        if suite == "tjsg" or set(expected) <= {"$schema", "definitions"}:
            # a tjs schema of definitions only (no root): each definition is a root
            roots = _tjsg_roots(expected)
            if not roots:
                return Verdict(case, False, "the expected schema names no root type")
            return _compare(spec, sources, roots, expected, case, draws=draws)
        text = (folder / "main.ts").read_text(encoding="utf-8", errors="replace")
        names = list(dict.fromkeys(_DECLARED.findall(text)))
        if not names:
            return Verdict(case, False, "main.ts declares no type")
        tried: list[tuple[Verdict, list[tuple[str, Any, bool]] | None]] = []
        for name in names:
            verdict, differing = _differences(
                spec, sources, [name], expected, case, inline=True, draws=draws
            )
            if differing == []:
                return verdict
            tried.append((verdict, differing))
        # the closest (one that was read, with the fewest disagreements) is taken as the
        # root, and only then does tsc decide its differences (the values compared once,
        # for choosing it): asked of every candidate, tsc would side with our reading of
        # a type that is not the peer's root
        closest, found = min(
            tried, key=lambda t: (t[1] is None, len(t[1]) if t[1] is not None else 0)
        )
        if found is None:
            return closest
        _decide(spec, found, closest)
        return closest


def _expected_failure(suite: str, case: str, why: str, folder: Path) -> Verdict:
    """The peer expects no schema (its ``schema.json`` is the reason, a string): the case
    agrees when reading its root is an error for us too."""
    text = (folder / "main.ts").read_text(encoding="utf-8", errors="replace")
    names = list(dict.fromkeys(_DECLARED.findall(text)))
    with tempfile.TemporaryDirectory(prefix="30-conf-") as tmp:
        spec = Path(tmp) / "spec"
        shutil.copytree(folder, spec)
        sources = sorted(p.name for p in folder.glob("*.ts"))
        (spec / "spec.toml").write_text(
            "[spec]\n"
            f'id = "conf"\nlanguage = "typescript"\nsources = {json.dumps(sources)}\n'
            f'types = {json.dumps(names)}\nextra_keys = "forbid"\n',
            encoding="utf-8",
        )
        try:
            outcome = load_protocol(spec, spec)
        except Exception as exc:  # noqa: BLE001 - a crash is a finding
            return Verdict(case, False, f"ours: crashed ({exc!r})", names)
    if outcome.ok():
        return Verdict(
            case, False, f"the peer expects no schema ({why}); ours reads it"
        )
    # Refused for the peer's reason: an error at a root's declaration (or naming a root
    # as the declaration that needs it), not any error of the case (a syntax error
    # elsewhere would refuse a root we read well).
    lines = {
        text[: m.start(1)].count("\n") + 1
        for m in _DECLARED.finditer(text)
        if m.group(1) in names
    }
    at_root = [
        d.headline()
        for d in outcome.diags.errors()
        if (d.span.file.endswith("main.ts") and d.span.line in lines)
        or any(f"; {name} is needed" in d.message for name in names)
    ]
    if not at_root:
        first = [d.headline() for d in outcome.diags.errors()][:1]
        return Verdict(
            case,
            False,
            f"the peer expects no schema ({why}); ours refuses the case elsewhere: "
            f"{first}",
            names,
        )
    return Verdict(case, True, "", names, divergence=f"both refuse it: {at_root[:1]}")


def _per_type_schemas(suite: str, case: str, draws: int) -> Verdict:
    """A tjs case with one expected schema per type (``schema.MyObject.json``): each is
    the schema of the type its name says (``schema.program.json``, every type of the
    program, is the peer's option)."""
    folder = SUITES / suite / case
    text = (folder / "main.ts").read_text(encoding="utf-8", errors="replace")
    declared = set(_DECLARED.findall(text))
    named = {
        p.name[len("schema.") : -len(".json")]: p
        for p in sorted(folder.glob("schema.*.json"))
    }
    roots = {n: p for n, p in named.items() if n in declared}
    if not roots:
        return Verdict(case, False, "no expected schema names a type of main.ts")
    sources = sorted(p.name for p in folder.glob("*.ts"))
    sources.remove("main.ts")
    sources.insert(0, "main.ts")
    verdict = Verdict(case, True, "", list(roots))
    with tempfile.TemporaryDirectory(prefix="30-conf-") as tmp:
        spec = Path(tmp) / "spec"
        shutil.copytree(folder, spec)
        for name, path in roots.items():
            expected = _local_refs(json.loads(path.read_text(encoding="utf-8")))
            one = _compare(
                spec, sources, [name], expected, case, inline=True, draws=draws
            )
            if not one.ok:
                return one
            verdict.divergence = verdict.divergence or one.divergence
    return verdict


def _local_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """``"$ref": "someId#/definitions/X"`` under ``"$id": "someId"`` (the peer's option of
    naming the schema) as the local reference it is."""
    ident = schema.get("$id")
    if not isinstance(ident, str) or not ident:
        return schema
    text = json.dumps(schema).replace(json.dumps(ident + "#")[:-1], '"#')
    out: dict[str, Any] = json.loads(text)
    out.pop("$id", None)
    return out


def _tjsg_roots(expected: dict[str, Any]) -> list[str]:
    ref = expected.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/definitions/"):
        return [ref.rsplit("/", 1)[1]]
    return [
        n for n in expected.get("definitions", {}) if _plain_name(n.replace(".", "_"))
    ]


def _plain_name(name: str) -> bool:
    return re.fullmatch(r"[A-Za-z_$][\w$]*", name) is not None


def _compare(
    spec: Path,
    sources: list[str],
    roots: list[str],
    expected: dict[str, Any],
    case: str,
    inline: bool = False,
    draws: int = DRAWS,
) -> Verdict:
    """The case's roots compared both ways; tsc decides the values judged differently."""
    verdict, differing = _differences(
        spec, sources, roots, expected, case, inline, draws
    )
    if differing:
        _decide(spec, differing, verdict)
    return verdict


def _differences(
    spec: Path,
    sources: list[str],
    roots: list[str],
    expected: dict[str, Any],
    case: str,
    inline: bool = False,
    draws: int = DRAWS,
) -> tuple[Verdict, list[tuple[str, Any, bool]] | None]:
    """The values the two schemas judge differently (root, value, our verdict); None
    with a failing verdict when the case cannot be compared (ours refuses it, ...)."""
    named = {r: r.rsplit(".", 1)[-1] for r in roots if _plain_name(r.replace(".", "_"))}
    if not named:
        return Verdict(case, False, "the root types have generic names"), None
    # ``NS.Type`` is the peer's name of a namespace member; ours is ``Type`` while no
    # other scope declares it (codegen/frontends/typescript/scopes.py)
    roots = list(dict.fromkeys(named.values()))
    (spec / "spec.toml").write_text(
        "[spec]\n"
        f'id = "conf"\nlanguage = "typescript"\nsources = {json.dumps(sources)}\n'
        f'types = {json.dumps(roots)}\nextra_keys = "forbid"\n',
        encoding="utf-8",
    )
    try:
        outcome = load_protocol(spec, spec)
    except Exception as exc:  # noqa: BLE001 - a crash is a finding, reported as such
        return Verdict(case, False, f"ours: crashed ({exc!r})", roots), None
    if not outcome.ok() or outcome.protocol is None or outcome.config is None:
        first = [d.headline() for d in outcome.diags.errors()][:2]
        return Verdict(case, False, f"ours: errors {first}", roots), None
    # the schema backend alone (what is compared): the Python, server and docs backends
    # are not rendered, which makes the campaign several times faster
    ours = json.loads(json.dumps(build_schema(outcome.protocol)))
    verdict = Verdict(case, True, "", roots)
    differing: list[tuple[str, Any, bool]] = []  # root, value, our verdict
    for theirs_name, root in named.items():
        if root not in ours.get("$defs", {}):
            return Verdict(case, False, f"ours: no definition {root}", roots), None
        mine = Draft202012Validator({"$ref": f"#/$defs/{root}", "$defs": ours["$defs"]})
        if inline:
            theirs_schema = dict(expected)
            bundle = {
                "definitions": {
                    **expected.get("definitions", {}),
                    "__root": {
                        k: v
                        for k, v in expected.items()
                        if k not in ("definitions", "$schema")
                    },
                }
            }
            their_root = "__root"
        else:
            theirs_schema = {"$ref": f"#/definitions/{theirs_name}", **expected}
            bundle = expected
            their_root = theirs_name
        theirs = Draft7Validator(theirs_schema)
        instances = draw(bundle, their_root, draws) + draw(ours, root, draws)
        for value in instances:
            a = _valid(theirs, value)
            b = _valid(mine, value)
            if a != b:
                differing.append((root, value, b))
    return verdict, differing


def _decide(
    spec: Path, differing: list[tuple[str, Any, bool]], verdict: Verdict
) -> None:
    """tsc judges each value the two schemas judged differently (as a literal of the
    root type in main.ts): a case whose every difference tsc decides our way passes
    with the divergence recorded; any other difference fails it."""
    files = {
        p.relative_to(spec).as_posix(): p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(spec.rglob("*.ts"))
    }
    answers: list[bool | None] = []
    for root in dict.fromkeys(r for r, _, _ in differing):
        values = [v for r, v, _ in differing if r == root]
        answers.extend(tsc_accepts(files, root, values))
    ours_way = 0
    for (root, value, mine), tsc in zip(differing, answers, strict=True):
        side = (
            "ours accepts, expected rejects"
            if mine
            else "expected accepts, ours rejects"
        )
        judged = (
            "tsc could not judge"
            if tsc is None
            else f"tsc {'accepts' if tsc else 'rejects'}: "
            + ("ours is right" if tsc == mine else "expected is right")
        )
        line = f"{root}: {json.dumps(value)[:120]} ({side}; {judged})"
        if tsc == mine:
            ours_way += 1
        else:
            verdict.disagreements.append(line)
    if not verdict.disagreements:
        first = differing[0]
        verdict.divergence = (
            f"tsc decides all {ours_way} difference(s) our way, e.g. "
            f"{first[0]}: {json.dumps(first[1])[:80]} "
            f"({'accepted' if first[2] else 'rejected'} by tsc and ours)"
        )
        return
    verdict.ok = False
    verdict.why = (
        f"{len(differing)} instance(s) judged differently, "
        f"{len(verdict.disagreements)} not decided our way by tsc"
    )


def _valid(validator: Any, value: Any) -> bool:
    try:
        return bool(validator.is_valid(value))
    except Exception:  # noqa: BLE001 - a schema the library cannot judge
        return False
