"""Resolve one side of ``codegen diff`` (OLD or NEW) to a loaded, normalized protocol.

Phase: spec diff, first step.
Inputs: a side argument: a spec directory, a spec id under ``specs/``, a single source file
(``.ts``, ``.rs``, ``.go``, ``.md``/``.txt`` for prose), or ``REV:path`` naming either of the
first and the last at a git revision (``HEAD~1:specs/acp``, ``main:specs/ahp/commands.ts``;
the path is relative to the repository's top, ``./x`` to the current directory; a bare spec id
is looked up under ``specs/``).
Outputs: a ``Side``: the protocol after the frontend and the passes, and how to print its spans
(``HEAD~1:specs/acp/schema.rs:12:3``, or the original path of a single file).
Guarantees: a side that cannot be read (bad revision, missing path, unknown suffix, a spec
with errors) raises ``SideError`` with a message for the user, never a traceback; git sides
are extracted into a temporary directory removed when the context exits; nothing in the
working tree is written.
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from codegen import ir
from codegen.diagnostics import Diagnostics, render_all
from codegen.pipeline import load_protocol
from codegen.spec.config import find_repo_root

SUFFIX_LANGUAGES = {
    ".ts": "typescript",
    ".rs": "rust",
    ".go": "go",
    ".md": "prose",
    ".markdown": "prose",
    ".txt": "prose",
}


class SideError(Exception):
    """A side of the diff cannot be read; the message is for the user."""


@dataclass
class Side:
    arg: str
    protocol: ir.Protocol
    prefix: str = ""  # printed before every span file ("HEAD~1:")
    files: dict[str, str] = field(default_factory=dict)  # span file → shown path

    def where(self, span: ir.Span | None) -> str:
        if span is None or span.line == 0:
            return "-"
        shown = self.files.get(span.file, span.file)
        return f"{self.prefix}{shown}:{span.line}:{span.col}"


@contextmanager
def open_side(arg: str, cwd: Path | None = None) -> Iterator[Side]:
    """Load one side; temporary files live until the context exits."""
    cwd = (cwd or Path.cwd()).resolve()
    with tempfile.TemporaryDirectory(prefix="codegen-diff-") as tmp:
        yield _resolve(arg, cwd, Path(tmp))


def _resolve(arg: str, cwd: Path, tmp: Path) -> Side:
    local = cwd / arg
    if arg and local.exists():
        return _local(arg, local, tmp)
    by_id = find_repo_root(cwd) / "specs" / arg
    if arg and "/" not in arg and (by_id / "spec.toml").is_file():
        return _load(arg, by_id, find_repo_root(by_id))
    if ":" in arg:
        rev, _, path = arg.partition(":")
        return _git(arg, rev, path, cwd, tmp)
    raise SideError(
        f"{arg!r} is not a spec directory, a spec id, a source file or REV:path"
    )


def _local(arg: str, path: Path, tmp: Path) -> Side:
    if path.is_dir():
        if not (path / "spec.toml").is_file():
            raise SideError(f"{arg!r} is a directory without a spec.toml")
        spec_dir = path.resolve()
        root = find_repo_root(spec_dir)
        if root == spec_dir or not spec_dir.is_relative_to(root):
            # Not inside a repository: spans are relative to the spec directory, so
            # print them under the path the user gave.
            side = _load(arg, spec_dir, spec_dir)
            side.prefix = f"{arg.rstrip('/')}/"
            return side
        return _load(arg, spec_dir, root)
    return _single_file(arg, path.name, path.read_bytes(), tmp, shown=arg)


def _single_file(arg: str, name: str, data: bytes, tmp: Path, shown: str) -> Side:
    language = SUFFIX_LANGUAGES.get(Path(name).suffix.lower())
    if language is None:
        known = ", ".join(sorted(SUFFIX_LANGUAGES))
        raise SideError(
            f"{arg!r}: cannot tell the source language from its suffix "
            f"(known: {known})"
        )
    spec_dir = tmp / "spec"
    spec_dir.mkdir()
    (spec_dir / name).write_bytes(data)
    spec_id = re.sub(r"[^A-Za-z0-9_]", "_", Path(name).stem) or "spec"
    (spec_dir / "spec.toml").write_text(
        f'[spec]\nid = "{spec_id}"\nlanguage = "{language}"\n'
        f"sources = [{_toml_str(name)}]\n",
        encoding="utf-8",
    )
    side = _load(arg, spec_dir, spec_dir)
    side.files[name] = shown
    return side


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _load(arg: str, spec_dir: Path, root: Path) -> Side:
    outcome = load_protocol(spec_dir, root)
    if outcome.protocol is None or outcome.diags.has_errors():
        errors = Diagnostics(items=outcome.diags.errors())
        detail = render_all(errors, root)
        raise SideError(f"{arg!r} cannot be read as a spec:\n{detail}".rstrip())
    return Side(arg, outcome.protocol)


# --------------------------------------------------------------------------- git


def _git(arg: str, rev: str, path: str, cwd: Path, tmp: Path) -> Side:
    if not rev:
        raise SideError(f"{arg!r}: empty revision before ':'")
    top = _run_git(["rev-parse", "--show-toplevel"], cwd, arg).decode().strip()
    top_dir = Path(top)
    if path.startswith(("./", "../")) or path in (".", ".."):
        path = (cwd / path).resolve().relative_to(top_dir.resolve()).as_posix()
    path = path.strip("/")
    _run_git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd, arg)
    kind = _object_type(rev, path, cwd)
    if kind is None and "/" not in path:
        kind = _object_type(rev, f"specs/{path}", cwd)
        path = f"specs/{path}" if kind else path
    if kind is None:
        raise SideError(f"{arg!r}: no path {path!r} at revision {rev!r}")
    if kind == "blob":
        data = _run_git(["show", f"{rev}:{path}"], cwd, arg)
        return _single_file(arg, Path(path).name, data, tmp, shown=f"{rev}:{path}")
    archive = _run_git(["archive", "--format=tar", rev, "--", path], cwd, arg)
    root = tmp / "tree"
    root.mkdir()
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    spec_dir = root / path
    if not (spec_dir / "spec.toml").is_file():
        raise SideError(f"{arg!r}: {path}/ has no spec.toml at revision {rev!r}")
    side = _load(arg, spec_dir, root)
    side.prefix = f"{rev}:"
    return side


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
