"""Package backend: what makes a generated Python package self-describing and installable.

Phase: backend (runs after the other Python-emitting backends, over their output).
Inputs: the normalized ``ir.Protocol``, the import name and distribution name, and the files
the other backends produced for the package.
Outputs: ``python/<pkg>/_provenance.py`` (spec id and version, each source's path and sha256,
the generator's version, a hash of the normalized IR, and the sha256 of every other file of
the package), ``python/pyproject.toml`` (installable on its own: pydantic only, aiohttp and uvloop
under the ``server`` extra), ``python/README.md`` (what the package needs and a first
use) and ``python/.gitignore`` (the build output of installing it).
Guarantees: no timestamps and no machine paths, so the output is a pure function of the
spec and the generator; the IR hash ignores source positions, so moving a declaration or
editing a comment does not change it.  ``PackageFacts`` is all this backend needs of the IR
(small and picklable: a worker process computes it, the parent renders the files after the
one formatter run of all specs).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import re
from collections.abc import Callable
from importlib import metadata
from typing import Any

from codegen import ir
from codegen.backends.escape import py_comment, toml_str
from codegen.backends.formatting import format_python
from codegen.backends.python.bindings import PYDANTIC_REQUIREMENT, PYTHON_FLOOR
from codegen.ir import dump as ir_dump

PROVENANCE = "_provenance.py"
README = "README.md"
_PEP440 = re.compile(r"^\d+(\.\d+)*$")


@functools.cache
def generator_version() -> str:
    try:
        return f"codegen {metadata.version('codegen')}"
    except metadata.PackageNotFoundError:
        return "codegen (source checkout)"


def ir_sha256(protocol: ir.Protocol) -> str:
    """A hash of the normalized IR without source positions or source hashes: the hash of
    ``ir.dump.to_data`` of the IR with every span ``NO_SPAN`` and no sources, built in
    one walk (no rewritten copy of the IR; tests/unit/test_speed_paths.py proves it equal).
    """
    data = _blank_data(protocol)
    text = json.dumps(data, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_NO_SPAN_DATA = ir_dump.to_data(ir.NO_SPAN)
_NO_VALUE = object()
# Per node type: (name, default or _NO_VALUE) of each field, the default made once.
_FIELDS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _fields(kind: type) -> tuple[tuple[str, Any], ...]:
    found = _FIELDS.get(kind)
    if found is None:
        found = tuple(
            (
                f.name,
                (
                    f.default
                    if f.default is not dataclasses.MISSING
                    else (
                        f.default_factory()
                        if f.default_factory is not dataclasses.MISSING
                        else _NO_VALUE
                    )
                ),
            )
            for f in dataclasses.fields(kind)
        )
        _FIELDS[kind] = found
    return found


# Types known not to be dataclasses (strings, numbers, enums...): asked once per type, not
# once per value (``dataclasses.is_dataclass`` was a large share of the walk).
_NOT_DATACLASSES: set[type] = set()


def _node_fields(kind: type) -> tuple[tuple[str, Any], ...] | None:
    """The fields of a dataclass type (see ``_fields``), None for any other type."""
    found = _FIELDS.get(kind)
    if found is None and kind not in _NOT_DATACLASSES:
        if dataclasses.is_dataclass(kind):
            return _fields(kind)
        _NOT_DATACLASSES.add(kind)
    return found


# Values that ``_blank_data`` keeps as they are and ``_blank_identical`` compares with
# ``==`` (exact types: an enum member with a ``str`` mixin is no plain value).
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None)})


def _blank_data(node: Any) -> Any:
    kind = type(node)
    if kind is ir.Span:
        return _NO_SPAN_DATA
    fields = _node_fields(kind)
    if fields is not None:
        out: dict[str, Any] = {"node": kind.__name__}
        protocol = kind is ir.Protocol
        for name, default in fields:
            value = () if protocol and name == "sources" else getattr(node, name)
            if type(value) in _PLAIN_TYPES:  # most fields: no call for them
                if default is _NO_VALUE or value != default:
                    out[name] = value
                continue
            if default is not _NO_VALUE and _blank_identical(value, default):
                continue
            out[name] = _blank_data(value)
        return out
    if kind is tuple or kind is list:
        return [_blank_data(item) for item in node]
    if isinstance(node, enum.Enum):
        return node._value_  # what ``.value`` returns, without the descriptor
    if isinstance(node, (tuple, list)):
        return [_blank_data(item) for item in node]
    return node


def _blank_identical(left: Any, right: Any) -> bool:
    """``ir.dump``'s default test, on the blanked IR (a span counts as ``NO_SPAN``)."""
    if left is right:  # defaults are shared objects: None, (), NO_SPAN, an enum member
        return True
    if type(left) is ir.Span:
        left = ir.NO_SPAN
    fields = _node_fields(type(left))
    if fields is not None:
        return type(left) is type(right) and all(
            _blank_identical(getattr(left, name), getattr(right, name))
            for name, _ in fields
        )
    return bool(left == right)


