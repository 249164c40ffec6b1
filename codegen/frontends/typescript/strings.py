"""JavaScript string and number literals as TypeScript source spells them.

Phase: frontend helper.
Inputs: the source text of a ``string`` node (quotes included) or a ``number`` node.
Outputs: the value a JavaScript engine reads: ``'\\\\'`` is one backslash, ``"\\u00e9"`` is
``é``, ``0x10`` is 16, ``1_000`` is 1000.
Guarantees: pure and total: a malformed escape is kept as written, never an exception.
"""

from __future__ import annotations

import re

_SIMPLE = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "0": "\0",
}
_ESCAPE = re.compile(
    r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])"
)


def decode_string(text: str) -> str:
    """The value of a string literal: quotes removed, escapes decoded."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"`":
        text = text[1:-1]
    return _ESCAPE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    body = match.group(1)
    if body.startswith("u{"):
        code = int(body[2:-1], 16)
        return chr(code) if code <= 0x10FFFF else match.group(0)
    if body.startswith("u") and len(body) == 5:
        return chr(int(body[1:], 16))
    if body.startswith("x") and len(body) == 3:
        return chr(int(body[1:], 16))
    if body in ("\n", "\r\n", "\r", "\u2028", "\u2029"):
        return ""  # a line continuation
    return _SIMPLE.get(body, body)


def parse_number(text: str) -> int | float:
    """A numeric literal: decimal, ``0x``/``0o``/``0b``, separators, exponents."""
    cleaned = text.replace("_", "").rstrip("n")  # ``10n`` is a bigint literal
    try:
        return int(cleaned, 0)
    except ValueError:
        pass
    try:
        value = float(cleaned)
    except ValueError:
        return 0
    return (
        int(value)
        if value.is_integer() and "e" not in cleaned.lower() and "." not in cleaned
        else value
    )
