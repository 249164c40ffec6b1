"""Restore the scraped OpenCtx protocol page into a Markdown document.

Phase: one-time input restoration, run before any spec parsing (like ``seed_restore``).

Inputs: ``openctx-protocol-spec.txt``, a web page scraped as plain text: headings and prose
lost their markup, and each TypeScript snippet was flattened onto one line (``interface
MetaResult { /** * The name of the provider. */ name: string /** ...``).

Outputs: ``specs/openctx/protocol.md``: the first heading as ``#``, section headings as ``##``,
method headings (those over a ``Request:`` line) as ``###``, list items with their wrapped
lines joined, prose unchanged, and each TypeScript line re-broken into a ```` ```ts ```` block
with its line breaks, indentation and multi-line JSDoc comments back.  Run
``python -m codegen.tools.seed_markdown`` (``--check`` reports a stale file and writes nothing).

Guarantees: content unchanged: only whitespace and Markdown markup are added, so
``strip_markup(markdown)`` without whitespace equals the seed without whitespace (a test holds
this).  The block reading is the prose frontend's own (``frontends.markdown_blocks``), so the
frontend reads the seed and the Markdown alike.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Final

from codegen.frontends.prose.markdown_blocks import (
    CODE,
    HEADING,
    LIST_ITEM,
    Block,
    raw_blocks,
)
from codegen.tools.seed_restore import (
    DEFAULT_SEEDS,
    REPO_ROOT,
    is_current,
    write_atomically,
)

__all__ = ["SEED", "TARGET", "main", "restore_markdown", "strip_markup"]

SEED: Final = "openctx-protocol-spec.txt"
TARGET: Final = "openctx/protocol.md"
_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})[\w+-]*\s*$")
_HEADING_MARK = re.compile(r"^ {0,3}#{1,6}[ \t]+")


def restore_markdown(seed: str) -> str:
    """The Markdown document for a scraped prose seed."""
    parts: list[str] = []
    previous: Block | None = None
    for block in raw_blocks(seed):
        if previous is not None:
            tight = previous.kind == LIST_ITEM and block.kind == LIST_ITEM
            parts.append("\n" if tight else "\n\n")
        parts.append(_render(block))
        previous = block
    return "".join(parts) + "\n"


def _render(block: Block) -> str:
    if block.kind == HEADING:
        return "#" * block.level + " " + block.text
    if block.kind == CODE:
        return f"```ts\n{block.text}\n```"
    return block.text


def strip_markup(markdown: str) -> str:
    """The document with heading marks and fence lines removed (for content comparisons)."""
    kept: list[str] = []
    for line in markdown.split("\n"):
        if _FENCE_LINE.match(line):
            continue
        kept.append(_HEADING_MARK.sub("", line))
    return "\n".join(kept)


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m codegen.tools.seed_markdown",
        description=__doc__.splitlines()[0],
    )
    parser.add_argument("--seeds", type=Path, default=DEFAULT_SEEDS)
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "specs")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if the file on disk differs; write nothing",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    seed_path: Path = args.seeds / SEED
    try:
        content = restore_markdown(seed_path.read_text(encoding="utf-8"))
    except OSError as error:
        print(f"{seed_path}: {error}", file=sys.stderr)
        return 2
    target: Path = args.out / TARGET
    if args.check:
        if not is_current(target, content):
            print(f"{target}: differs from restored {SEED}", file=sys.stderr)
            return 1
        return 0
    write_atomically(target, content)
    print(f"{target}: {content.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
