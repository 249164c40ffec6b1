"""``make wild-ts``'s oracle sample: the TypeScript checker and our bindings judge the same
JSON values for a seeded sample of each package's modelled types.

Phase: verification campaign (``make wild-ts``, after each package is read by ``run.py``).
Inputs: a package folder and the relative paths of its ``.d.ts`` files (as ``run.py`` reads
them), the IR names of its modelled types, a seed.
Outputs: ``choose``: the sample of one package (up to ``SAMPLE`` names, a shuffle of the
sorted modelled names seeded with ``SEED`` and the package's name).  ``judge_package``: a
dict with the types judged, the cases, how many agree, how many differ in a way
``tests/oracle/divergences.toml`` lists (by rule id, with the first instance), every other
disagreement (type, instance, the checker's answer, the bindings' and the schema's), and
the sampled types tsc cannot name from the package (with its error) or we did not render.
How: the package's files are copied into a scratch spec (``[spec] types`` = the sample) and
read by the pipeline; its bindings and JSON Schema are rendered and imported
(``codegen.oracles.subject.Subject``); the cases are ``make oracle``'s
(``codegen.oracles.cases``: instances drawn from our schema, then their mutants); the judge
is ``codegen.oracles.typescript`` (``ts_check.cjs``) over the package's own files plus
``__root.ts``, one alias per sampled type naming it from where the package declares it (a
module's export, a namespace member, a member of an ``export =`` namespace, an ambient
``declare module "x"``, a global of a script); verdicts by ``codegen.oracles.verdict``.
Guarantees: one node process, one tsc program per package; an alias tsc reports an error
on is ``any`` to the checker (it would accept everything), so its type is not judged but
listed with that error; deterministic (seeded choice, derandomized draws).
"""

from __future__ import annotations

import importlib
import json
import posixpath
import random
import re
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.typescript.reader import parse_tree
from codegen.frontends.typescript.scopes import Scope
from codegen.frontends.typescript.symbols import Symbol, collect
from codegen.ir.index import walk_expr
from codegen.oracles.case import Answer, Case
from codegen.oracles.cases import build_cases
from codegen.oracles.divergences import load_divergences
from codegen.oracles.ours import Ours
from codegen.oracles.subject import Subject
from codegen.oracles.typescript import TypeScriptOracle
from codegen.oracles.verdict import classify
from codegen.passes.check_references import check_references
from codegen.passes.walk import type_exprs_of_decl
from codegen.pipeline import load_protocol, render_outputs
from codegen.spec.source import SourceText

REPO = Path(__file__).resolve().parents[3]
SAMPLE = 2  # types per package (43 packages: about 80 types, a few minutes in all)
SEED = 30
PER_TYPE = 24  # cases per type: the drawn instances, then mutants of them
DRAWS = 4
ROOT_FILE = "__root.ts"
TIMEOUT = 300  # seconds per package
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def choose(names: list[str], package: str, count: int = SAMPLE) -> list[str]:
    """Up to ``count`` of ``names``, the same ones on every run (seeded per package)."""
    pool = sorted(names)
    random.Random(f"{SEED}:{package}").shuffle(pool)
    return sorted(pool[:count])


def _module_block(scope: Scope) -> bool:
    """``declare module "x" { }``: an ambient module (or an augmentation), which the
    symbol table reads as a namespace named ``x``."""
    for node in scope.doc_nodes:
        name = node.child_by_field_name("name")
        if name is not None and name.type == "string":
            return True
    return False


def _specifier(file: str) -> str:
    """The import specifier of a package file, as bundler resolution maps ``.js`` to
    ``.d.ts`` (``.mjs`` to ``.d.mts``, ``.cjs`` to ``.d.cts``)."""
    for suffix, js in ((".d.mts", ".mjs"), (".d.cts", ".cjs"), (".d.ts", ".js")):
        if file.endswith(suffix):
            return "./" + file[: -len(suffix)] + js
    return "./" + file


