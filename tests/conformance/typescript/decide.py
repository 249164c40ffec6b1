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
is cached between cases; a failure of the oracle is ``None``, never a verdict.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from codegen.oracles.typescript import NPM_DIR, SCRIPT

REPO = Path(__file__).resolve().parents[3]


def typescript_package() -> Path | None:
    """The ``typescript`` package ``make oracle-deps`` installs, if it is there."""
    package = REPO / NPM_DIR / "node_modules" / "typescript"
    return package if (package / "package.json").is_file() else None


def tsc_accepts(
    files: dict[str, str], type_name: str, values: list[Any]
) -> list[bool | None]:
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