@dataclasses.dataclass(frozen=True)
class PackageFacts:
    """What the package files say about the spec (see ``facts``)."""

    id: str
    title: str
    version: str
    sources: tuple[tuple[str, str], ...]  # (path, sha256)
    ir_sha256: str


def facts(protocol: ir.Protocol) -> PackageFacts:
    return PackageFacts(
        protocol.id,
        protocol.title,
        protocol.version,
        tuple((s.path, s.sha256) for s in protocol.sources),
        ir_sha256(protocol),
    )


def render(
    protocol: ir.Protocol | PackageFacts,
    package: str,
    distribution: str,
    files: dict[str, str],
) -> dict[str, str]:
    """``files``: the package's other files, keyed ``python/<pkg>/...`` as the backends give."""
    if isinstance(protocol, ir.Protocol):
        protocol = facts(protocol)
    prefix = f"python/{package}/"
    hashes = {
        path[len(prefix) :]: hashlib.sha256(text.encode("utf-8")).hexdigest()
        for path, text in sorted(files.items())
        if path.startswith(prefix)
    }
    return {
        f"{prefix}{PROVENANCE}": _provenance(protocol, package, hashes),
        "python/pyproject.toml": _pyproject(protocol, package, distribution),
        "python/README.md": _readme(protocol, package, distribution, files),
        "python/.gitignore": _GITIGNORE,
        "python/setup.cfg": _SETUP_CFG,
    }


# `pip install .` in the package's folder leaves these behind; they are not the package's
# (and `codegen generate --check` ignores them too).
_GITIGNORE = (
    "# generated by codegen — do not edit: build output of `pip install .` here\n"
    ".build/\n"
    "build/\n"
    "dist/\n"
    "*.egg-info/\n"
    "__pycache__/\n"
)


# setuptools builds in ``.build/`` rather than ``build/``: a copy of the package in
# ``build/lib`` would be a second module of the same name to mypy and pyright run over the
# user's source tree; both skip folders whose name starts with a dot.
_SETUP_CFG = (
    "# generated by codegen — do not edit: `pip install .` here builds in .build/, out of\n"
    "# the way of type checkers run over your source tree (they skip dot-folders).\n"
    "[build]\n"
    "build_base = .build\n"
)


def _provenance(protocol: PackageFacts, package: str, hashes: dict[str, str]) -> str:
    """The module as ``ruff format`` leaves it: laid out here when every value is a plain
    string (the common case: no formatter process), else formatted by ruff."""
    values = [protocol.id, protocol.version, package, generator_version()]
    values += [part for pair in protocol.sources for part in pair] + list(hashes)
    if protocol.sources and hashes and all(_PLAIN.fullmatch(value) for value in values):
        text = _provenance_text(protocol, package, hashes, _plain_str)
        if max(len(line) for line in text.splitlines()) <= _LINE_LENGTH:
            return text
    return format_python(
        _provenance_text(protocol, package, hashes, repr), filename=PROVENANCE
    )


# Strings ruff writes back as they are between double quotes (no quote, backslash or
# control to normalize).
_PLAIN = re.compile(r"[^\\\"'\x00-\x1f\x7f-\x9f\u2028\u2029]*")
_LINE_LENGTH = 88


def _plain_str(value: str) -> str:
    return f'"{value}"'


