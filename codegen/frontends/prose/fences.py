"""Which TypeScript fences of a prose spec declare types, and which only illustrate them.

Phase: frontend helper (``prose.reader``, before the TypeScript frontend reads the fences).
Inputs: the blocks of one document (``markdown_blocks``) and a ``DocText`` for spans.
Outputs: the TypeScript code blocks that are declaration blocks; a PRS001 note for each
other one, saying why it was left out.
Guarantees: never raises.  A fence is a declaration block when it declares something
(``interface``, ``type``, ``enum``, ``class``, ``namespace``, ``declare``, an ``export``) and
is not an example: the paragraph right before it introduces one ("For example:", "for
instance", "e.g.", "looks like this"), or it holds no declaration at all (a call, a value,
an object literal: an illustration), or it does not parse and declares nothing (a fragment
of an object).  A fence that declares something but does not parse stays a declaration
block, so its syntax error is reported (SYN001), never hidden.  JSON and other fences never
reach the TypeScript frontend (``markdown_blocks`` keeps them apart).
"""

from __future__ import annotations

import re

import tree_sitter_typescript
from tree_sitter import Language, Node, Parser

from codegen.diagnostics import Diagnostics
from codegen.frontends.prose.markdown_blocks import CODE, LIST_ITEM, PARAGRAPH, Block
from codegen.frontends.prose.methods import DocText

_LANGUAGE = Language(tree_sitter_typescript.language_typescript())
_INTRO = re.compile(
    r"\b(for example|for instance|e\.g\.|an example|example:|examples?\b.*:\s*$|"
    r"looks like this|like so)",
    re.IGNORECASE,
)
_DECLARATIONS = frozenset(
    {
        "interface_declaration",
        "type_alias_declaration",
        "enum_declaration",
        "class_declaration",
        "abstract_class_declaration",
        "internal_module",
        "module",
        "ambient_declaration",
        "export_statement",
    }
)
_DECLARES = re.compile(
    r"^\s*(export\s+)?(declare\s+)?(interface|type|enum|namespace|class)\s+[A-Za-z_$]",
    re.MULTILINE,
)


def declaration_blocks(
    blocks: list[Block], doc: DocText, diags: Diagnostics
) -> list[Block]:
    out: list[Block] = []
    previous: Block | None = None
    for block in blocks:
        if block.kind == CODE:
            reason = _not_declarations(block, previous)
            if reason is None:
                out.append(block)
            else:
                diags.report(
                    "PRS001",
                    f"a TypeScript fence read as {reason}, not as declarations; skipped",
                    doc.block_span(block, 0),
                )
        previous = block
    return out


def _not_declarations(block: Block, previous: Block | None) -> str | None:
    if (
        previous is not None
        and previous.kind in (PARAGRAPH, LIST_ITEM)
        and _INTRO.search(previous.text)
    ):
        return "an example (the text before it introduces one)"
    root = (
        Parser(_LANGUAGE).parse(block.text.encode("utf-8", "surrogatepass")).root_node
    )
    declares = any(_declares(node) for node in root.named_children)
    if root.has_error:
        if _DECLARES.search(block.text):
            return None  # a broken declaration: its SYN001 must be seen
        return "a fragment (it does not parse and declares nothing)"
    if not declares and root.named_children:
        if all(node.type == "comment" for node in root.named_children):
            return None
        return "an illustration (it declares nothing)"
    return None


def _declares(node: Node) -> bool:
    return node.type in _DECLARATIONS
