"""Resolve one side of ``codegen diff`` (OLD or NEW) to a loaded, normalized protocol.

Phase: spec diff, first step.
Inputs: a side argument, as a user passes it: a spec directory, a spec id under ``specs/``,
a single source file (``.ts``, ``.rs``, ``.go``, ``.godoc.txt``, ``.md``/``.txt`` for prose),
or ``REV:path`` naming either of those at a git revision (``HEAD~1:specs/acp``,
``main:specs/ahp/commands.ts``; the path is relative to the repository's top, ``./x`` to the
current directory; a bare spec id is looked up under ``specs/``).
Outputs: a ``Side``: the protocol after the frontend and the passes, and how to show its
spans (``HEAD~1:specs/acp/schema.rs:12:3``, or a path relative to the repository the diff
runs in, never an absolute one).
Guarantees: a plain path outside the repository the diff runs in is refused unless the caller
opts in (``outside=True``, the command's ``--outside``); run from outside any repository, any
path is a side; a ``REV:path`` leaving the repository is always refused.  A single source file
takes its settings (roles, method table, externals) from the spec that owns it (a ``spec.toml`` beside it or above it that lists it among its sources), so
a file compared with its own spec reports nothing; a file no spec owns gets settings inferred
from its source (``infer``).  A side that cannot be read (bad revision, missing path, unknown
suffix, a spec with errors) raises ``SideError`` with a message for the user, never a
traceback; git sides are extracted into a temporary directory removed when the context
exits; nothing in the working tree is written.
"""

from __future__ import annotations

import io
import os
import stat
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from codegen import ir
from codegen.diagnostics import Diagnostics, render_all
from codegen.diff.infer import SideError, language_of, write_spec_toml
from codegen.pipeline import load_protocol
from codegen.spec.config import find_repo_root, load_config

__all__ = ["Side", "SideError", "open_side"]


@dataclass
class Side:
    arg: str
    protocol: ir.Protocol
    base: Path  # span files are relative to this directory
    shown_root: Path  # paths are shown relative to this directory
    prefix: str = ""  # a git side: "HEAD~1:", span files relative to the repository top
    renames: dict[str, str] | None = None  # span file → path to show instead

    def path(self, span: ir.Span | None) -> str | None:
        """The file of a span as the report shows it; None where there is none."""
        if span is None or span.line == 0:
            return None
        if self.renames and span.file in self.renames:
            return self.renames[span.file]
        if self.prefix:
            return f"{self.prefix}{span.file}"
        return _relative(self.base / span.file, self.shown_root)

    @property
    def shown(self) -> str:
        """The side as the report names it: the argument, a local path made relative."""
        if ":" not in self.arg or Path(self.arg).exists():
            path = Path(self.arg)
            if path.is_absolute():
                return _relative(path, self.shown_root)
        return self.arg

    def where(self, span: ir.Span | None) -> str:
        path = self.path(span)
        if path is None or span is None:
            return "-"
        return f"{path}:{span.line}:{span.col}"


@contextmanager
def open_side(
    arg: str, cwd: Path | None = None, *, outside: bool = False
) -> Iterator[Side]:
    """Load one side; temporary files live until the context exits.  ``outside``
    admits plain paths outside the repository (a spec vendored elsewhere)."""
    cwd = (cwd or Path.cwd()).resolve()
    with tempfile.TemporaryDirectory(prefix="codegen-diff-") as tmp:
        yield _resolve(arg, cwd, Path(tmp), outside)


def _resolve(arg: str, cwd: Path, tmp: Path, outside: bool) -> Side:
    shown_root = find_repo_root(cwd)
    local = cwd / arg
    if arg and local.exists():
        found = local.resolve()
        leaves = _in_a_project(shown_root) and not found.is_relative_to(shown_root)
        if leaves and not outside:
            raise SideError(
                f"{arg!r} is outside the repository ({_relative(found, shown_root)}); "
                "compare a spec or source of this repository or REV:path, or pass "
                "--outside to read it anyway"
            )
        return _local(arg, found, tmp, shown_root)
    by_id = shown_root / "specs" / arg
    if arg and "/" not in arg and (by_id / "spec.toml").is_file():
        return _load(arg, by_id, find_repo_root(by_id), shown_root)
    if ":" in arg:
        rev, _, path = arg.partition(":")
        return _git(arg, rev, path, cwd, tmp, shown_root)
    raise SideError(
        f"{arg!r} is not a spec directory, a spec id, a source file or REV:path"
    )


