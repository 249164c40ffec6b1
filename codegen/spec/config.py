"""Reads ``specs/<id>/spec.toml``: which sources make a protocol and how to treat them.

Phase: before the frontends.
Inputs: the spec directory.
Outputs: a frozen ``SpecConfig`` and diagnostics (``CFG***``) for anything missing or unknown.
Guarantees: unknown keys are reported, never ignored silently; paths are kept repo-relative so
no machine path reaches generated output.
"""

from __future__ import annotations

import difflib
import keyword
import os
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegen.diagnostics import Diagnostics
from codegen.ir import Span
from codegen.spec.source import decode

KNOWN_LANGUAGES = ("typescript", "rust", "go", "prose")
_SPEC_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_DISTRIBUTION = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?")  # PEP 508
_TOP_KEYS = {
    "spec",
    "transport",
    "python",
    "external",
    "methods",
    "errors",
    "examples",
    "unions",
    "rust",
    "go",
}
_RUST_KEYS = {"features", "default_features", "wrappers"}
_SPEC_KEYS = {
    "id",
    "title",
    "version",
    "language",
    "sources",
    "roles",
    "extra_keys",
    "docs",
    "types",
}
_METHOD_KEYS = {
    "kind",
    "direction",
    "params",
    "params_optional",
    "result",
    "docs",
    "method",
}


@dataclass(frozen=True, slots=True)
class MethodEntry:
    """One entry of the ``[methods]`` table: it declares a method the sources do not, or
    corrects facts of one they do.  ``None``: not given.  ``params``/``result`` are type
    names (several: a union of them); ``()`` means none (no params key; a ``null``
    result).  ``legacy``: written as ``[methods.overrides."<wire>"]``."""

    wire: str
    span: Span
    kind: str | None = None
    direction: str | None = None
    params: tuple[str, ...] | None = None
    params_optional: bool | None = None
    result: tuple[str, ...] | None = None
    docs: str | None = None
    legacy: bool = False
    # ``method = false``: what the sources evidence as this method is not one.
    is_method: bool = True


@dataclass(frozen=True, slots=True)
class ExternalType:
    name: str
    module: str
    reason: str


@dataclass(frozen=True, slots=True)
class SpecConfig:
    id: str
    title: str
    version: str
    language: str
    spec_dir: Path  # absolute, never rendered into output
    repo_root: Path
    sources: tuple[str, ...]  # relative to spec_dir
    roles: tuple[str, str]
    transport_kind: str
    framings: tuple[str, ...]
    python_package: str
    python_distribution: str
    externals: tuple[ExternalType, ...]
    extra_keys: str  # "allow" | "forbid"
    error_codes: tuple[tuple[int, str], ...]
    docs: str = ""
    # Spec examples that contradict the spec's own types: name → why.  Kept as must-reject
    # samples so the contradiction stays visible and is re-checked on every run.
    contradicting_examples: tuple[tuple[str, str], ...] = ()
    # [methods."<wire name>"]: methods declared or corrected by the spec (every language).
    methods: tuple[MethodEntry, ...] = ()
    # [spec] types: exported types the bindings must provide even if no method uses them.
    requested_types: tuple[str, ...] = ()
    # [unions."<Name>"] open = true: unions whose unknown tags are kept.
    open_unions: tuple[str, ...] = ()
    # [rust]: the crate features to compile with (``cfg(feature = ...)``), whether the
    # crate's ``default`` features are on (as with cargo), and generic types whose wire form
    # is a wrapper's (name → "transparent" | "option" | "tri-state" | "any" | "string").
    rust_features: tuple[str, ...] = ()
    rust_default_features: bool = True
    rust_wrappers: tuple[tuple[str, str], ...] = ()
    # The whole parsed spec.toml, for frontend-specific tables; each frontend validates the
    # tables it reads.
    raw: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def rel(self, path: Path) -> str:
        """A repo-relative POSIX path for spans and provenance (``../`` steps for a
        path outside the root, e.g. a source named ``../shared.ts``)."""
        return Path(
            os.path.relpath(path.resolve(), self.repo_root.resolve())
        ).as_posix()

    def source_paths(self) -> list[Path]:
        return [self.spec_dir / s for s in self.sources]


def find_repo_root(start: Path) -> Path:
    """The project a path belongs to: the nearest folder with a ``pyproject.toml`` that
    configures codegen (``[tool.codegen]``) or sits beside a ``specs/`` folder."""
    for candidate in [start, *start.parents]:
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file() and (
            (candidate / "specs").is_dir() or _configures_codegen(pyproject)
        ):
            return candidate
    return start


def _configures_codegen(pyproject: Path) -> bool:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    tool = data.get("tool")
    return isinstance(tool, dict) and "codegen" in tool