def reference(symbol: Symbol) -> tuple[str | None, list[str]]:
    """Where the checker finds ``symbol`` from outside the package: the module to import
    (None: a global of a script) and the dotted path from it."""
    chain: list[Scope] = []
    scope = symbol.scope
    assert scope is not None
    while scope.parent is not None:
        chain.append(scope)
        scope = scope.parent
    chain.reverse()
    names = [s.path[-1] for s in chain] + [symbol.local]
    if chain and _module_block(chain[0]):
        module = names[0]
        if module.startswith("."):  # an augmentation of a file of the package
            joined = posixpath.join(posixpath.dirname(scope.file), module)
            module = "./" + posixpath.normpath(joined)
        return module, names[1:]
    if scope.kind == "module":
        if scope.assigned is not None and names[:1] == [scope.assigned]:
            names = names[1:]  # ``export = NS``: the module is the namespace
        return _specifier(scope.file), names
    return None, names


def root_file(symbols: list[Symbol]) -> tuple[str, dict[str, str]]:
    """``__root.ts``: two lines per type (its import, its alias ``__T<k>``), so an error
    on line ``2k+1`` or ``2k+2`` is type ``k``'s; and the IR name → alias map."""
    lines: list[str] = []
    aliases: dict[str, str] = {}
    for k, symbol in enumerate(symbols):
        module, dotted = reference(symbol)
        alias = f"__T{k}"
        if not dotted or not all(_IDENTIFIER.fullmatch(n) for n in dotted):
            lines += [
                f"// {symbol.name}: no dotted name",
                f"export type {alias} = never;",
            ]
        elif module is None:
            lines += ["// a global", f"export type {alias} = {'.'.join(dotted)};"]
        else:
            lines += [
                f"import type * as __M{k} from {json.dumps(module)};",
                f"export type {alias} = __M{k}.{'.'.join(dotted)};",
            ]
        aliases[symbol.name] = alias
    return "\n".join(lines) + "\n", aliases


class PackageOracle(TypeScriptOracle):
    """``make oracle``'s TypeScript oracle over a package's files and ``__root.ts``; the
    cases name our types, the checker their aliases."""

    def __init__(
        self,
        subject: Subject,
        build_dir: Path,
        files: dict[str, str],
        aliases: dict[str, str],
    ) -> None:
        super().__init__(subject, build_dir)
        self.files = files  # ``__root.ts`` first: its names win
        self.aliases = aliases
        self.unnamed: dict[str, str] = {}  # IR name → tsc's error on its alias

    def _listing(self) -> dict[str, Any]:
        return {}  # the judging run lists the types itself: no second program

    def _run(self, payload: dict[str, Any]) -> dict[str, Any]:
        answer = super()._run({**payload, "checked": [ROOT_FILE]})
        by_alias = {alias: name for name, alias in self.aliases.items()}
        for error in answer.get("checked", []):
            alias = f"__T{(int(error['line']) - 1) // 2}"
            if alias in by_alias:
                self.unnamed.setdefault(by_alias[alias], error["message"][:300])
        return answer

    def judge(self, cases: Sequence[Case]) -> list[Answer]:
        return super().judge(
            [replace(c, type_name=self.aliases[c.type_name]) for c in cases]
        )


def references(decl: ir.Decl) -> list[str]:
    """The declarations ``decl`` names: its bases and the types of its parts."""
    out = [base.name for base in decl.bases] if isinstance(decl, ir.StructDecl) else []
    for expr, _ in type_exprs_of_decl(decl):
        out.extend(
            node.name if isinstance(node, ir.Ref) else node.enum
            for node in walk_expr(expr)
            if isinstance(node, (ir.Ref, ir.EnumMemberRef))
        )
    return out


def sample_protocol(protocol: ir.Protocol, names: list[str]) -> ir.Protocol:
    """``protocol`` with only the declarations ``names`` reach (no methods)."""
    decls = {d.name: d for d in protocol.decls}
    reached: set[str] = set()
    todo = [n for n in names if n in decls]
    while todo:
        name = todo.pop()
        if name in reached or name not in decls:
            continue
        reached.add(name)
        todo.extend(references(decls[name]))
    return replace(
        protocol,
        decls=tuple(d for d in protocol.decls if d.name in reached),
        methods=(),
        examples=(),
    )


