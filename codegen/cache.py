"""The generation record: what produced each spec's output, so a no-op run skips the spec.

Phase: before the pipeline (``codegen generate`` and ``generate --check``).
Inputs: the files a spec's run reads (``spec_inputs``: spec.toml, its sources, the files
their includes name, its examples; not the rest of its folder), the options that shape
its output (``Options``), and the generator
itself (``fingerprint``: every module and built-in template of codegen, its installed
version, the formatter binary and the parser packages).
Outputs: ``<root>/.codegen_cache/records/<key>.json``, one per input key (a sha256 of all of
the above): the sha256 of every file the spec's run produced (root-relative), the output
folders the spec owns, its spec id, and its diagnostics as the run showed them.
Guarantees: a record maps inputs to outputs, never "what is on disk": it is written from the
rendered text, not from the files, so a record is true whoever writes the tree afterwards
(concurrent runs, a hand edit, a checkout).  A spec is skipped only when its key has a
record and every recorded file exists with the recorded hash and its output folders hold
no other (stale) file; an edited, missing or extra output file, or an interrupted write
(``.codegen-tx``), makes the spec run in full.  Records are written atomically (temporary
file and rename), keys are read before a spec is read and again after it is rendered and
the record is dropped when they differ (a spec edited during the run).  Nothing here
imports the IR, the frontends or Jinja: a no-op run stays within the start-up cost.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import stat
import sys
import tempfile
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from codegen import writer
from codegen.spec.include_syntax import (
    MAX_INCLUDED_DOCUMENTS,
    PROSE_DOCUMENTS,
    PROSE_INCLUDE,
    PROSE_INCLUDE_FOLDER,
    TS_INCLUDE,
)

__all__ = ["CACHE_DIR", "Cache", "Options", "Record", "fingerprint"]

CACHE_DIR = ".codegen_cache"
_FORMAT = "codegen-record-1"
_PACKAGE = Path(__file__).resolve().parent
# The output of a run that also lives in the spec folder (never an input of the key).
_SPEC_OUTPUTS = frozenset({"extracted.json"})
_SKIPPED_PARTS = frozenset(
    {
        *("__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".git"),
        *(CACHE_DIR, writer.TX_DIR),  # our own state, should it lie in a spec folder
    }
)
# Packages whose version changes what generation emits: the parsers, Jinja, the formatter.
_TOOLS = (
    "jinja2",
    "ruff",
    "tree_sitter",
    "tree_sitter_typescript",
    "tree_sitter_rust",
    "tree_sitter_go",
)
_KEEP_RECORDS = 256  # the oldest are pruned beyond this many


@dataclass(frozen=True)
class Options:
    """What, besides the spec folder, shapes one spec's output."""

    root: Path  # the folder the plan is relative to (project.base)
    output: Path  # <output>/<id>/ is written
    formatter: str
    strict: bool
    package: str | None  # [tool.codegen.spec.<id>] overrides
    distribution: str | None
    templates: Path | None  # the user's template folder, if any

    def data(self) -> dict[str, object]:
        return {
            "root": str(self.root),
            "output": str(self.output),
            "formatter": self.formatter,
            "strict": self.strict,
            "package": self.package,
            "distribution": self.distribution,
            "templates": _tree_hash(self.templates) if self.templates else None,
        }


@dataclass(frozen=True)
class Record:
    spec_id: str
    files: dict[str, str]  # root-relative path -> sha256 of its text
    owned: tuple[str, ...]  # root-relative output folders
    shown: str  # the spec's diagnostics as shown without --verbose
    shown_verbose: str  # with --verbose
    hidden_notes: int  # notes not shown without --verbose


def fingerprint() -> str:
    """The generator: its code, templates, version and the tools it runs."""
    return _fingerprint(_PACKAGE, _templates_dir(), _distribution(), _tools())


@functools.cache
def _fingerprint(
    package: Path, templates: Path, distribution: str, tools: tuple[str, ...]
) -> str:
    digest = hashlib.sha256(_FORMAT.encode())
    digest.update(f"{sys.version}\0{distribution}\0{tools}\0".encode())
    digest.update(_tree_hash(package, suffixes=(".py",)).encode())
    digest.update(_tree_hash(templates, suffixes=(".j2",)).encode())
    return digest.hexdigest()


def _templates_dir() -> Path:
    packaged = _PACKAGE / "templates"  # see codegen.backends.render (no Jinja here)
    return packaged if packaged.is_dir() else _PACKAGE.parent / "templates"


