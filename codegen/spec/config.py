"""Reads ``specs/<id>/spec.toml``: which sources make a protocol and how to treat them.

Phase: before the frontends.
Inputs: the spec directory.
Outputs: a frozen ``SpecConfig`` and diagnostics (``CFG***``) for anything missing or unknown.
Guarantees: unknown keys are reported, never ignored silently; paths are kept repo-relative so
no machine path reaches generated output.
"""

from __future__ import annotations

import keyword
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codegen.diagnostics import Diagnostics, did_you_mean
from codegen.ir import Span
from codegen.spec import schema
from codegen.spec.source import decode
from codegen.spec.toml_locations import Locations, locate

KNOWN_LANGUAGES = schema.LANGUAGES
_SPEC_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_DISTRIBUTION = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?")  # PEP 508


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
    # where each of them stands in spec.toml (for findings about it)
    requested_type_spans: tuple[Span, ...] = field(
        default=(), compare=False, hash=False
    )
    # [unions."<Name>"] open = true: unions whose unknown tags are kept.
    open_unions: tuple[str, ...] = ()
    # [rust]: the crate features to compile with (``cfg(feature = ...)``), whether the
    # crate's ``default`` features are on (as with cargo), and generic types whose wire form
    # is a wrapper's (name → "transparent" | "option" | "tri-state" | "any" | "string").
    rust_features: tuple[str, ...] = ()
    rust_default_features: bool = True
    rust_wrappers: tuple[tuple[str, str], ...] = ()
    # [transport.fields] of an event-envelope, every part's key (defaults filled in).
    envelope_fields: tuple[tuple[str, str], ...] = ()
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
    where = _Where(rel, locate(decoded.text))
    problems = schema.check(data)
    for problem in sorted(problems, key=lambda p: _position(where, p)):
        diags.report(
            "CFG002",
            problem.message,
            where.key(problem.path) if problem.at_key else where.value(problem.path),
        )
    if problems:
        return None
    return _build(data, spec_dir, root, where, diags)


@dataclass(frozen=True, slots=True)
class _Where:
    """Spans of spec.toml's keys and values, from its location map."""

    file: str
    locations: Locations

    def key(self, path: tuple[str | int, ...]) -> Span:
        found = self.locations.key(path)
        return Span(self.file, found.line, found.col)

    def value(self, path: tuple[str | int, ...]) -> Span:
        found = self.locations.value(path)
        return Span(self.file, found.line, found.col)


def _position(where: _Where, problem: schema.Problem) -> tuple[int, int]:
    span = where.key(problem.path) if problem.at_key else where.value(problem.path)
    return span.line, span.col


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
    data: dict[str, Any], spec_dir: Path, root: Path, where: _Where, diags: Diagnostics
) -> SpecConfig | None:
    """The config from a document the schema accepted: the checks left are those of
    names that become paths and code, and of the files the spec names."""
    spec = data["spec"]
    spec_id = str(spec.get("id", spec_dir.name))
    if not _SPEC_ID.fullmatch(spec_id):  # a directory name under generated/
        diags.report(
            "CFG002",
            f"spec.id {spec_id!r} must be letters, digits, '_', '.' or '-' "
            "(starting with a letter or digit)",
            where.value(("spec", "id")),
        )
        return None
    language = str(spec["language"])
    sources = tuple(spec["sources"])
    missing = False
    for index, source in enumerate(sources):
        if not (spec_dir / source).is_file():
            missing = True
            diags.report(
                "CFG003",
                f"source file {source!r} does not exist in {spec_dir.name}/"
                + did_you_mean(source, _files_beside(spec_dir)),
                where.value(("spec", "sources", index)),
            )
    if missing or not _language_fits(language, sources, where, diags):
        return None  # a frontend would only repeat it
    roles = tuple(spec.get("roles", ["client", "server"]))
    transport = data.get("transport", {})
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
            where.value(("python", "package")),
        )
        return None
    distribution = str(python.get("distribution", package.replace("_", "-")))
    if not _DISTRIBUTION.fullmatch(distribution):
        diags.report(
            "CFG002",
            f"python.distribution {distribution!r} is not a valid distribution name",
            where.value(("python", "distribution")),
        )
        return None
    externals = tuple(
        ExternalType(name, str(v.get("module", "")), str(v.get("reason", "")))
        for name, v in sorted(data.get("external", {}).items())
    )
    errors = tuple(
        sorted((int(code), str(name)) for code, name in data.get("errors", {}).items())
    )
    rust = data.get("rust", {})
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
        framings=tuple(transport.get("framings", [])),
        envelope_fields=_envelope_fields(transport),
        python_package=package,
        python_distribution=distribution,
        externals=externals,
        extra_keys=str(spec.get("extra_keys", "allow")),
        error_codes=errors,
        docs=str(spec.get("docs", "")),
        contradicting_examples=tuple(
            sorted(data.get("examples", {}).get("contradicts_spec", {}).items())
        ),
        methods=_method_entries(data.get("methods", {}), where),
        requested_types=tuple(spec.get("types", [])),
        requested_type_spans=tuple(
            where.value(("spec", "types", index))
            for index in range(len(spec.get("types", [])))
        ),
        open_unions=tuple(
            sorted(
                name
                for name, entry in data.get("unions", {}).items()
                if entry.get("open") is True
            )
        ),
        raw=data,
        rust_features=tuple(rust.get("features", [])),
        rust_default_features=bool(rust.get("default_features", True)),
        rust_wrappers=tuple(sorted(rust.get("wrappers", {}).items())),
    )


