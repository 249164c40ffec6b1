"""Finds the Go code in a package documentation page (pkg.go.dev text) or a plain ``.go`` file.

Phase: frontend, before tree-sitter.
Inputs: one ``SourceText``: either a page as pkg.go.dev renders it as text (headings such as
``type X added in v0.5.0``, the code block, then the prose that documents it) or a ``.go`` file.
Outputs: a ``GoPage``: ``code`` is a text with exactly the source's lines, in which every line
that is not inside a ``type``/``const``/``var`` code block is blanked to empty, so tree-sitter
points (row, byte column) map 1:1 onto the document; ``blocks`` lists every code block with the
prose after it and the ``added in`` version of its heading (``func`` blocks are listed for their
prose only and are not parsed).
Guarantees: never raises; an unterminated block is a SYN001 diagnostic and runs to the end of
the page; the page's own chrome ("View Source", "Jump to", section titles) never becomes docs.
For a ``.go`` file the text is parsed as it is and no blocks are listed (doc comments are read
from the tree instead).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codegen.diagnostics import Diagnostics
from codegen.spec.source import SourceText

_TYPE_HEADING = re.compile(r"^type (\w+)(?: added in (v[\w.+-]+))?$")
_FUNC_HEADING = re.compile(r"^func (?:\((\*?\w+)\) )?(\w+)(?: added in (v[\w.+-]+))?$")
_CODE_START = re.compile(r"^(type|const|var|func)\b[ (]")
_FUNC_CODE = re.compile(r"^func (?:\(\w+ \*?(\w+)\) )?(\w+)")
_DECL_NAME = re.compile(r"^(?:type|const|var) (\w+)")
# Lines pkg.go.dev prints around the documentation; they end a prose paragraph run.
_CHROME = frozenset(
    {
        "View Source",
        "Index",
        "Constants",
        "Variables",
        "Functions",
        "Types",
        "Jump to",
        "Keyboard shortcuts",
        "Documentation",
        "Overview",
        "Source Files",
        "Directories",
        "Examples",
    }
)


@dataclass(frozen=True, slots=True)
class DocBlock:
    """One code block of the page: ``kind`` is type / const / var / func."""

    kind: str
    name: str  # the declared name; "Host.Stop" for a method; "" for a grouped const/var
    first_row: int  # 0-based row of the first code line
    last_row: int  # 0-based row of the last code line (inclusive)
    docs: str
    since: str | None


@dataclass(frozen=True, slots=True)
class GoPage:
    source: SourceText
    code: bytes
    blocks: tuple[DocBlock, ...]
    is_document: bool

    def block_at(self, row: int) -> DocBlock | None:
        for block in self.blocks:
            if block.first_row <= row <= block.last_row:
                return block
        return None

    def funcs(self) -> tuple[DocBlock, ...]:
        return tuple(b for b in self.blocks if b.kind == "func")


def read_page(source: SourceText, diags: Diagnostics) -> GoPage:
    if source.rel_path.endswith(".go"):
        return GoPage(source, source.data, (), is_document=False)
    lines = source.text.split("\n")
    kept = [""] * len(lines)
    blocks: list[DocBlock] = []
    heading: tuple[str, str | None] | None = None
    row = 0
    while row < len(lines):
        line = lines[row].rstrip("\r")
        type_heading = _TYPE_HEADING.match(line)
        func_heading = _FUNC_HEADING.match(line)
        if type_heading or func_heading:
            if type_heading:
                heading = (type_heading.group(1), type_heading.group(2))
            else:
                assert func_heading is not None
                receiver = (func_heading.group(1) or "").lstrip("*")
                name = func_heading.group(2)
                heading = (
                    f"{receiver}.{name}" if receiver else name,
                    func_heading.group(3),
                )
            row += 1
            continue
        if not _CODE_START.match(line):
            row += 1
            continue
        kind = line.split(None, 1)[0].rstrip("(")
        last = _block_end(lines, row, source, diags)
        name = _block_name(kind, line)
        since = heading[1] if heading is not None and heading[0] == name else None
        docs, row_after = _prose(lines, last + 1)
        blocks.append(DocBlock(kind, name, row, last, docs, since))
        if kind != "func":
            for index in range(row, last + 1):
                kept[index] = lines[index]
        heading = None
        row = row_after
    code = "\n".join(kept).encode("utf-8")
    return GoPage(source, code, tuple(blocks), is_document=True)


def _block_name(kind: str, line: str) -> str:
    if kind == "func":
        match = _FUNC_CODE.match(line)
        if match is None:
            return ""
        return (
            f"{match.group(1)}.{match.group(2)}" if match.group(1) else match.group(2)
        )
    match = _DECL_NAME.match(line)
    return match.group(1) if match else ""


def _block_end(
    lines: list[str], row: int, source: SourceText, diags: Diagnostics
) -> int:
    """The last row of the block starting at ``row``: a ``{`` or ``(`` left open at the end
    of the first line is closed by the first later line that is exactly ``}`` or ``)``.
    """
    first = lines[row].rstrip("\r").split("//", 1)[0].rstrip()
    if first.endswith("{"):
        closer = "}"
    elif first.endswith("("):
        closer = ")"
    else:
        return row
    for index in range(row + 1, len(lines)):
        if lines[index].rstrip("\r") == closer:
            return index
    diags.report(
        "SYN001",
        f"code block is never closed (no line {closer!r} follows)",
        source.span_at_point(row, 0),
    )
    return len(lines) - 1


def _prose(lines: list[str], row: int) -> tuple[str, int]:
    """Paragraphs after a block, up to the next heading, code block or page chrome."""
    paragraphs: list[list[str]] = []
    current: list[str] = []
    while row < len(lines):
        line = lines[row].rstrip("\r")
        bare = line.strip()
        if (
            _TYPE_HEADING.match(line)
            or _FUNC_HEADING.match(line)
            or _CODE_START.match(line)
            or bare in _CHROME
        ):
            break
        if bare:
            current.append(line.rstrip())
        elif current:
            paragraphs.append(current)
            current = []
        row += 1
    if current:
        paragraphs.append(current)
    text = "\n\n".join("\n".join(_dedent(p)) for p in paragraphs)
    return text, row


def _dedent(paragraph: list[str]) -> list[str]:
    indents = [len(line) - len(line.lstrip()) for line in paragraph]
    cut = min(indents) if indents else 0
    return [line[cut:] for line in paragraph]