def _in_a_project(root: Path) -> bool:
    """Whether ``root`` is a repository (run from elsewhere, every path is a side)."""
    return (root / "pyproject.toml").is_file() or (root / ".git").exists()


def _local(arg: str, path: Path, tmp: Path, shown_root: Path) -> Side:
    if path.is_dir():
        if not (path / "spec.toml").is_file():
            raise SideError(f"{arg!r} is a directory without a spec.toml")
        return _load(arg, path, _root_of(path), shown_root)
    owner = _owning_spec(path)
    if owner is not None:
        return _load(arg, owner, _root_of(owner), shown_root)
    side = _single_file(arg, path.name, _read_source(arg, path), tmp, shown_root)
    side.renames = {path.name: _relative(path, shown_root)}
    return side


MAX_SOURCE_BYTES = 64 * 1024 * 1024
"""The largest single source file a side reads (every real spec source is far smaller)."""


def _read_source(arg: str, path: Path) -> bytes:
    """The bytes of a regular file of at most ``MAX_SOURCE_BYTES``; a FIFO, a device
    (``/dev/zero``) or a huge file is a ``SideError``, never a hang or a memory blow-up.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block open
    except OSError as exc:
        raise SideError(f"{arg!r}: cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SideError(f"{arg!r} is not a regular file (a FIFO or a device)")
        if info.st_size > MAX_SOURCE_BYTES:
            raise SideError(f"{arg!r} is over {MAX_SOURCE_BYTES} bytes: not a source")
        os.set_blocking(fd, True)
        return stream.read(MAX_SOURCE_BYTES + 1)[:MAX_SOURCE_BYTES]


def _root_of(spec_dir: Path) -> Path:
    """The directory span files are relative to: the repository holding the spec, or the
    spec directory itself when it lies in none."""
    root = find_repo_root(spec_dir)
    if root == spec_dir or not spec_dir.is_relative_to(root):
        return spec_dir
    return root


def _owning_spec(path: Path) -> Path | None:
    """The spec directory (this one or an ancestor) whose spec.toml lists ``path``."""
    for candidate in path.parents:
        if (candidate / "spec.toml").is_file():
            config = load_config(candidate, Diagnostics("sides"))
            if config is not None and path in (
                p.resolve() for p in config.source_paths()
            ):
                return candidate
            return None  # the nearest spec does not own it: it stands alone
        if (candidate / "pyproject.toml").exists() or (candidate / ".git").exists():
            return None
    return None


def _single_file(arg: str, name: str, data: bytes, tmp: Path, shown_root: Path) -> Side:
    language = language_of(name)
    if language is None:
        raise SideError(
            f"{arg!r}: cannot tell the source language from its name "
            "(known: .ts, .rs, .go, .godoc.txt, .md, .markdown, .txt)"
        )
    spec_dir = tmp / "spec"
    spec_dir.mkdir()
    (spec_dir / name).write_bytes(data)
    write_spec_toml(spec_dir, name, language, data.decode("utf-8", errors="replace"))
    side = _load(arg, spec_dir, spec_dir, shown_root)
    if not side.protocol.methods and not side.protocol.decls:
        # Any text reads as a prose spec of nothing: compared with a spec, that would
        # report every method and type as removed or added.
        raise SideError(
            f"{arg!r} declares no types and no methods: not a spec source "
            "(a spec folder, or a source file its spec.toml lists, is)"
        )
    return side


def _load(arg: str, spec_dir: Path, root: Path, shown_root: Path) -> Side:
    outcome = load_protocol(spec_dir, root)
    if outcome.protocol is None or outcome.diags.has_errors():
        errors = Diagnostics(items=outcome.diags.errors())
        detail = render_all(errors, root)
        raise SideError(f"{arg!r} cannot be read as a spec:\n{detail}".rstrip())
    return Side(arg, outcome.protocol, root, shown_root)


def _relative(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` (``../x`` when outside it): never a machine path."""
    return Path(os.path.relpath(path, root)).as_posix()


