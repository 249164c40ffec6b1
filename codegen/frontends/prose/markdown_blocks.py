"""A prose spec as a list of blocks: headings, paragraphs, list items and TypeScript code.

Phase: frontend helper (the prose frontend) and seed restoration (``codegen.tools.seed_markdown``).
Inputs: the text of a prose spec, either Markdown (``#`` headings, ```` ```ts ```` fences) or
the raw scraped page the Markdown was restored from (markup lost, TypeScript flattened onto
single lines).
Outputs: ``Block``s in document order.  Every block carries ``origins``: for each character of
its ``text``, the character offset in the document it came from, so a position found in a
block (a TypeScript span, a type name in a ``Request:`` line) maps back to the document.
Guarantees: pure and total (any text gives blocks, never an exception); both readings of the
same spec give blocks with equal kinds, levels and texts (the raw reading re-breaks flattened
TypeScript with ``typescript.unflatten``, exactly as the restorer wrote it into the Markdown).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codegen.frontends.typescript.unflatten import unflatten_ts

HEADING = "heading"
PARAGRAPH = "paragraph"
LIST_ITEM = "list_item"
CODE = "code"  # TypeScript
OTHER_CODE = "other_code"  # a fence in another language: kept out of the TypeScript

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)")
_MD_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_LIST = re.compile(r"^\s*[-*+]\s+")
_TS_LANGS = frozenset({"ts", "typescript", "tsx"})
# A raw line that is TypeScript: a declaration (optionally after a JSDoc) with a body.
_RAW_TS = re.compile(
    r"^\s*(/\*\*.*?\*/\s*)?(export\s+)?(declare\s+)?"
    r"(interface\s+[A-Za-z_$][\w$]*[^{]*\{|type\s+[A-Za-z_$][\w$]*(<[^>]*>)?\s*=)"
)
_RAW_HEADING = re.compile(r"^[A-Z][A-Za-z0-9]*( [A-Za-z0-9]+){0,4}$")
_REQUEST = re.compile(r"^Request:")
# ``Request:`` / ``Response:`` lines are blocks of their own even without a blank line between.
_METHOD_LINE = re.compile(r"^\s*(Request|Response):")


@dataclass(frozen=True, slots=True)
class Block:
    kind: str
    text: str
    origins: tuple[int, ...]  # document offset of each character of ``text``
    level: int = 0  # heading level
    lang: str = ""  # fence info string of a code block

    @property
    def start(self) -> int:
        return self.origins[0] if self.origins else 0


def is_markdown(text: str) -> bool:
    """Markdown has fences or ``#`` headings; the scraped page has neither."""
    return any(
        _FENCE.match(line) or _MD_HEADING.match(line) for line in text.split("\n")
    )


def read_blocks(text: str) -> list[Block]:
    return markdown_blocks(text) if is_markdown(text) else raw_blocks(text)


# ----------------------------------------------------------------------------- Markdown


def markdown_blocks(text: str) -> list[Block]:
    lines = _lines(text)
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        offset, line = lines[index]
        fence = _FENCE.match(line)
        if fence:
            index = _fenced(lines, index, fence, blocks)
            continue
        heading = _MD_HEADING.match(line)
        if heading:
            start = offset + heading.start(2)
            title = heading.group(2)
            blocks.append(
                Block(
                    HEADING,
                    title,
                    tuple(range(start, start + len(title))),
                    len(heading.group(1)),
                )
            )
            index += 1
            continue
        if not line.strip():
            index += 1
            continue
        kind = LIST_ITEM if _LIST.match(line) else PARAGRAPH
        group = [(offset, line)]
        index += 1
        while index < len(lines):
            next_offset, next_line = lines[index]
            if (
                not next_line.strip()
                or _FENCE.match(next_line)
                or _MD_HEADING.match(next_line)
                or _LIST.match(next_line)
                or _METHOD_LINE.match(next_line)
            ):
                break
            group.append((next_offset, next_line))
            index += 1
        blocks.append(_joined(kind, group))
    return blocks