def load_config(
    spec_dir: Path, diags: Diagnostics, repo_root: Path | None = None
) -> SpecConfig | None:
    """Load a spec.toml; returns None (with diagnostics) when it cannot be used."""
    spec_dir = spec_dir.resolve()
    root = (repo_root or find_repo_root(spec_dir)).resolve()
    toml_path = spec_dir / "spec.toml"
    try:
        rel = toml_path.relative_to(root).as_posix()
    except ValueError:
        rel = toml_path.as_posix()
    span = Span(rel, 1, 1)
    try:
        decoded = decode(toml_path.read_bytes())
    except OSError as exc:
        diags.report("CFG001", f"cannot read {rel}: {exc.strerror}", span)
        return None
    if decoded.code:  # TOML is UTF-8 by definition
        diags.report(
            decoded.code, decoded.message, Span(rel, decoded.line, decoded.col)
        )
        return None
    try:
        data = tomllib.loads(decoded.text)
    except tomllib.TOMLDecodeError as exc:
        diags.report(
            "CFG001",
            f"{rel} is not valid TOML: {_toml_error_text(exc)}",
            _toml_error_span(rel, exc),
        )
        return None
    except RecursionError:
        diags.report("CFG001", f"{rel} is nested too deeply to read", span)
        return None
    shape = _shape_problems(data)
    if shape:
        for problem in shape:
            diags.report("CFG002", problem, span)
        return None
    return _build(data, spec_dir, root, span, diags)


# table or key → the type it must have, for the keys ``_build`` reads.
_SHAPES: dict[tuple[str, ...], tuple[type, ...]] = {
    ("spec",): (dict,),
    ("spec", "sources"): (list,),
    ("spec", "roles"): (list,),
    ("transport",): (dict,),
    ("transport", "framings"): (list,),
    ("python",): (dict,),
    ("external",): (dict,),
    ("errors",): (dict,),
    ("examples",): (dict,),
    ("examples", "contradicts_spec"): (dict,),
}


def _shape_problems(data: dict[str, Any]) -> list[str]:
    """Tables and lists of the wrong kind, and error codes that are not integers: said
    as CFG002 before anything reads them (a string where a list belongs must not be
    read letter by letter)."""
    problems: list[str] = []
    for path, kinds in _SHAPES.items():
        value: Any = data
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if value is not None and not isinstance(value, kinds):
            kind = "a table" if kinds == (dict,) else "a list"
            problems.append(f"{'.'.join(path)} must be {kind}")
    errors = data.get("errors")
    if isinstance(errors, dict):
        for code in errors:
            try:
                int(code)
            except ValueError:
                problems.append(f"errors: {code!r} is not an integer error code")
    external = data.get("external")
    if isinstance(external, dict):
        for name, entry in external.items():
            if not isinstance(entry, dict):
                problems.append(f"external.{name} must be a table")
    return problems


_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def _toml_error_span(rel: str, exc: tomllib.TOMLDecodeError) -> Span:
    """Where tomllib says the error is: Python 3.14 has ``lineno``/``colno``; before, the
    position is only in the message, ``... (at line 3, column 10)``."""
    line = getattr(exc, "lineno", None)
    col = getattr(exc, "colno", None)
    found = _TOML_POSITION.search(str(exc))
    if (line is None or col is None) and found is not None:
        line, col = int(found.group(1)), int(found.group(2))
    return Span(rel, int(line or 1), int(col or 1))


def _toml_error_text(exc: tomllib.TOMLDecodeError) -> str:
    """tomllib's message without the position (the span carries it)."""
    return _TOML_POSITION.sub("", getattr(exc, "msg", None) or str(exc))


