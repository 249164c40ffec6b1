"""The TypeScript checker decides where our schema and a peer's disagree (issue 30, item 4).

Phase: verification (the conformance harness, ``make conformance-ts``).
Inputs: a case's ``.ts`` files, the name of the type judged (as ``main.ts`` declares it),
the JSON values the two schemas judged differently.
Outputs: per value, ``True`` (tsc accepts the value as a literal of the type), ``False``
(it rejects it) or ``None`` (the oracle could not judge: no node, no typescript package, a
type it does not list).
Guarantees: the judge is ``codegen/oracles/ts_check.cjs``, the oracle of ``make oracle``
(``tsc --strict --exactOptionalPropertyTypes``, one program for all values), read as the
wire reads TypeScript: an enum is the union of its values (a JSON string is never an enum
object) and ``x: T | undefined`` may be absent (``JSON.stringify`` leaves it out).  Excess
properties count (the peers' schemas close objects, and the specs are read so).  Nothing
is cached between cases; a failure of the oracle is ``None``, never a verdict.  A type
declared inside a namespace is judged through a top-level alias of it (``root_alias``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from codegen.frontends.typescript.reader import parse_tree
from codegen.frontends.typescript.symbols import collect
from codegen.oracles.typescript import NPM_DIR, SCRIPT
from codegen.spec.source import SourceText

REPO = Path(__file__).resolve().parents[3]


def typescript_package() -> Path | None:
    """The ``typescript`` package ``make oracle-deps`` installs, if it is there."""
    package = REPO / NPM_DIR / "node_modules" / "typescript"
    return package if (package / "package.json").is_file() else None


def root_alias(files: dict[str, str], type_name: str) -> dict[str, str] | None:
    """A file naming a type declared inside a namespace (``module A { export interface
    Def }``) at the top level, where the oracle lists the types it judges: ``type
    __Root = A.Def`` (``__root.ts``), found with our own scope table; None when the name is
    declared at the top level or nowhere."""
    sources = [SourceText(name, text) for name, text in sorted(files.items())]
    table = collect([(source, parse_tree(source)) for source in sources])
    found = [s for s in table.order if s.local == type_name and s.scope is not None]
    if not found or any(not s.scope.path for s in found if s.scope is not None):
        return None
    symbol = found[0]
    assert symbol.scope is not None
    qualified = ".".join((*symbol.scope.path, type_name))
    file = symbol.source.rel_path
    if table.by_source[file].kind == "module":
        stem = "./" + file.removesuffix(".d.ts").removesuffix(".ts")
        text = (
            f"import type * as __M from {json.dumps(stem)};\n"
            f"export type __Root = __M.{qualified};\n"
        )
    else:
        text = f"type __Root = {qualified};\n"
    return {**files, "__root.ts": text}


def tsc_accepts(
    files: dict[str, str], type_name: str, values: list[Any]
) -> list[bool | None]:
    nested = root_alias(files, type_name)
    if nested is not None:
        files, type_name = nested, "__Root"
    node = shutil.which("node")
    package = typescript_package()
    if not values:
        return []
    if node is None or package is None:
        return [None] * len(values)
    body = {
        "typescript": str(package),
        "files": files,
        "mode": "judge",
        "cases": [{"type": type_name, "text": json.dumps(v)} for v in values],
        "enumsAsValues": True,
        "ignoreExcess": False,
        "undefinedAsOptional": True,
    }
    try:
        result = subprocess.run(
            [node, "--max-old-space-size=2048", "--stack-size=8000", str(SCRIPT)],
            input=json.dumps(body),
            check=False,
            capture_output=True,
            text=True,
            timeout=300,
        )
    except subprocess.TimeoutExpired:
        return [None] * len(values)
    if result.returncode != 0:
        return [None] * len(values)
    answers = json.loads(result.stdout)["answers"]
    return [bool(a["accept"]) for a in answers]
