"""``{% include file.md %}`` in a prose spec: the included pages are read as sources too.

Phase: frontend, before blocks are read (``prose.reader.read_spec``).
Inputs: the spec's source texts and the repository root they are relative to.
Outputs: the sources followed by every page they include (transitively, each once, in the
order the directives appear), each a ``SourceText`` of its own so spans point into the
page that holds the text.
Guarantees: never raises; an include whose file is not found (relative to the including
page, then in an ``_includes`` folder of the page's folder or of any folder above it up to
the repository root, as static site generators look) is a SYN002 warning at the directive
(what it holds is missing);
an include of a page already read (a cycle, or the same page twice) adds nothing.

The forms read are Liquid's (Jekyll, GitHub Pages): ``{% include file.md %}``,
``{% include "file.md" %}``, ``{% include_relative file.md %}``, with or without
parameters after the file name (``{% include note.md title="x" %}``).
"""

from __future__ import annotations

import os
from pathlib import Path

from codegen.diagnostics import Diagnostics
from codegen.frontends.prose.methods import DocText
from codegen.spec.include_syntax import (
    MAX_INCLUDED_DOCUMENTS,
    PROSE_DOCUMENTS,
    PROSE_INCLUDE,
    PROSE_INCLUDE_FOLDER,
)
from codegen.spec.source import SourceText

# Only documents are followed, never code or data; and a bounded number of them.
_INCLUDE = PROSE_INCLUDE
_INCLUDE_FOLDER = PROSE_INCLUDE_FOLDER
_DOCUMENTS = PROSE_DOCUMENTS
_MAX_DOCUMENTS = MAX_INCLUDED_DOCUMENTS


def with_includes(
    sources: list[SourceText], repo_root: Path, diags: Diagnostics
) -> list[SourceText]:
    out: list[SourceText] = []
    seen: set[Path] = set()
    pending = list(sources)
    for source in sources:
        seen.add((repo_root / source.rel_path).resolve())
    while pending:
        source = pending.pop(0)
        out.append(source)
        page = (repo_root / source.rel_path).resolve()
        found: list[SourceText] = []
        for match in _INCLUDE.finditer(source.text):
            target = _resolve(
                page, match.group("file"), bool(match.group("relative")), repo_root
            )
            if target is not None and target.suffix.lower() not in _DOCUMENTS:
                target = None
            if target is None:
                diags.report(
                    "SYN002",
                    f"{match.group(0)}: {match.group('file')} is no document beside the page "
                    f"nor in an {_INCLUDE_FOLDER}/ folder above it; what it holds is missing",
                    DocText(source.rel_path, source.text).span(match.start()),
                )
                continue
            if target in seen or len(seen) > _MAX_DOCUMENTS:
                continue
            seen.add(target)
            found.append(SourceText.read(target, _rel(target, repo_root), diags))
        pending[:0] = found  # an included page's own includes come right after it
    return out


def _resolve(page: Path, name: str, relative: bool, root: Path) -> Path | None:
    beside = (page.parent / name).resolve()
    if beside.is_file():
        return beside
    if relative:
        return None
    root = root.resolve()
    folder = page.parent
    while True:
        candidate = (folder / _INCLUDE_FOLDER / name).resolve()
        if candidate.is_file():
            return candidate
        if folder == root or folder.parent == folder or root not in folder.parents:
            return None
        folder = folder.parent


def _rel(path: Path, root: Path) -> str:
    return Path(os.path.relpath(path, root.resolve())).as_posix()