def _spec_id(package: str) -> str:
    return "w-" + re.sub(r"[^a-z0-9]+", "-", package.lower()).strip("-")


def tsc_sources(spec: Path, rels: list[str]) -> dict[str, str]:
    """The package's files as the checker reads them (the files the frontend read)."""
    return {rel: (spec / rel).read_text(encoding="utf-8") for rel in rels}


def judge_package(
    package: str,
    root: Path,
    rels: list[str],
    names: list[str],
    scratch: Path,
    per_type: int = PER_TYPE,
) -> dict[str, Any]:
    """Judge the sampled ``names`` of one package; see the module docstring."""
    spec_id = _spec_id(package)
    spec = scratch / "spec"
    for rel in rels:
        (spec / rel).parent.mkdir(parents=True, exist_ok=True)
        text = (root / rel).read_text(encoding="utf-8", errors="replace")
        (spec / rel).write_text(text, encoding="utf-8")
    (spec / "spec.toml").write_text(
        "[spec]\n"
        f'id = "{spec_id}"\nlanguage = "typescript"\n'
        f"sources = {json.dumps(rels)}\ntypes = {json.dumps(names)}\n",
        encoding="utf-8",
    )
    out: dict[str, Any] = {
        "sample": names,
        "judged": [],
        "not_judged": {},
        "cases": 0,
        "agree": 0,
        "excused": {},
        "disagreements": [],
    }
    outcome = load_protocol(spec, spec)
    if outcome.protocol is None or outcome.config is None:
        out["error"] = "; ".join(d.headline() for d in outcome.diags.errors()[:3])
        return out
    # The sample and what it uses, as a spec of its own: an error elsewhere in the
    # package (a syntax error in another file, a declaration nothing here uses) is not
    # the sample's, as ``run.py`` reads it; an error inside is a finding.
    protocol, config = sample_protocol(outcome.protocol, names), outcome.config
    refused = Diagnostics()
    check_references(protocol, refused)
    inside = {d.name for d in protocol.decls}
    needed = [
        d.headline()
        for d in outcome.diags.errors()
        if any(f"; {name} is needed" in d.message for name in inside)
    ]
    if needed or refused.has_errors():
        out["error"] = "; ".join(
            [*needed, *(d.headline() for d in refused.errors())][:3]
        )
        return out
    generated = scratch / "generated"
    for rel, text in render_outputs(protocol, config, formatter="none").items():
        (generated / rel).parent.mkdir(parents=True, exist_ok=True)
        (generated / rel).write_text(text, encoding="utf-8")
    python_dir = str(generated / "python")
    sys.path.insert(0, python_dir)
    try:
        module = importlib.import_module(config.python_package)
        importlib.import_module(f"{config.python_package}.models")
        bundle = json.loads(
            (generated / "schema" / f"{spec_id}.schema.json").read_text(
                encoding="utf-8"
            )
        )
        subject = Subject(spec_id, REPO, config, protocol, module, bundle, None)
        _judge(subject, spec, rels, names, out, per_type)
    finally:
        sys.path.remove(python_dir)
        for loaded in [
            m for m in sys.modules if m.split(".")[0] == config.python_package
        ]:
            del sys.modules[loaded]
    return out