def _build(
    data: dict[str, Any], spec_dir: Path, root: Path, span: Span, diags: Diagnostics
) -> SpecConfig | None:
    for key in sorted(set(data) - _TOP_KEYS):
        diags.report("CFG002", f"unknown table [{key}] in spec.toml", span)
    spec = data.get("spec", {})
    for key in sorted(set(spec) - _SPEC_KEYS):
        diags.report("CFG002", f"unknown key spec.{key}", span)
    spec_id = str(spec.get("id", spec_dir.name))
    if not _SPEC_ID.fullmatch(spec_id):  # a directory name under generated/
        diags.report(
            "CFG002",
            f"spec.id {spec_id!r} must be letters, digits, '_', '.' or '-' "
            "(starting with a letter or digit)",
            span,
        )
        return None
    language = str(spec.get("language", ""))
    if language not in KNOWN_LANGUAGES:
        diags.report(
            "CFG002", f"spec.language must be one of {', '.join(KNOWN_LANGUAGES)}", span
        )
        return None
    sources = tuple(str(s) for s in spec.get("sources", []))
    if not sources:
        diags.report("CFG002", "spec.sources must list at least one source file", span)
        return None
    for source in sources:
        if not (spec_dir / source).is_file():
            diags.report(
                "CFG003",
                f"source file {source!r} does not exist in {spec_dir.name}/",
                span,
            )
    roles = tuple(str(r) for r in spec.get("roles", ["client", "server"]))
    if len(roles) != 2:
        diags.report("CFG002", "spec.roles must name exactly two roles", span)
        return None
    transport = data.get("transport", {})
    if not _transport_ok(transport, span, diags):
        return None
    python = data.get("python", {})
    default_package = re.sub(r"[^0-9A-Za-z_]", "_", spec_id) + "_protocol"
    package = str(python.get("package", default_package))
    if (
        not package.isidentifier()
        or keyword.iskeyword(package)
        or not package.isascii()
    ):
        diags.report(
            "CFG002",
            f"python.package {package!r} is not a Python identifier; set "
            '[python] package = "..." in spec.toml',
            span,
        )
        return None
    distribution = str(python.get("distribution", package.replace("_", "-")))
    if not _DISTRIBUTION.fullmatch(distribution):
        diags.report(
            "CFG002",
            f"python.distribution {distribution!r} is not a valid distribution name",
            span,
        )
        return None
    externals = tuple(
        ExternalType(name, str(v.get("module", "")), str(v.get("reason", "")))
        for name, v in sorted(data.get("external", {}).items())
    )
    errors = tuple(
        sorted((int(code), str(name)) for code, name in data.get("errors", {}).items())
    )
    rust = _rust_table(data.get("rust", {}), span, diags)
    if rust is None:
        return None
    extra_keys = str(spec.get("extra_keys", "allow"))
    if extra_keys not in ("allow", "forbid"):
        diags.report("CFG002", "spec.extra_keys must be 'allow' or 'forbid'", span)
        return None
    rel = span.file
    toml_text = ""
    try:
        toml_text = (spec_dir / "spec.toml").read_text(encoding="utf-8")
    except OSError:
        pass
    methods = _method_entries(data.get("methods", {}), toml_text, rel, diags)
    open_unions = _open_unions(data.get("unions", {}), span, diags)
    requested = spec.get("types", [])
    if not isinstance(requested, list) or not all(
        isinstance(t, str) for t in requested
    ):
        diags.report("CFG002", "spec.types must be a list of type names", span)
        requested = []
    return SpecConfig(
        id=spec_id,
        title=str(spec.get("title", spec_id)),
        version=str(spec.get("version", "0")),
        language=language,
        spec_dir=spec_dir,
        repo_root=root,
        sources=sources,
        roles=(roles[0], roles[1]),
        transport_kind=str(transport.get("kind", "jsonrpc-2.0")),
        framings=tuple(str(f) for f in transport.get("framings", [])),
        python_package=package,
        python_distribution=distribution,
        externals=externals,
        extra_keys=extra_keys,
        error_codes=errors,
        docs=str(spec.get("docs", "")),
        contradicting_examples=tuple(
            sorted(
                (str(k), str(v))
                for k, v in data.get("examples", {}).get("contradicts_spec", {}).items()
            )
        ),
        methods=methods,
        requested_types=tuple(requested),
        open_unions=open_unions,
        raw=data,
        rust_features=rust[0],
        rust_default_features=rust[1],
        rust_wrappers=rust[2],
    )


# [transport]: the envelope kinds the backends render, and the framings they carry them on.
TRANSPORT_KINDS = ("jsonrpc-2.0", "http-post-envelope")
FRAMINGS = ("ndjson-stdio", "websocket", "http-post")
_TRANSPORT_KEYS = {"kind", "framings"}


def _transport_ok(table: dict[str, Any], span: Span, diags: Diagnostics) -> bool:
    """Unknown kinds, framings and keys are errors naming the nearest known one: an
    unknown kind must never fall back to another envelope silently."""
    ok = True
    for key in sorted(set(table) - _TRANSPORT_KEYS):
        diags.report(
            "CFG002",
            f"unknown key transport.{key}{_suggest(key, _TRANSPORT_KEYS)}",
            span,
        )
        ok = False
    kind = table.get("kind", "jsonrpc-2.0")
    if not isinstance(kind, str) or kind not in TRANSPORT_KINDS:
        diags.report(
            "CFG002",
            f"transport.kind {kind!r} is not one of {', '.join(TRANSPORT_KINDS)}"
            f"{_suggest(str(kind), TRANSPORT_KINDS)}",
            span,
        )
        ok = False
    for framing in table.get("framings", []):
        if not isinstance(framing, str) or framing not in FRAMINGS:
            diags.report(
                "CFG002",
                f"transport.framings: {framing!r} is not one of {', '.join(FRAMINGS)}"
                f"{_suggest(str(framing), FRAMINGS)}",
                span,
            )
            ok = False
    return ok