def _provenance_text(
    protocol: PackageFacts,
    package: str,
    hashes: dict[str, str],
    quote: Callable[[str], str],
) -> str:
    sources = ""
    for path, digest in protocol.sources:
        one_line = f"    ({quote(path)}, {quote(digest)}),\n"
        if len(one_line) - 1 <= _LINE_LENGTH:
            sources += one_line
        else:  # ruff's split of a tuple too long for its line
            sources += (
                f"    (\n        {quote(path)},\n        {quote(digest)},\n    ),\n"
            )
    files = "".join(
        f"    {quote(name)}: {quote(digest)},\n" for name, digest in hashes.items()
    )
    return (
        f"# generated by codegen from spec '{py_comment(protocol.id)}' — do not edit; "
        "run `codegen generate` to regenerate.\n"
        '"""Where this package came from: its spec, the spec\'s sources and the generator.\n\n'
        "``FILES`` holds the sha256 of every other file of the package as generated, so a\n"
        "vendored copy can tell which files were edited by hand (``codegen vendor --check``).\n"
        '"""\n\n'
        f"SPEC_ID = {quote(protocol.id)}\n"
        f"SPEC_VERSION = {quote(protocol.version)}\n"
        f"PACKAGE = {quote(package)}\n"
        f"GENERATOR = {quote(generator_version())}\n"
        f"IR_SHA256 = {quote(protocol.ir_sha256)}\n"
        f"SOURCES: tuple[tuple[str, str], ...] = (\n{sources})\n"
        f"FILES: dict[str, str] = {{\n{files}}}\n"
    )


def _pyproject(protocol: PackageFacts, package: str, distribution: str) -> str:
    version = protocol.version if _PEP440.match(protocol.version) else "0"
    # A one-line summary (packaging metadata refuses line breaks), as a TOML string.
    summary = " ".join(
        f"Typed bindings for {protocol.title} (spec '{protocol.id}'), "
        "generated by codegen".split()
    )
    return (
        f"# generated by codegen from spec '{py_comment(protocol.id)}' — do not edit; "
        "run `codegen generate` to regenerate.\n"
        "[build-system]\n"
        'requires = ["setuptools>=68"]\n'
        'build-backend = "setuptools.build_meta"\n\n'
        "[project]\n"
        f"name = {toml_str(distribution)}\n"
        f"version = {toml_str(version)}\n"
        f"description = {toml_str(summary)}\n"
        f"readme = {toml_str(README)}\n"
        f"requires-python = {toml_str(PYTHON_FLOOR)}\n"
        f"dependencies = [{toml_str('pydantic' + PYDANTIC_REQUIREMENT)}]\n\n"
        "[project.optional-dependencies]\n"
        'server = ["aiohttp>=3.9,<4", '
        "\"uvloop>=0.19,<1; sys_platform != 'win32' and "
        "platform_python_implementation == 'CPython'\"]\n\n"
        "[tool.setuptools]\n"
        # The runtime is a subpackage: setuptools installs only the packages listed.
        f"packages = [{toml_str(package)}, {toml_str(package + '._rpc')}]\n\n"
        "[tool.setuptools.package-data]\n"
        f'{toml_str(package)} = ["py.typed"]\n'
    )


def _readme(
    protocol: PackageFacts, package: str, distribution: str, files: dict[str, str]
) -> str:
    """The package's README: its requirements (the pydantic floor first) and a start."""
    has = {path.rsplit("/", 1)[-1] for path in files}
    lines = [
        f"<!-- generated by codegen from spec '{_md(protocol.id)}' — do not edit -->",
        f"# {_md(distribution)}",
        "",
        (
            f"Typed bindings of {_md(protocol.title)} (spec `{_md(protocol.id)}`), "
            "generated by codegen: pydantic models that read and write the wire "
            "exactly, the method registry `METHODS`, the error codes"
            + (", a stub server and a typed client." if "client.py" in has else ".")
        ),
        "",
        "## Requirements",
        "",
        f"- Python {PYTHON_FLOOR}",
        (
            f"- pydantic {PYDANTIC_REQUIREMENT} (older releases lack "
            "`pydantic.MISSING`; importing the package with one says so)"
        ),
        (
            "- aiohttp, for the WebSocket and HTTP transports only, and uvloop, "
            "which the stub server runs on when it is installed (`--loop`) "
            f"(both: `pip install '{_md(distribution)}[server]'`)"
        ),
        "",
        "## Use",
        "",
        "```python",
        f"from {package} import METHODS, RpcError",
        "",
        "for name, info in METHODS.items():",
        "    print(name, info.kind, info.sender, '->', info.receiver)",
        "",
        "error = RpcError(-32603, 'internal error', {'detail': 'x'})",
        "print(error.code, error)  # the text includes data",
        "```",
        "",
        (
            "Models take snake_case keyword arguments and write wire names; tags "
            "fill themselves in; a keyword the model does not declare is an error, "
            "while a message read with `model_validate_json` keeps its unknown keys."
        ),
        "",
    ]
    return "\n".join(lines)


def _md(text: str) -> str:
    """Spec text inside Markdown: one line, no HTML, no code-span breaks."""
    return " ".join(
        text.replace("<", "&lt;").replace(">", "&gt;").replace("`", "'").split()
    )