def _files_beside(spec_dir: Path, limit: int = 2000) -> list[str]:
    """Files in the spec folder (relative POSIX paths), for "did you mean"."""
    out: list[str] = []
    for path in sorted(spec_dir.rglob("*")):
        if path.is_file() and path.name != "spec.toml":
            out.append(path.relative_to(spec_dir).as_posix())
            if len(out) >= limit:
                break
    return out


# Suffixes only one source language uses: suffix → that language.
_LANGUAGE_OF_SUFFIX = {
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "typescript",
    ".rs": "rust",
    ".go": "go",
    ".md": "prose",
}


def _language_fits(
    language: str, sources: tuple[str, ...], where: _Where, diags: Diagnostics
) -> bool:
    """A spec whose sources are all of another language than it declares is one error
    at ``language`` (not a frontend finding nothing in them)."""
    seen = {
        _LANGUAGE_OF_SUFFIX.get(Path(s).suffix.lower())
        for s in sources
        if Path(s).name != "Cargo.toml"
    }
    if len(seen) != 1 or None in seen or language in seen:
        return True
    other = next(iter(seen))
    diags.report(
        "CFG002",
        f"spec.language is {language!r}, but the sources are {other} "
        f"({', '.join(sources)}); did you mean language = {other!r}?",
        where.value(("spec", "language")),
    )
    return False


def _method_entries(table: dict[str, Any], where: _Where) -> tuple[MethodEntry, ...]:
    out: list[MethodEntry] = []
    legacy = table.get("overrides", {})
    items = [
        (wire, entry, False) for wire, entry in table.items() if wire != "overrides"
    ]
    items.extend((wire, entry, True) for wire, entry in legacy.items())
    for wire, entry, is_legacy in items:
        path = ("methods", "overrides", wire) if is_legacy else ("methods", wire)
        out.append(
            MethodEntry(
                wire=str(wire),
                span=where.key(path),
                kind=entry.get("kind"),
                direction=entry.get("direction"),
                params=_names(entry.get("params")),
                params_optional=entry.get("params_optional"),
                result=_names(entry.get("result")),
                docs=entry.get("docs"),
                legacy=is_legacy,
                is_method=entry.get("method", True),
            )
        )
    return tuple(out)


def _names(value: str | list[str] | None) -> tuple[str, ...] | None:
    """A type in the spec's source syntax (``"Entry[] | null"``), a list of them (a
    union), or "" / [] for none; ``table.py`` reads the texts."""
    if value is None:
        return None
    if isinstance(value, str):
        return (value,) if value else ()
    return tuple(v for v in value if v)


def _envelope_fields(transport: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The key of each part of an event envelope ([transport.fields] over the Debug
    Adapter Protocol's); () for the other kinds."""
    if transport.get("kind") != "event-envelope":
        return ()
    given = schema.EnvelopeFieldsTable.model_validate(transport.get("fields", {}))
    return tuple(given.model_dump().items())