def _suggest(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _rust_table(
    table: Any, span: Span, diags: Diagnostics
) -> tuple[tuple[str, ...], bool, tuple[tuple[str, str], ...]] | None:
    """``[rust]``: features = [...], default_features = bool, [rust.wrappers] name = form."""
    if not isinstance(table, dict):
        diags.report("CFG002", "[rust] must be a table", span)
        return None
    for key in sorted(set(table) - _RUST_KEYS):
        diags.report("CFG002", f"unknown key rust.{key}", span)
    features = table.get("features", [])
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        diags.report("CFG002", "rust.features must be a list of feature names", span)
        return None
    default_features = table.get("default_features", True)
    if not isinstance(default_features, bool):
        diags.report("CFG002", "rust.default_features must be true or false", span)
        return None
    wrappers = table.get("wrappers", {})
    if not isinstance(wrappers, dict) or not all(
        isinstance(v, str) for v in wrappers.values()
    ):
        diags.report(
            "CFG002", "[rust.wrappers] maps type names to a form (a string)", span
        )
        return None
    return (
        tuple(features),
        default_features,
        tuple(sorted((str(k), str(v)) for k, v in wrappers.items())),
    )


def _method_entries(
    table: Any, toml_text: str, rel: str, diags: Diagnostics
) -> tuple[MethodEntry, ...]:
    if not isinstance(table, dict):
        diags.report("CFG002", "[methods] must be a table", Span(rel, 1, 1))
        return ()
    out: list[MethodEntry] = []
    legacy = table.get("overrides", {})
    items = [
        (wire, entry, False) for wire, entry in table.items() if wire != "overrides"
    ]
    if isinstance(legacy, dict):
        items.extend((wire, entry, True) for wire, entry in legacy.items())
    for wire, entry, is_legacy in items:
        span = _toml_span(toml_text, rel, wire)
        where = f"[methods.{'overrides.' if is_legacy else ''}{wire!r}]"
        if not isinstance(entry, dict):
            diags.report("CFG002", f"{where} must be a table", span)
            continue
        for key in sorted(set(entry) - _METHOD_KEYS):
            diags.report("CFG002", f"unknown key {key!r} in {where}", span)
        kind = entry.get("kind")
        if kind is not None and kind not in ("request", "notification"):
            diags.report(
                "CFG002", f"{where}: kind must be 'request' or 'notification'", span
            )
            kind = None
        is_method = entry.get("method", True)
        if not isinstance(is_method, bool):
            diags.report("CFG002", f"{where}: method must be true or false", span)
            is_method = True
        optional = entry.get("params_optional")
        if optional is not None and not isinstance(optional, bool):
            diags.report(
                "CFG002", f"{where}: params_optional must be true or false", span
            )
            optional = None
        out.append(
            MethodEntry(
                wire=str(wire),
                span=span,
                kind=kind,
                direction=_text(entry.get("direction")),
                params=_names(entry, "params", where, span, diags),
                params_optional=optional,
                result=_names(entry, "result", where, span, diags),
                docs=_text(entry.get("docs")),
                legacy=is_legacy,
                is_method=is_method,
            )
        )
    return tuple(out)


def _names(
    entry: dict[str, Any], key: str, where: str, span: Span, diags: Diagnostics
) -> tuple[str, ...] | None:
    """A type in the spec's source syntax (``"Entry[] | null"``), a list of them (a
    union), or "" / [] for none; ``table.py`` reads the texts."""
    if key not in entry:
        return None
    value = entry[key]
    if isinstance(value, str):
        return (value,) if value else ()
    if isinstance(value, list) and all(isinstance(v, str) and v for v in value):
        return tuple(value)
    diags.report(
        "CFG002", f"{where}: {key} must be a type text or a list of them", span
    )
    return None


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _open_unions(table: Any, span: Span, diags: Diagnostics) -> tuple[str, ...]:
    if not isinstance(table, dict):
        diags.report("CFG002", "[unions] must be a table", span)
        return ()
    out: list[str] = []
    for name, entry in sorted(table.items()):
        if not isinstance(entry, dict) or set(entry) - {"open"}:
            diags.report(
                "CFG002", f"[unions.{name}] takes only 'open = true|false'", span
            )
            continue
        if entry.get("open") is True:
            out.append(str(name))
    return tuple(out)


def _toml_span(toml_text: str, rel: str, wire: str) -> Span:
    """The line of the table header naming ``wire`` (for diagnostics about the entry)."""
    needles = (f'"{wire}"', f".{wire}]")
    for number, line in enumerate(toml_text.splitlines(), start=1):
        stripped = line.lstrip()
        if not stripped.startswith("["):
            continue
        for needle in needles:
            if needle in line:
                return Span(rel, number, line.index(needle) + 1)
    return Span(rel, 1, 1)