def _judge(
    subject: Subject,
    spec: Path,
    rels: list[str],
    names: list[str],
    out: dict[str, Any],
    per_type: int,
) -> None:
    sources = [
        SourceText(rel, (spec / rel).read_text(encoding="utf-8")) for rel in rels
    ]
    table = collect([(s, parse_tree(s)) for s in sources])
    symbols = [s for name in names if (s := table.type(name)) is not None]
    root, aliases = root_file(symbols)
    files = {ROOT_FILE: root, **tsc_sources(spec, rels)}
    oracle = PackageOracle(subject, spec.parent / "oracle", files, aliases)
    ours = Ours(subject)
    targets = []
    for name in names:
        if name not in aliases:
            out["not_judged"][name] = "not declared under this name in the package"
        elif not ours.has_type(name):
            out["not_judged"][name] = "no binding or schema definition of this name"
        else:
            targets.append(name)
    cases = build_cases(
        subject, targets, per_type=per_type, draws=DRAWS, official_draws=0
    )
    answers = oracle.judge(cases)
    divergences = load_divergences(REPO)
    for name, error in oracle.unnamed.items():
        out["not_judged"][name] = f"tsc cannot name it from the package: {error}"
    out["judged"] = [n for n in targets if n not in oracle.unnamed]
    for case, answer in zip(cases, answers, strict=True):
        if case.type_name in oracle.unnamed:
            continue
        verdict = classify(
            case,
            answer,
            ours.judge(case),
            language="typescript",
            compares=oracle.compares,
            divergences=divergences,
            rejudge=ours.judge,
        )
        out["cases"] += 1
        if verdict.status == "agree":
            out["agree"] += 1
        elif verdict.status == "excused":
            for rule in verdict.excused_by:
                first = out["excused"].setdefault(
                    rule, {"count": 0, "first": _shown(verdict)}
                )
                first["count"] += 1
        else:
            out["disagreements"].append(_shown(verdict))


def _shown(verdict: Any) -> dict[str, Any]:
    return {
        "type": verdict.case.type_name,
        "json": verdict.case.text[:400],
        "mutation": verdict.case.mutation,
        "tsc": ("accepts" if verdict.oracle.accept else "rejects")
        + (f" ({verdict.oracle.detail[:200]})" if verdict.oracle.detail else ""),
        "bindings": ("accept" if verdict.ours.bindings.accept else "reject")
        + (
            f" ({verdict.ours.bindings.detail[:200]})"
            if verdict.ours.bindings.detail
            else ""
        ),
        "schema": "accepts" if verdict.ours.schema_accepts else "rejects",
        "problems": verdict.problems or verdict.excused_by,
    }


# ---------------------------------------------------------------------- the campaign


RULE_KEYS = ("id", "reason", "package", "type", "tsc", "json")


def listed(path: Path | None = None) -> list[dict[str, str]]:
    """``disagreements.toml``: ``[[rule]]`` tables (``id``, ``reason``, and conditions:
    ``package`` and ``type`` exactly, ``tsc`` and ``json`` regular expressions searched
    in the checker's answer and the instance) for the disagreements that are known and
    explained.  A rule with no condition, or an unknown key, is an error: a typo must not
    explain everything."""
    path = path or Path(__file__).with_name("disagreements.toml")
    table = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    rules: list[dict[str, str]] = []
    for rule in table.get("rule", []):
        unknown = set(rule) - set(RULE_KEYS)
        if unknown or not {"id", "reason"} <= set(rule) or len(rule) < 3:
            raise ValueError(f"{path.name}: a bad rule {rule.get('id')!r} {unknown}")
        rules.append({str(k): str(v) for k, v in rule.items()})
    return rules


def explain(rules: list[dict[str, str]], package: str, item: dict[str, Any]) -> str:
    """The id and reason of the first rule whose every condition holds, or ""."""
    facts = {"package": package, "type": item["type"]}
    for rule in rules:
        exact = all(rule[k] == facts[k] for k in ("package", "type") if k in rule)
        found = all(
            re.search(rule[k], str(item[k])) for k in ("tsc", "json") if k in rule
        )
        if exact and found:
            return f"{rule['id']}: {rule['reason']}"
    return ""


def run_samples(samples: dict[str, list[str]]) -> dict[str, Any]:
    """Each package's sample judged in a child process (``--one``); the figures and every
    disagreement, printed and returned (``build/wild-ts.json``'s ``oracle``)."""
    known = listed()
    per_package: dict[str, Any] = {}
    print(f"\noracle sample (seed {SEED}, up to {SAMPLE} types per package):")
    for package, names in sorted(samples.items()):
        if not names:
            continue
        try:
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "tests.wild.npm.sample",
                    "--one",
                    package,
                    *names,
                ],
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
                cwd=REPO,
            )
            result = (
                json.loads(done.stdout)
                if done.returncode == 0
                else {"sample": names, "error": done.stderr.strip()[-400:]}
            )
        except subprocess.TimeoutExpired:
            result = {"sample": names, "error": f"over {TIMEOUT} s"}
        per_package[package] = result
        print(
            f"  {package:40} {len(result.get('judged', [])):2} types "
            f"{result.get('cases', 0):4} cases {result.get('agree', 0):4} agree"
            + (f"  ERROR {result['error'][:200]}" if "error" in result else ""),
            flush=True,
        )
    return summarize(per_package, known)


