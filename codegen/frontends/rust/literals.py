"""The value of a Rust string literal, as rustc (and so serde_derive) reads it.

Phase: frontend helper (attributes, method-name constants, ``cfg`` values).
Inputs: a tree-sitter-rust ``string_literal`` or ``raw_string_literal`` node.
Outputs: the string's value: escapes ``\\" \\\\ \\n \\r \\t \\0 \\' \\xNN \\u{...}`` decoded,
a backslash before a newline skipping the newline and the next line's leading whitespace;
raw strings (``r#"..."#``) verbatim.  ``"a\\"b"`` is ``a"b``, ``""`` is the empty string.
Guarantees: never raises; None for a node that is not a string literal or holds an escape
rustc would reject (the caller reports it).
"""

from __future__ import annotations

from tree_sitter import Node

from codegen.frontends.common.syntax import node_text

_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "0": "\0", "\\": "\\", '"': '"', "'": "'"}
_WHITESPACE = " \t\n\r"


def string_literal_value(node: Node | None) -> str | None:
    if node is None:
        return None
    if node.type == "raw_string_literal":
        return "".join(
            node_text(c) for c in node.named_children if c.type == "string_content"
        )
    if node.type != "string_literal":
        return None
    out: list[str] = []
    skip_whitespace = False
    for child in node.named_children:
        text = node_text(child)
        if child.type == "string_content":
            if skip_whitespace:
                text = text.lstrip(_WHITESPACE)
                skip_whitespace = False
            out.append(text)
        elif child.type == "escape_sequence":
            if text[1:].startswith(("\n", "\r")):
                skip_whitespace = True
                continue
            decoded = _escape(text)
            if decoded is None:
                return None
            out.append(decoded)
    return "".join(out)


def _escape(text: str) -> str | None:
    body = text[1:]
    if body in _SIMPLE:
        return _SIMPLE[body]
    try:
        if body.startswith("x") and len(body) == 3:
            code = int(body[1:], 16)
            return chr(code) if code < 0x80 else None
        if body.startswith("u{") and body.endswith("}"):
            code = int(body[2:-1].replace("_", ""), 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                return None
            return chr(code)
    except ValueError:
        return None
    return None
