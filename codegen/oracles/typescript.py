"""The TypeScript oracle: the type checker (``tsc --strict --exactOptionalPropertyTypes``).

Phase: verification (``make oracle``), for ``language = "typescript"`` and ``"prose"``
specs (a prose spec's types are its TypeScript blocks).
Inputs: the spec's TypeScript: its source files, or the ``ts`` blocks of its Markdown (read
with the prose frontend's ``read_blocks``, concatenated in document order); a stub module
per ``[external]`` module of spec.toml (each named type ``unknown``: what the bindings take
too); the prose-only type names (``integer``) as the JSON types they name.
Outputs: ``TypeScriptOracle``: every exported (or, in a script, declared) non-generic
interface, type alias and enum is a type it judges; each case becomes ``const c: T =
<json>;`` in one file, checked in one program by ``ts_check.cjs`` with the ``typescript``
package installed from ``codegen/oracles/npm`` (``make oracle`` runs ``npm ci`` into
``build/oracle/npm``).  TypeScript has no writer of its own: an accepted case's output is
its input, compared with the bindings' output as JSON values.
Guarantees: the ways this oracle reads TypeScript that are choices, not TypeScript itself,
apply only when ``tests/oracle/divergences.toml`` lists them: ``ts-excess-properties``
(extra keys are allowed by our policy, so an excess-property error alone does not reject)
``ts-enums-as-values`` (an enum is the union of its values, since a JSON string is never
assignable to an enum type) and ``ts-undefined-as-optional`` (``x: T | undefined`` may be
absent, since ``JSON.stringify`` leaves such a key out).  A missing node or typescript package is an error naming the
command that installs it.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from codegen import ir
from codegen.frontends.prose.markdown_blocks import CODE, read_blocks
from codegen.frontends.prose.methods import PROSE_ONLY_TYPES
from codegen.oracles.case import Answer, Case, OracleUnavailable
from codegen.oracles.divergences import load_divergences
from codegen.oracles.subject import Subject
from codegen.oracles.toolchain import require

SCRIPT = Path(__file__).with_name("ts_check.cjs")
PRELUDE_FILE = "__prose_prelude.ts"
NPM_DIR = Path("build/oracle/npm")
INSTALL_NODE = "apt-get install nodejs npm (.ci/run installs them)"
INSTALL_TS = "run `make oracle` (it runs `npm ci` from codegen/oracles/npm into build/oracle/npm)"
_EXPORT = re.compile(
    r"^(\s*)export\s+(?=(?:declare\s+)?(?:interface|type|enum|const\s+enum|namespace)\b)",
    re.MULTILINE,
)
_TS_PRIMITIVES = {
    ir.PrimitiveKind.STRING: "string",
    ir.PrimitiveKind.INTEGER: "number",
    ir.PrimitiveKind.NUMBER: "number",
    ir.PrimitiveKind.BOOLEAN: "boolean",
    ir.PrimitiveKind.NULL: "null",
}


def typescript_files(subject: Subject) -> dict[str, str]:
    """The TypeScript the checker sees: file name → text."""
    files: dict[str, str] = {}
    for path in subject.source_paths():
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(subject.config.spec_dir).as_posix()
        if subject.language == "prose":
            # Every block's declarations are the protocol's, exported or not: one script
            # (no ``export``), so they are all visible to the cases.
            blocks = [b.text for b in read_blocks(text) if b.kind == CODE]
            script = _EXPORT.sub(r"\1", "\n\n".join(blocks))
            files[Path(rel).with_suffix(".ts").as_posix()] = script + "\n"
        else:
            files[rel] = text
    modules: dict[str, list[str]] = {}
    for external in subject.config.externals:
        modules.setdefault(external.module, []).append(external.name)
    for module, names in sorted(modules.items()):
        stem = module.removeprefix("./").removesuffix(".js").removesuffix(".ts")
        files.setdefault(
            f"{stem}.ts",
            "".join(f"export type {n} = unknown;\n" for n in sorted(names)),
        )
    if subject.language == "prose":
        prelude = [
            f"type {name} = {_TS_PRIMITIVES[expr.kind]};"
            for name, expr in sorted(PROSE_ONLY_TYPES.items())
            if isinstance(expr, ir.Primitive)
        ]
        files[PRELUDE_FILE] = "\n".join(prelude) + "\n"
    return files


class TypeScriptOracle:
    language = "typescript"
    compares = "values"

    def __init__(self, subject: Subject, build_dir: Path) -> None:
        self.subject = subject
        self.npm = (subject.repo / NPM_DIR).resolve()
        self.files = typescript_files(subject)
        divergences = load_divergences(subject.repo)
        self.enums_as_values = divergences.normalization(
            "ts-enums-as-values", subject.language
        )
        self.ignore_excess = divergences.normalization(
            "ts-excess-properties", subject.language
        )
        self.undefined_as_optional = divergences.normalization(
            "ts-undefined-as-optional", subject.language
        )
        self.skipped: dict[str, str] = {}
        self._types: dict[str, Any] | None = None
        # normalizations of divergences.toml this oracle applied (how often)
        self.used: dict[str, int] = {}
        self.folder = (build_dir / "typescript").resolve()

    def _run(self, payload: dict[str, Any]) -> dict[str, Any]:
        node = require("node", INSTALL_NODE)
        package = self.npm / "node_modules" / "typescript"
        if not (package / "package.json").is_file():
            raise OracleUnavailable(
                f"the typescript package is not installed: {INSTALL_TS}"
            )
        body = {
            "typescript": str(package),
            "files": self.files,
            "enumsAsValues": self.enums_as_values,
            "ignoreExcess": self.ignore_excess,
            "undefinedAsOptional": self.undefined_as_optional,
            **payload,
        }
        result = subprocess.run(
            [node, "--max-old-space-size=4096", "--stack-size=8000", str(SCRIPT)],
            input=json.dumps(body),
            check=False,
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            raise OracleUnavailable(
                f"the TypeScript oracle failed:\n{result.stderr[-4000:]}"
            )
        answer: dict[str, Any] = json.loads(result.stdout)
        return answer

    def _listing(self) -> dict[str, Any]:
        if self._types is None:
            listing = self._run({"mode": "list", "cases": []})
            self._types = listing["types"]
            self.used.update(
                {k: int(v) for k, v in listing.get("rewrites", {}).items() if v}
            )
            for name in listing.get("generic", []):
                self.skipped[name] = "a generic type has no single wire form"
            self.folder.mkdir(parents=True, exist_ok=True)
            for name, text in listing.get("files", {}).items():
                target = self.folder / "sources" / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
        return self._types

    def type_names(self) -> set[str]:
        return {
            name
            for name, where in self._listing().items()
            if where.get("file")
            != PRELUDE_FILE  # prose-only names, not the spec's types
        }

    def judge(self, cases: Sequence[Case]) -> list[Answer]:
        if not cases:
            return []
        self._listing()
        result = self._run(
            {
                "mode": "judge",
                "cases": [{"type": c.type_name, "text": c.text} for c in cases],
            }
        )
        out: list[Answer] = []
        for case, answer in zip(cases, result["answers"], strict=True):
            if answer["removed"] or answer.get("asValue"):
                self.used["ts-excess-properties"] = (
                    self.used.get("ts-excess-properties", 0) + 1
                )
            if answer["accept"]:
                notes = [f"excess property {p} ignored" for p in answer["removed"]]
                if answer.get("asValue"):
                    notes.append("assignable as a value read with JSON.parse")
                out.append(Answer(True, case.text, "; ".join(notes)))
            else:
                out.append(Answer(False, None, "; ".join(answer["errors"])))
        return out


def make_oracle(subject: Subject, build_dir: Path) -> TypeScriptOracle:
    return TypeScriptOracle(subject, build_dir)
