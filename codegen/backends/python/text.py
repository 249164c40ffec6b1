"""Python source text helpers shared by the Python backends (bindings and server).

Phase: backend (Python bindings and stub server).
Inputs: JSON values, spec documentation text, ``ir.Lifecycle`` notes.
Outputs: Python literals, docstring blocks in the layout black keeps, and the
documentation text of a declaration with its lifecycle notes.
Guarantees: pure functions; a docstring never ends early (quotes and backslashes are
escaped, control characters blanked) and needs no reformatting at ``LINE_LENGTH``.
"""

from __future__ import annotations

import re
import textwrap

from codegen import ir
from codegen.backends.escape import py_str
from codegen.backends.formatting import LINE_LENGTH

__all__ = [
    "LINE_LENGTH",
    "doc_lines",
    "docstring",
    "json_kind",
    "lifecycle_text",
    "py_literal",
    "render_links",
]


def py_literal(value: object) -> str:
    """A Python literal for a JSON value (dict keys are strings)."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, str):
        return py_str(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(py_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(
            f"{py_str(str(k))}: {py_literal(v)}" for k, v in value.items()
        )
        return "{" + items + "}"
    raise TypeError(f"not a JSON value: {value!r}")


# JSDoc / TSDoc inline links: ``{@link Target}``, ``{@link Target | label}``,
# ``{@link Target label}`` (also ``@linkcode`` / ``@linkplain``).
_JSDOC_LINK = re.compile(r"\{@link(?:code|plain)?\s+([^\s|}]+)\s*\|?\s*([^}]*)\}")


def _link(match: re.Match[str]) -> str:
    target, label = match.group(1), match.group(2).strip()
    if "://" in target:
        return f"{label} ({target})" if label else target
    return f"{label} (`{target}`)" if label else f"`{target}`"


def render_links(text: str) -> str:
    """JSDoc ``{@link X}`` as reStructuredText-ish code (`` `X` ``), labels kept."""
    return _JSDOC_LINK.sub(_link, text)


def doc_lines(text: str) -> list[str]:
    """The lines of ``text`` as docstring content: JSDoc links rendered, escaped so the
    docstring cannot end early, control characters blanked, outer blank lines dropped,
    the rest dedented.
    """
    text = render_links(text).expandtabs(4).replace("\r\n", "\n").replace("\r", "\n")
    if not text.replace("\n", "").isprintable():  # most doc text is: no per-char pass
        text = "".join(ch if ch == "\n" or ch.isprintable() else " " for ch in text)
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        return []
    rest = textwrap.dedent("\n".join(lines[1:])).split("\n") if len(lines) > 1 else []
    lines = [lines[0].strip(), *rest]
    if lines[0].startswith('"'):
        lines[0] = "\\" + lines[0]
    return lines


def docstring(text: str, indent: str) -> str:
    """A docstring block at ``indent`` in the layout black keeps, or "" for no text."""
    lines = doc_lines(text)
    if not lines:
        return ""
    first = lines[0]
    if first.endswith('"'):
        first += " "  # black's spelling of a docstring ending with a quote
    if len(lines) == 1 and len(indent) + len(first) + 6 <= LINE_LENGTH:
        return f'{indent}"""{first}"""'
    out = [f'{indent}"""{first.rstrip()}']
    out.extend(f"{indent}{line}" if line else "" for line in lines[1:])
    out.append(f'{indent}"""')
    return "\n".join(out)


def lifecycle_text(docs: str, life: ir.Lifecycle, *extra: str) -> str:
    """``docs``, then a paragraph of the ``extra`` notes and the since / deprecated
    notes of ``life`` (empty notes are skipped)."""
    parts = [docs.strip()] if docs.strip() else []
    notes = [note for note in extra if note]
    if life.since:
        notes.append(f"Since: {life.since}.")
    if life.deprecated is not None:
        reason = life.deprecated.strip()
        notes.append(f"Deprecated: {reason}" if reason else "Deprecated.")
    if notes:
        parts.append("\n".join(notes))
    return "\n\n".join(parts)


def json_kind(value: str | float) -> str:
    """The JSON type of a tag or literal value (``bool`` before ``int``: in Python a
    bool is an int, on the wire it is not)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    return "string"
