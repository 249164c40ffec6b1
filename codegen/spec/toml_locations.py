"""Where each key and value of a TOML document is: a location map for diagnostics.

Phase: configuration (spec.toml, ``[tool.codegen]`` in pyproject.toml).
Inputs: the document's text, already known to be valid TOML (``tomllib`` read it).
Outputs: ``Locations``: for each key path (table names and keys as strings, array
indices as ints, ``[[array]]`` tables by their index), the line and column of the key and
of its value, 1-based, columns counted in characters.
Guarantees: never raises on any text (tree-sitter's TOML grammar recovers from anything);
a path the map does not know falls back to its nearest known ancestor, then to 1:1, so a
diagnostic always has a place.  tomllib stays the judge of what the document means; this
module only says where things are written.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache

import tree_sitter
import tree_sitter_toml

__all__ = ["Locations", "Position", "locate"]

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Position:
    line: int  # 1-based
    col: int  # 1-based, in characters


@dataclass
class Locations:
    """Key and value positions by key path."""

    keys: dict[Path, Position] = field(default_factory=dict)
    values: dict[Path, Position] = field(default_factory=dict)

    def key(self, path: Path) -> Position:
        """Where the key (or table header) of ``path`` is written, or its nearest
        written ancestor's."""
        return self._find(path, self.keys)

    def value(self, path: Path) -> Position:
        """Where the value of ``path`` starts (a table's: its header)."""
        return self._find(path, self.values)

    def _find(self, path: Path, table: dict[Path, Position]) -> Position:
        for end in range(len(path), 0, -1):
            found = table.get(path[:end]) or self.keys.get(path[:end])
            if found is not None:
                return found
        return Position(1, 1)


@cache
def _parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_toml.language()))


def locate(text: str) -> Locations:
    """The location map of one TOML document."""
    source = text.encode("utf-8")
    tree = _parser().parse(source)
    walker = _Walker(source.split(b"\n"))
    walker.document(tree.root_node)
    return walker.out


_SKIP = {"[", "]", "[[", "]]", ",", "{", "}", "=", "comment", "."}
_KEYS = {"bare_key", "quoted_key", "dotted_key"}


class _Walker:
    def __init__(self, lines: list[bytes]) -> None:
        self.lines = lines
        self.out = Locations()
        self.array_tables: dict[Path, int] = {}

    def position(self, node: tree_sitter.Node) -> Position:
        row, col = node.start_point
        line = self.lines[row] if row < len(self.lines) else b""
        return Position(row + 1, len(line[:col].decode("utf-8", "replace")) + 1)

    def document(self, root: tree_sitter.Node) -> None:
        for child in root.children:
            if child.type == "pair":
                self.pair(child, ())
            elif child.type == "table":
                self.table(child, array=False)
            elif child.type == "table_array_element":
                self.table(child, array=True)

    def table(self, node: tree_sitter.Node, array: bool) -> None:
        key = next((c for c in node.children if c.type in _KEYS), None)
        if key is None:
            return
        path = self.key_path(key, ())
        if array:
            index = self.array_tables.get(path, -1) + 1
            self.array_tables[path] = index
            self.note(path, key, key)
            path = (*path, index)
        self.note(path, key, key)
        for child in node.children:
            if child.type == "pair":
                self.pair(child, path)

    def pair(self, node: tree_sitter.Node, prefix: Path) -> None:
        parts = [c for c in node.children if c.type not in _SKIP]
        if len(parts) < 2 or parts[0].type not in _KEYS:
            return
        key, value = parts[0], parts[-1]
        path = self.key_path(key, prefix)
        self.note(path, key, value)
        self.value(value, path)

    def value(self, node: tree_sitter.Node, path: Path) -> None:
        if node.type == "array":
            items = [c for c in node.children if c.type not in _SKIP]
            for index, item in enumerate(items):
                self.note((*path, index), item, item)
                self.value(item, (*path, index))
        elif node.type == "inline_table":
            for child in node.children:
                if child.type == "pair":
                    self.pair(child, path)

    def key_path(self, node: tree_sitter.Node, prefix: Path) -> Path:
        """The path a (possibly dotted) key names below ``prefix``; the parents a dotted
        key implies are noted at the key too."""
        names: list[str] = []
        self.key_names(node, names)
        path = prefix
        for name in names[:-1]:
            path = (*path, name)
            self.out.keys.setdefault(path, self.position(node))
        return (*path, names[-1]) if names else path

    def key_names(self, node: tree_sitter.Node, names: list[str]) -> None:
        if node.type == "dotted_key":
            for child in node.children:
                if child.type in _KEYS:
                    self.key_names(child, names)
        elif node.type == "quoted_key":
            names.append(
                _unquote(node.text.decode("utf-8", "replace") if node.text else "")
            )
        else:
            names.append(node.text.decode("utf-8", "replace") if node.text else "")

    def note(self, path: Path, key: tree_sitter.Node, value: tree_sitter.Node) -> None:
        self.out.keys.setdefault(path, self.position(key))
        self.out.values.setdefault(path, self.position(value))


def _unquote(text: str) -> str:
    """A quoted key's name, with TOML's escapes, as tomllib reads it."""
    try:
        return next(iter(tomllib.loads(f"{text} = 0")))
    except (tomllib.TOMLDecodeError, StopIteration):
        return text.strip("\"'")