def _fenced(
    lines: list[tuple[int, str]], index: int, fence: re.Match[str], out: list[Block]
) -> int:
    marker, lang = fence.group(1), fence.group(2).lower()
    body: list[tuple[int, str]] = []
    index += 1
    while index < len(lines):
        offset, line = lines[index]
        if line.strip().startswith(marker[0] * len(marker)) and not line.strip(
            marker[0] + " \t"
        ):
            index += 1
            break
        body.append((offset, line))
        index += 1
    chars: list[str] = []
    origins: list[int] = []
    for number, (offset, line) in enumerate(body):
        if number:
            chars.append("\n")
            origins.append(offset - 1)
        chars.extend(line)
        origins.extend(range(offset, offset + len(line)))
    kind = CODE if lang in _TS_LANGS else OTHER_CODE
    out.append(Block(kind, "".join(chars), tuple(origins), lang=lang))
    return index


# ----------------------------------------------------------------------------- raw page


def raw_blocks(text: str) -> list[Block]:
    """Blocks of the scraped page: one line each, list items with their wrapped lines."""
    lines = _lines(text)
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        offset, line = lines[index]
        index += 1
        if not line.strip():
            continue
        if _RAW_TS.match(line):
            restored = unflatten_ts(line)
            origins = tuple(offset + at for at in restored.origins)
            blocks.append(Block(CODE, restored.text, origins, lang="ts"))
            continue
        if _RAW_HEADING.match(line.strip()):
            start = offset + len(line) - len(line.lstrip())
            title = line.strip()
            blocks.append(
                Block(HEADING, title, tuple(range(start, start + len(title))), 2)
            )
            continue
        if _LIST.match(line):
            group = [(offset, line)]
            while index < len(lines) and _continues(
                " ".join(t for _, t in group), lines[index][1]
            ):
                group.append(lines[index])
                index += 1
            blocks.append(_joined(LIST_ITEM, group))
            continue
        blocks.append(_joined(PARAGRAPH, [(offset, line)]))
    return _leveled(blocks)


def _continues(item: str, line: str) -> bool:
    """A list item wrapped onto the next line: its parentheses are still open, or it ends
    mid-sentence and the next line goes on in lower case."""
    if not line.strip() or _LIST.match(line) or _RAW_TS.match(line):
        return False
    if item.count("(") > item.count(")"):
        return True
    ends_open = not item.rstrip().endswith((".", ":", "!", "?", ")", '"'))
    return ends_open and line.lstrip()[:1].islower()


def _leveled(blocks: list[Block]) -> list[Block]:
    """The first heading is the title (#), a heading over a ``Request:`` line a method (###)."""
    out: list[Block] = []
    for index, block in enumerate(blocks):
        if block.kind == HEADING:
            level = 1 if not any(b.kind == HEADING for b in out) else 2
            for later in blocks[index + 1 :]:
                if later.kind == HEADING:
                    break
                if later.kind == PARAGRAPH and _REQUEST.match(later.text):
                    level = 3 if level != 1 else level
                    break
            block = Block(HEADING, block.text, block.origins, level)
        out.append(block)
    return out


# ----------------------------------------------------------------------------- helpers


def _lines(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    offset = 0
    for line in text.split("\n"):
        out.append((offset, line.rstrip("\r")))
        offset += len(line) + 1
    return out


def _joined(kind: str, group: list[tuple[int, str]]) -> Block:
    """Lines of one paragraph joined by single spaces (a line break reads as a space)."""
    chars: list[str] = []
    origins: list[int] = []
    for offset, line in group:
        lead = len(line) - len(line.lstrip())
        body = line.strip()
        if chars:
            chars.append(" ")
            origins.append(offset + lead)
        chars.extend(body)
        origins.extend(range(offset + lead, offset + lead + len(body)))
    return Block(kind, "".join(chars), tuple(origins))
