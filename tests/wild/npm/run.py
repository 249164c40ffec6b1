"""``make wild-ts``: the TypeScript frontend on the ``.d.ts`` files of popular npm packages.

Phase: verification campaign (not in ``make test``).
Inputs: ``package.json`` / ``package-lock.json`` beside this module (installed with
``npm ci --ignore-scripts`` into ``node_modules``): for each direct dependency, every
``.d.ts`` file of the package (its own ``node_modules`` left out).
Outputs: per package and in total: files, exported type declarations (interfaces, type
aliases, enums), how many are modelled (in the frontend's result with no error naming
them), and for each one that is not, its reason: the diagnostic that names it (a generic
declaration is emitted per instantiation, a construct with no JSON form, a type imported
from another package); crashes (INT001) and hangs (a package that takes longer than the
timeout) are counted apart.  Then the oracle sample (``sample.py``): for a seeded sample
of each package's modelled types, the TypeScript checker and our bindings judge the same
drawn instances and mutants; every disagreement is printed, and one not listed in
``disagreements.toml`` (with its reason) fails the campaign.  Written to
``build/wild-ts.json``; the tables are printed.
Guarantees: each package is read in its own process, so a crash or a hang of one is that
package's finding; every exported type alias and interface is requested (``[spec] types``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.typescript.reader import Options, parse_tree, read_typescript
from codegen.frontends.typescript.symbols import Symbol, collect
from codegen.spec.source import SourceText
from tests.wild.npm.sample import choose, references, run_samples

HERE = Path(__file__).resolve().parent
TIMEOUT = 300


def packages() -> list[str]:
    manifest = json.loads((HERE / "package.json").read_text(encoding="utf-8"))
    return sorted(manifest.get("dependencies", {}))


def _files(package: str) -> list[Path]:
    root = HERE / "node_modules" / package
    return sorted(
        p
        for p in root.rglob("*.d.*ts")
        if p.name.endswith((".d.ts", ".d.mts", ".d.cts"))
        and "node_modules" not in p.relative_to(root).parts
    )


def _assigned_member(symbol: Symbol) -> bool:
    """A member of a namespace the module exports: ``export = NS`` (``declare namespace
    Joi { interface Schema }``, ``export = Joi``), ``export { NS }``, ``export namespace
    NS`` (nested ones too), as the checker reads ``Joi.Schema`` from the package."""
    scope = symbol.scope
    if scope is None or scope.parent is None or symbol.local not in scope.exported:
        return False
    while scope.parent is not None:
        parent, name = scope.parent, scope.path[-1]
        if not (
            parent.assigned == name
            or name in parent.exported
            or (None, name) in parent.reexports.values()
        ):
            return False
        scope = parent
    return True


_NEEDED = re.compile(r"; (\S+) is needed")


def users_of(decls: tuple[ir.Decl, ...], failing: set[str]) -> dict[str, str]:
    """Each declaration that reaches one of ``failing`` → the first one it reaches."""
    users: dict[str, list[str]] = {}
    for decl in decls:
        for used in references(decl):
            users.setdefault(used, []).append(decl.name)
    out: dict[str, str] = {}
    todo = [(name, name) for name in sorted(failing)]
    while todo:
        name, cause = todo.pop()
        if name in out:
            continue
        out[name] = cause
        todo.extend((user, cause) for user in users.get(name, ()))
    return out


def read_package(package: str) -> dict[str, object]:
    root = HERE / "node_modules" / package
    sources = [
        SourceText(
            str(p.relative_to(root)), p.read_text(encoding="utf-8", errors="replace")
        )
        for p in _files(package)
    ]
    table = collect([(s, parse_tree(s)) for s in sources])
    exported = [
        s
        for s in table.order
        if s.kind in ("interface", "alias", "enum")
        and s.scope is not None
        and (
            (
                s.scope.parent is None
                and (
                    s.local in s.scope.exported
                    or (None, s.local) in s.scope.reexports.values()  # export { X }
                )
            )
            or _assigned_member(s)
        )
    ]
    generic = [s.name for s in exported if any(p.default is None for p in s.params)]
    wanted = [s.name for s in exported if s.name not in set(generic)]
    diags = Diagnostics()
    crashed = ""
    kept: set[str] = set()
    decls: tuple[ir.Decl, ...] = ()
    try:
        result = read_typescript(
            sources, ("client", "server"), {}, diags, Options(requested=tuple(wanted))
        )
        decls = result.decls
        kept = {d.name for d in decls}
    except Exception as exc:  # noqa: BLE001 - a crash is this package's finding
        crashed = repr(exc)[:300]
    errors = diags.errors()
    at = {s.name: (s.span.file, s.span.line) for s in exported}
    twins = {
        (d.span.file, d.span.line)
        for d in diags.items
        if "declared again with the same meaning" in d.message
    }
    unmodelled: dict[str, str] = {
        name: "generic: emitted per instantiation" for name in generic
    }
    # A declaration that uses one with an error is not modelled either (its error
    # names the one that has the problem: ``Formatter is needed`` for ``Colors``).
    failing = {
        found.group(1): f"{d.code}: {d.message[:160]}"
        for d in errors
        if (found := _NEEDED.search(d.message))
    }
    blocked = users_of(decls, set(failing))
    for name in wanted:
        why = next(
            (
                f"{d.code}: {d.message[:160]}"
                for d in errors
                if f"; {name} is needed" in d.message
            ),
            None,
        )
        if why is None and name in blocked and blocked[name] != name:
            used = blocked[name]
            why = f"uses {used}, which is not modelled ({failing[used]})"
        if (name in kept and why is None) or at[name] in twins:
            continue  # modelled (a twin declared again identically is kept once)
        if why is None:
            why = next(
                (
                    f"{d.code}: {d.message[:160]}"
                    for d in diags.items
                    if (d.span.file, d.span.line) == at[name]
                ),
                None,
            )
        unmodelled[name] = why or "UNEXPLAINED"
    return {
        "files": len(sources),
        "declarations": len(exported),
        "modelled": len(exported) - len(unmodelled),
        "unmodelled": unmodelled,
        "unexplained": sorted(
            n for n, why in unmodelled.items() if why == "UNEXPLAINED"
        ),
        "int001": sum(1 for d in diags.items if d.code == "INT001"),
        "crash": crashed,
        # the seeded sample of modelled types the checker judges (``sample.py``)
        # (a twin declared again identically is modelled under the first one's name)
        "sample": choose(
            sorted(
                {
                    s.name
                    for s in exported
                    if s.name not in unmodelled and s.name in kept
                }
            ),
            package,
        ),
    }


def main(argv: list[str]) -> int:
    if argv[:1] == ["--one"]:
        print(json.dumps(read_package(argv[1])))
        return 0
    out: dict[str, object] = {}
    totals = {"files": 0, "declarations": 0, "modelled": 0, "unexplained": 0}
    crashes: list[str] = []
    hangs: list[str] = []
    print(f"{'package':40} files  decls modelled  share  unexplained")
    for package in packages():
        try:
            done = subprocess.run(
                [sys.executable, "-m", "tests.wild.npm.run", "--one", package],
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            hangs.append(package)
            print(f"{package:40} HANG (> {TIMEOUT} s)", flush=True)
            continue
        if done.returncode != 0:
            crashes.append(package)
            print(f"{package:40} CRASH {done.stderr.strip()[-200:]}", flush=True)
            continue
        figures = json.loads(done.stdout)
        out[package] = figures
        if figures["crash"] or figures["int001"]:
            crashes.append(package)
        for key in ("files", "declarations", "modelled"):
            totals[key] += int(figures[key])
        totals["unexplained"] += len(figures["unexplained"])
        share = (
            figures["modelled"] / figures["declarations"]
            if figures["declarations"]
            else 1
        )
        print(
            f"{package:40} {figures['files']:5} {figures['declarations']:6} "
            f"{figures['modelled']:8} {share:6.1%} {len(figures['unexplained']):12}",
            flush=True,
        )
    oracle = run_samples(
        {p: list(f.get("sample", [])) for p, f in out.items() if isinstance(f, dict)}
    )
    share = totals["modelled"] / totals["declarations"] if totals["declarations"] else 0
    print(
        f"total: {len(packages())} packages, {totals['files']} files, "
        f"{totals['declarations']} declarations, {totals['modelled']} modelled "
        f"({share:.1%}), {totals['unexplained']} unexplained, {len(crashes)} crashed, "
        f"{len(hangs)} hung"
    )
    target = Path("build/wild-ts.json")
    target.parent.mkdir(exist_ok=True)
    target.write_text(
        json.dumps(
            {
                "packages": out,
                "totals": totals,
                "crashes": crashes,
                "hangs": hangs,
                "oracle": oracle,
            },
            indent=2,
            sort_keys=True,
        ),
        encoding="utf-8",
    )
    figures = oracle["figures"]
    # A sample of which tsc judged nothing would pass on nothing (the reasons are in
    # the report's not-judged list).
    nothing_judged = figures.get("sample") and not figures.get("cases")
    failed = figures["disagreements_unlisted"] or figures["errors"] or nothing_judged
    return 1 if crashes or hangs or totals["unexplained"] or failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