def _distribution() -> str:
    """The installed distribution's metadata folder (its name holds the version);
    ``importlib.metadata`` costs 0.1 s, a directory listing much less."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in sorted(names):
            if name.startswith("codegen-") and name.endswith(
                (".dist-info", ".egg-info")
            ):
                return name
    return "source checkout"


def _tools() -> tuple[str, ...]:
    out: list[str] = []
    for module in _TOOLS:
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec is not None else None
        out.append(f"{module}={origin}:{_stat(origin)}")
    ruff = Path(sys.executable).with_name("ruff")
    out.append(f"ruff-bin={ruff}:{_stat(str(ruff))}")
    return tuple(out)


def _stat(path: str | None) -> str:
    if path is None:
        return "-"
    try:
        info = os.stat(path)
    except OSError:
        return "-"
    return f"{info.st_size}:{info.st_mtime_ns}"


def _tree_hash(
    folder: Path,
    suffixes: tuple[str, ...] = (),
    skip: frozenset[str] = frozenset(),
    outside: tuple[Path, ...] = (),
) -> str:
    digest = hashlib.sha256()
    for path in sorted(_files(folder, outside)):
        rel = path.relative_to(folder).as_posix()
        if (suffixes and not rel.endswith(suffixes)) or rel in skip:
            continue
        digest.update(f"{rel}\0".encode())
        digest.update(_file_digest(path))
    return digest.hexdigest()


MAX_HASHED_BYTES = 256 * 1024 * 1024
"""Bytes of one file read for its hash; a larger file is keyed by its size and time."""


def _file_digest(path: Path) -> bytes:
    """What a file contributes to a key: the hash of its bytes, read in chunks and only
    from a regular file (a FIFO would block the read, ``/dev/zero`` never end it); any
    other kind of file, or one that cannot be read (a symlink loop), by what it is."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block open
    except (OSError, ValueError):
        return b"unreadable"
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return f"not a regular file: {stat.S_IFMT(info.st_mode)}".encode()
        if info.st_size > MAX_HASHED_BYTES:
            return f"large: {info.st_size}:{info.st_mtime_ns}".encode()
        os.set_blocking(fd, True)
        digest = hashlib.sha256()
        try:
            while chunk := stream.read(1 << 20):
                digest.update(chunk)
        except OSError:
            return b"unreadable"
        return digest.digest()


def _files(folder: Path, outside: tuple[Path, ...] = ()) -> Iterable[Path]:
    for directory, subdirs, names in os.walk(folder):
        subdirs[:] = [
            d
            for d in subdirs
            if d not in _SKIPPED_PARTS and Path(directory, d) not in outside
        ]
        for name in names:
            yield Path(directory, name)


def spec_key(spec_dir: Path, options: Options) -> str:
    """The key of one spec's inputs: the files its run reads (``spec_inputs``), the
    options, the generator.  Any other file in the spec folder is not read."""
    spec_dir = spec_dir.resolve()
    digest = hashlib.sha256(fingerprint().encode())
    digest.update(json.dumps(options.data(), sort_keys=True).encode())
    digest.update(str(spec_dir).encode() + b"\0")
    outside = (options.output.resolve(),)
    for path, contribution in spec_inputs(spec_dir, options.root, outside):
        digest.update(f"{path}\0".encode())
        digest.update(contribution)
    return digest.hexdigest()


_MAX_INCLUDES = MAX_INCLUDED_DOCUMENTS
_SCANNED_BYTES = 64 * 1024 * 1024  # a source larger than this is not searched


def spec_inputs(
    spec_dir: Path, root: Path, outside: tuple[Path, ...] = ()
) -> list[tuple[Path, bytes]]:
    """The files one spec's run reads, each with what it contributes to the key:
    ``spec.toml``, the sources it names (inside the folder or not), the files their
    include directives name (TypeScript's ``{@includeCode}``, prose's ``{% include %}``,
    transitively, as the frontends resolve them; a name that resolves nowhere is keyed
    by its candidates' absence), and the examples (``examples/``, but the
    ``extracted.json`` a run writes).  Each read is bounded and from regular files only
    (``_file_digest``)."""
    inputs: dict[Path, bytes] = {}
    toml = spec_dir / "spec.toml"
    inputs[toml] = _file_digest(toml)
    pending = _sources(spec_dir)
    while pending and len(inputs) < _MAX_INCLUDES + 1000:
        path = pending.pop(0)
        if path in inputs:
            continue
        inputs[path] = _file_digest(path)
        pending.extend(p for p in _includes(path, root) if p not in inputs)
    examples = spec_dir / "examples"
    if examples.is_dir() and not examples.is_symlink():
        skip = {examples / name for name in _SPEC_OUTPUTS}
        for path in sorted(_files(examples, outside)):
            if path not in skip:
                inputs[path] = _file_digest(path)
    return sorted(inputs.items())


