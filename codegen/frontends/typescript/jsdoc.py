"""JSDoc comments: description text and block tags, with the source line of each tag.

Phase: frontend helper (TypeScript and the TypeScript embedded in prose specs).
Inputs: the raw text of a ``/** ... */`` comment and the 1-based line it starts on.
Outputs: a ``JsDoc`` with the description, tags in order, and helpers for the tags we use
(``lifecycle_of``: the docs, ``@since`` and ``@deprecated`` every declaration carries).
Guarantees: pure; never raises on malformed comments (unknown tags are kept, not dropped).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codegen import ir

_TAG_LINE = re.compile(r"^@(\w+)\s?(.*)$")


@dataclass(frozen=True, slots=True)
class Tag:
    name: str
    text: str  # the tag's text, continuation lines joined with "\n"
    line: int  # 1-based source line of the ``@tag``
    text_line: int = 0  # 1-based source line where ``text`` starts (after blank lines)


@dataclass(frozen=True, slots=True)
class JsDoc:
    description: str
    tags: tuple[Tag, ...]
    line: int

    def first(self, name: str) -> Tag | None:
        for tag in self.tags:
            if tag.name == name:
                return tag
        return None

    def all(self, name: str) -> list[Tag]:
        return [tag for tag in self.tags if tag.name == name]


def lifecycle_of(doc: JsDoc | None) -> ir.Lifecycle:
    """Docs, ``@since`` (or ``@version``) and ``@deprecated`` of a declaration or method."""
    if doc is None:
        return ir.NO_LIFECYCLE
    deprecated = doc.first("deprecated")
    since = doc.first("since") or doc.first("version")
    return ir.Lifecycle(
        docs=doc.description,
        since=since.text.strip() or None if since else None,
        deprecated=deprecated.text.strip() if deprecated else None,
    )


def is_jsdoc(comment: str) -> bool:
    return comment.startswith("/**") and not comment.startswith("/***")


def parse_jsdoc(comment: str, start_line: int) -> JsDoc:
    """Split a JSDoc comment into description and tags; code fences keep their ``@`` lines."""
    lines = _strip_comment_markers(comment)
    description: list[str] = []
    tags: list[tuple[str, list[str], int]] = []
    in_fence = False
    for offset, line in enumerate(lines):
        if line.strip().startswith("```"):
            in_fence = not in_fence
        match = None if in_fence else _TAG_LINE.match(line.strip())
        if match:
            tags.append((match.group(1), [match.group(2)], start_line + offset))
        elif tags:
            tags[-1][1].append(line)
        else:
            description.append(line)
    return JsDoc(
        description=_tidy(description),
        tags=tuple(
            Tag(name, _tidy(text), line, line + _leading_blank(text))
            for name, text, line in tags
        ),
        line=start_line,
    )


def _strip_comment_markers(comment: str) -> list[str]:
    body = comment
    if body.startswith("/**"):
        body = body[3:]
    elif body.startswith("/*"):
        body = body[2:]
    body = body.removesuffix("*/")
    if body.endswith("*") and not body.endswith("**"):
        body = body[:-1]  # a ``**/`` closer (``/** text **/``) is a closer, not text
    out: list[str] = []
    for raw in body.split("\n"):
        line = raw.strip()
        if line.startswith("*"):
            line = line[1:]
            line = line.removeprefix(" ")
        out.append(line.rstrip())
    return out


def _tidy(lines: list[str]) -> str:
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return "\n".join(lines)


def _leading_blank(lines: list[str]) -> int:
    count = 0
    for line in lines:
        if line.strip():
            break
        count += 1
    return count
