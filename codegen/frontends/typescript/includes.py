"""``{@includeCode ./path}`` in JSDoc ``@example`` blocks: the file's text, as TypeDoc
includes it, so that examples kept beside the spec become wire samples too.

Phase: frontend helper (between ``symbols`` and the method readers).
Inputs: the method comments of a spec, the folder the repository's relative paths start
from, diagnostics.
Outputs: the comments with each ``{@includeCode path[#region|:lines]}`` of an
``@example`` tag replaced by the file's content (found relative to the TypeScript file,
as TypeDoc resolves it); a JSON file becomes one line (its value re-written compactly) so
that the example's line numbers stay those of the comment.
Guarantees: never raises; a file that cannot be read or is not JSON is a warning
(EXM001) at the tag's line, and the include is left out (read as no example).
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import replace
from pathlib import Path

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.typescript.jsdoc import JsDoc, Tag
from codegen.frontends.typescript.symbols import MethodComment
from codegen.spec.include_syntax import TS_INCLUDE


def expand_includes(
    comments: list[MethodComment], root: Path | None, diags: Diagnostics
) -> list[MethodComment]:
    if root is None:
        return comments
    out: list[MethodComment] = []
    for comment in comments:
        tags = tuple(
            _expand(tag, comment, root, diags) if tag.name == "example" else tag
            for tag in comment.doc.tags
        )
        if tags != comment.doc.tags:
            comment = replace(
                comment, doc=JsDoc(comment.doc.description, tags, comment.doc.line)
            )
        out.append(comment)
    return out


def _expand(tag: Tag, comment: MethodComment, root: Path, diags: Diagnostics) -> Tag:
    if "{@includeCode" not in tag.text:
        return tag

    def include(match: re.Match[str]) -> str:
        rel = posixpath.normpath(
            posixpath.join(posixpath.dirname(comment.source.rel_path), match.group(1))
        )
        span = ir.Span(comment.source.rel_path, tag.line, 1)
        try:
            text = (root / rel).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            diags.report(
                "EXM001",
                f"the example file {match.group(1)} cannot be read "
                f"({exc.__class__.__name__}); the include is left out",
                span,
            )
            return ""
        try:
            return json.dumps(json.loads(text), ensure_ascii=False)
        except json.JSONDecodeError as exc:
            diags.report(
                "EXM001",
                f"the example file {match.group(1)} is not JSON ({exc.msg} at line "
                f"{exc.lineno}); the include is left out",
                span,
            )
            return ""

    return replace(tag, text=TS_INCLUDE.sub(include, tag.text))