def _sources(spec_dir: Path) -> list[Path]:
    """The sources spec.toml names (a spec.toml that cannot be read: none; check
    reports it)."""
    try:
        data = tomllib.loads((spec_dir / "spec.toml").read_text(encoding="utf-8"))
        sources = data.get("spec", {}).get("sources", [])
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AttributeError):
        return []
    except RecursionError:  # a TOML array nested thousands deep: check reports it
        return []
    if not isinstance(sources, list):
        return []
    out = []
    for source in sources:
        if isinstance(source, str):
            try:
                out.append((spec_dir / source).resolve())
            except (OSError, ValueError, RuntimeError):  # a NUL in it, a symlink loop
                continue  # not a file anyone reads: check reports the source
    return out


def _includes(path: Path, root: Path) -> list[Path]:
    """The files ``path``'s include directives name, each where its frontend looks
    (a missing one: every place looked, so that creating it changes the key)."""
    text = _bounded_text(path)
    if text is None or "include" not in text:  # both directives say it
        return []
    out: list[Path] = []
    for match in TS_INCLUDE.finditer(text):
        out.append(_resolved(path.parent / match.group(1)))
    if path.suffix.lower() in PROSE_DOCUMENTS:
        for match in PROSE_INCLUDE.finditer(text):
            name = match.group("file")
            beside = _resolved(path.parent / name)
            out.append(beside)
            if match.group("relative") or _is_file(beside):
                continue
            folder = path.parent
            while True:  # an _includes folder here or above, up to the root
                out.append(_resolved(folder / PROSE_INCLUDE_FOLDER / name))
                if folder == root or folder.parent == folder:
                    break
                if root not in folder.parents:
                    break
                folder = folder.parent
    return out[:_MAX_INCLUDES]


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, ValueError, RuntimeError):
        return path


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _bounded_text(path: Path) -> str | None:
    """A regular file's text for its include directives (bounded, never blocking)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError):
        return None
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _SCANNED_BYTES:
            return None
        os.set_blocking(fd, True)
        try:
            return stream.read(_SCANNED_BYTES).decode("utf-8", "replace")
        except OSError:
            return None


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Cache:
    """The records under ``<root>/.codegen_cache``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = root / CACHE_DIR / "records"

    def usable(self) -> bool:
        """False while an interrupted write waits to be finished (its journal)."""
        return not (self.root / writer.TX_DIR).exists()

    def lookup(self, key: str) -> Record | None:
        """The record of ``key`` when the tree holds exactly what it says."""
        try:
            data = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
            record = Record(
                str(data["spec_id"]),
                {str(k): str(v) for k, v in data["files"].items()},
                tuple(str(d) for d in data["owned"]),
                str(data["shown"]),
                str(data["shown_verbose"]),
                int(data["hidden_notes"]),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        return record if self._on_disk(record) else None

    def _on_disk(self, record: Record) -> bool:
        for rel, digest in record.files.items():
            try:
                data = (self.root / rel).read_bytes()
            except OSError:
                return False
            if hashlib.sha256(data).hexdigest() != digest:
                return False
        try:
            present = writer.owned_files(
                self.root, list(record.owned), frozenset(record.files)
            )
        except OSError:
            return False
        inside = {
            rel
            for rel in record.files
            if any(rel.startswith(d.rstrip("/") + "/") for d in record.owned)
        }
        return present == inside

    def store(self, key: str, record: Record) -> None:
        """Write the record of ``key`` (atomically; a failure only costs the next run)."""
        payload = {
            "format": _FORMAT,
            "spec_id": record.spec_id,
            "files": dict(sorted(record.files.items())),
            "owned": list(record.owned),
            "shown": record.shown,
            "shown_verbose": record.shown_verbose,
            "hidden_notes": record.hidden_notes,
        }
        try:
            self.ensure()
            _atomic_write(self.folder / f"{key}.json", json.dumps(payload, indent=1))
            self._prune()
        except OSError:
            pass

    def ensure(self) -> None:
        """Create the cache folder, ignored by git and tagged as a cache (may raise
        ``OSError``)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        top = self.root / CACHE_DIR
        for name, text in ((".gitignore", "*\n"), ("CACHEDIR.TAG", _TAG)):
            if not (top / name).exists():
                _atomic_write(top / name, text)

    def templates_folder(self) -> Path | None:
        """Where compiled templates of this generator are kept, created; None when the
        cache cannot be written (templates are then compiled each run)."""
        folder = self.root / CACHE_DIR / "jinja" / fingerprint()[:24]
        try:
            self.ensure()
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return None
        return folder

    def _prune(self) -> None:
        records = list(self.folder.glob("*.json"))
        if len(records) <= _KEEP_RECORDS:
            return
        records.sort(key=lambda p: p.stat().st_mtime_ns)
        for old in records[: len(records) - _KEEP_RECORDS]:
            old.unlink(missing_ok=True)


_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by codegen.\n"
)


def _atomic_write(path: Path, text: str) -> None:
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
