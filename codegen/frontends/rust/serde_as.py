"""``#[serde_as(deserialize_as = "...")]`` type strings (serde_with) for the serde frontend.

Phase: frontend helper (used by ``rust.decls`` and ``rust.type_exprs``).
Inputs: the string value of ``as`` / ``deserialize_as`` / ``serialize_as``, e.g.
``DefaultOnError<Option<VecSkipError<_, SkipListener>>>``.
Outputs: an ``AsType`` tree (name and arguments), or None when the string is not a type.
What each name means on the wire is decided by the field builder and the type converter:
``_``/``Same`` keep the field's own form, ``DefaultOnError<T>`` turns a value that does not
read into the default, ``VecSkipError<T>`` drops the items that do not read, ``Option<T>`` and
a declared wrapper apply ``T`` inside, ``DisplayFromStr`` writes and reads a string.
Guarantees: pure; never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codegen.frontends.common.syntax import MAX_TYPE_NESTING

_TOKEN = re.compile(
    r"\s*([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*|[<>,_&']|\S)"
)

SAME = "_"


@dataclass(frozen=True)
class AsType:
    name: str  # last path segment; "_" for the field's own type
    args: tuple[AsType, ...] = ()

    def arg(self, index: int = 0) -> AsType:
        return self.args[index] if len(self.args) > index else AsType(SAME)

    @property
    def is_same(self) -> bool:
        return self.name in (SAME, "Same")


def parse_as(text: str) -> AsType | None:
    tokens = [m.group(1) for m in _TOKEN.finditer(text)]
    position = 0
    depth = 0

    def parse() -> AsType | None:
        nonlocal depth
        if depth >= MAX_TYPE_NESTING:
            return None  # deeper than any type the frontend converts: not read
        depth += 1
        try:
            return parse_one()
        finally:
            depth -= 1

    def parse_one() -> AsType | None:
        nonlocal position
        if position >= len(tokens):
            return None
        token = tokens[position]
        position += 1
        if token == "&":
            while position < len(tokens) and tokens[position] == "'":
                position += 2  # a lifetime: ' name
            return parse()
        if not (token == "_" or re.fullmatch(r"[A-Za-z_][\w:]*", token)):
            return None
        name = token.rsplit("::", 1)[-1]
        args: list[AsType] = []
        if position < len(tokens) and tokens[position] == "<":
            position += 1
            while True:
                arg = parse()
                if arg is None:
                    return None
                args.append(arg)
                if position < len(tokens) and tokens[position] == ",":
                    position += 1
                    continue
                if position < len(tokens) and tokens[position] == ">":
                    position += 1
                    break
                return None
        return AsType(name, tuple(args))

    result = parse()
    return result if result is not None and position == len(tokens) else None
