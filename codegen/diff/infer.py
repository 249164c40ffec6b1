"""Spec settings for a source file no spec owns, inferred from the source itself.

Phase: spec diff, while resolving a side (``sides``).
Inputs: a file name and its text.
Outputs: the source language (from the name), and a ``spec.toml`` written beside a
temporary copy of the file: its id, language, the one source, and the roles the source
itself names.
Guarantees: only facts the source states are used: the roles of a Rust crate are the handler
traits of its ``acp_peer!`` tables (``Client`` and ``Agent`` → ``client``, ``agent``, the
client first: it starts the connection); a source that names no roles gets the defaults
(``client``, ``server``).  Nothing outside the temporary directory is written.
"""

from __future__ import annotations

import re
from pathlib import Path

SUFFIX_LANGUAGES = {
    ".ts": "typescript",
    ".rs": "rust",
    ".go": "go",
    ".md": "prose",
    ".markdown": "prose",
    ".txt": "prose",
}
# Longer suffixes first: a pkg.go.dev listing saved as text is Go, not prose.
NAME_LANGUAGES = {".godoc.txt": "go"}

_PEER_HANDLER = re.compile(r"\bacp_peer!\s*[({\[]\s*([A-Za-z_]\w*)\s*,")


class SideError(Exception):
    """A side of the diff cannot be read; the message is for the user."""


def language_of(name: str) -> str | None:
    lower = name.lower()
    for suffix, language in NAME_LANGUAGES.items():
        if lower.endswith(suffix):
            return language
    return SUFFIX_LANGUAGES.get(Path(lower).suffix)


def infer_roles(language: str, text: str) -> tuple[str, str] | None:
    """The two roles a source names, initiator first; None when it names none."""
    if language != "rust":
        return None
    handlers = list(dict.fromkeys(m.lower() for m in _PEER_HANDLER.findall(text)))
    if not handlers:
        return None
    if len(handlers) == 1:
        (only,) = handlers
        return ("client", only) if only != "client" else ("client", "server")
    if len(handlers) > 2:
        return None
    first, second = sorted(handlers, key=lambda h: (h != "client", h))
    return (first, second)


def write_spec_toml(spec_dir: Path, name: str, language: str, text: str) -> None:
    spec_id = re.sub(r"[^A-Za-z0-9_]", "_", name.split(".", 1)[0]) or "spec"
    lines = [
        "[spec]",
        f'id = "{spec_id}"',
        f'language = "{language}"',
        f"sources = [{_toml_str(name)}]",
    ]
    roles = infer_roles(language, text)
    if roles is not None:
        lines.append(f"roles = [{_toml_str(roles[0])}, {_toml_str(roles[1])}]")
    (spec_dir / "spec.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