def summarize(
    per_package: dict[str, Any], known: list[dict[str, str]]
) -> dict[str, Any]:
    cases = sum(int(r.get("cases", 0)) for r in per_package.values())
    agree = sum(int(r.get("agree", 0)) for r in per_package.values())
    excused: dict[str, int] = {}
    unlisted: list[dict[str, Any]] = []
    explained: list[dict[str, Any]] = []
    for package, result in sorted(per_package.items()):
        for rule, seen in result.get("excused", {}).items():
            excused[rule] = excused.get(rule, 0) + int(seen["count"])
        for item in result.get("disagreements", []):
            reason = explain(known, package, item)
            entry = {"package": package, **item, "reason": reason}
            (explained if reason else unlisted).append(entry)
    not_judged = {
        f"{p}/{n}": str(why)
        for p, r in sorted(per_package.items())
        for n, why in r.get("not_judged", {}).items()
    }
    errors = {p: str(r["error"]) for p, r in per_package.items() if "error" in r}
    figures: dict[str, Any] = {
        "seed": SEED,
        "packages": len(per_package),
        "sample": sum(len(r.get("sample", [])) for r in per_package.values()),
        "judged": sum(len(r.get("judged", [])) for r in per_package.values()),
        "not_judged": not_judged,
        "errors": errors,
        "cases": cases,
        "agree": agree,
        "agreement": round(agree / cases, 4) if cases else 0.0,
        "excused_by_listed_divergence": excused,
        "disagreements_listed": len(explained),
        "disagreements_unlisted": len(unlisted),
    }
    for entry in explained + unlisted:
        print(
            f"  DISAGREE {entry['package']}/{entry['type']} {entry['json'][:160]}\n"
            f"      tsc {entry['tsc']}; bindings {entry['bindings']}; schema "
            f"{entry['schema']}\n      "
            + (f"listed: {entry['reason']}" if entry["reason"] else "NOT LISTED")
        )
    for name, why in not_judged.items():
        print(f"  not judged {name}: {why[:200]}")
    print(
        f"oracle: {figures['judged']} of {figures['sample']} sampled types judged in "
        f"{figures['packages']} packages, {cases} cases, {agree} agree "
        f"({figures['agreement']:.1%}), excused by listed divergences "
        f"{sum(excused.values())} {excused}, disagreements {len(explained)} listed + "
        f"{len(unlisted)} unlisted, {len(errors)} errors"
    )
    return {
        "figures": figures,
        "disagreements": explained + unlisted,
        "packages": per_package,
    }


def _child(argv: list[str]) -> int:
    from tests.wild.npm.run import HERE, _files

    package, names = argv[0], argv[1:]
    root = HERE / "node_modules" / package
    rels = [p.relative_to(root).as_posix() for p in _files(package)]
    with tempfile.TemporaryDirectory(prefix="wild-ts-") as tmp:
        result = judge_package(package, root, rels, names, Path(tmp))
    print(json.dumps(result))
    return 0


def _summary(path: str) -> int:
    """The oracle figures of a finished run (``build/wild-ts.json``) again, with the
    rules of ``disagreements.toml`` as they are now (the judging is not repeated)."""
    stored = json.loads(Path(path).read_text(encoding="utf-8"))
    figures = summarize(stored["oracle"]["packages"], listed())["figures"]
    return 1 if figures["disagreements_unlisted"] or figures["errors"] else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        raise SystemExit(_child(sys.argv[2:]))
    if sys.argv[1:2] == ["--summary"]:
        raise SystemExit(_summary(sys.argv[2]))
    raise SystemExit(
        "usage: python -m tests.wild.npm.sample --one PACKAGE TYPE... | --summary JSON"
    )