# --------------------------------------------------------------------------- git


def _git(arg: str, rev: str, path: str, cwd: Path, tmp: Path, shown_root: Path) -> Side:
    if not rev:
        raise SideError(f"{arg!r}: empty revision before ':'")
    top = _run_git(["rev-parse", "--show-toplevel"], cwd, arg).decode().strip()
    top_dir = Path(top)
    if path.startswith(("./", "../")) or path in (".", ".."):
        resolved = (cwd / path).resolve()
        if not resolved.is_relative_to(top_dir.resolve()):
            raise SideError(
                f"{arg!r}: {path} is outside the repository; a revision holds only "
                "paths inside it"
            )
        path = resolved.relative_to(top_dir.resolve()).as_posix()
    path = path.strip("/")
    # From here on paths are the repository's: git archive reads a pathspec relative to
    # its working directory, so it runs at the top (`codegen diff` from a subfolder).
    cwd = top_dir
    _run_git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd, arg)
    kind = _object_type(rev, path, cwd)
    if kind is None and "/" not in path:
        kind = _object_type(rev, f"specs/{path}", cwd)
        path = f"specs/{path}" if kind else path
    if kind is None:
        raise SideError(f"{arg!r}: no path {path!r} at revision {rev!r}")
    if kind == "blob":
        owner = _git_owner(rev, path, cwd, tmp, arg)
        if owner is not None:
            side = _load(arg, owner, tmp / "tree", shown_root)
            side.prefix = f"{rev}:"
            return side
        data = _run_git(["show", f"{rev}:{path}"], cwd, arg)
        side = _single_file(arg, Path(path).name, data, tmp, shown_root)
        side.renames = {Path(path).name: f"{rev}:{path}"}
        return side
    spec_dir = _extract(rev, path, cwd, tmp, arg)
    if not (spec_dir / "spec.toml").is_file():
        raise SideError(f"{arg!r}: {path}/ has no spec.toml at revision {rev!r}")
    side = _load(arg, spec_dir, tmp / "tree", shown_root)
    side.prefix = f"{rev}:"
    return side


def _git_owner(rev: str, path: str, cwd: Path, tmp: Path, arg: str) -> Path | None:
    """The spec directory owning a file at a revision, extracted; None if none owns it."""
    parent = Path(path).parent
    while parent.as_posix() not in ("", "."):
        if _object_type(rev, f"{parent.as_posix()}/spec.toml", cwd) == "blob":
            spec_dir = _extract(rev, parent.as_posix(), cwd, tmp, arg)
            owner = _owning_spec(spec_dir / Path(path).relative_to(parent))
            return owner
        parent = parent.parent
    return None


def _extract(rev: str, path: str, cwd: Path, tmp: Path, arg: str) -> Path:
    archive = _run_git(["archive", "--format=tar", rev, "--", path], cwd, arg)
    root = tmp / "tree"
    root.mkdir(exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    return root / path


def _object_type(rev: str, path: str, cwd: Path) -> str | None:
    done = subprocess.run(
        ["git", "cat-file", "-t", f"{rev}:{path}"],
        cwd=cwd,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        return None
    kind = done.stdout.decode().strip()
    return kind if kind in ("blob", "tree") else None


def _run_git(args: list[str], cwd: Path, arg: str) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as exc:
        raise SideError(f"{arg!r}: cannot run git: {exc}") from exc
    if done.returncode != 0:
        stderr = done.stderr.decode(errors="replace").strip()
        if args[:2] == ["rev-parse", "--verify"]:
            raise SideError(f"{arg!r}: unknown revision {args[-1][:-9]!r}")
        raise SideError(f"{arg!r}: git {args[0]} failed: {stderr or 'no output'}")
    return done.stdout
