"""Type texts of the ``[methods]`` table, written in the spec's own source syntax.

Phase: spec.toml's ``[methods]`` table (``table.py``).
Inputs: a type text as the spec's language writes it — TypeScript / prose ``Entry[] |
null``, ``Array<Entry>``, ``Record<string, Entry>``; Rust ``Option<Vec<Entry>>``,
``Box<Entry>``, ``HashMap<String, Entry>``, ``()``; Go ``[]Entry``, ``*Entry``,
``map[string]Entry`` — the language, and the declared names.
Outputs: the ``ir.TypeExpr`` (``None`` for ``null`` / ``()`` alone: no params, a request
answering ``null``), or a ``SyntaxProblem`` saying what is wrong at which offset.
Guarantees: pure; never raises on user text.  Each language's primitive names read as its
compiler reads them (TS ``number`` any number, Rust ``u32``/Go ``int`` integers, Rust
``f64`` a binary float); ``Option<T>``/``*T`` and ``T | null`` are nullable; smart pointers
(``Box``/``Arc``/``Rc``/``Cow``) are their payload, as serde writes them.  A qualified name
(``types::Entry``, ``pkg.Entry``) names its last segment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codegen import ir

_P = ir.Primitive
_K = ir.PrimitiveKind
_INT = _P(_K.INTEGER)
_FLOAT = _P(_K.NUMBER, ir.Constraints(binary_float=True))
_COMMON: dict[str, ir.TypeExpr] = {
    "null": _P(_K.NULL),
    "any": ir.AnyJson(),
}
PRIMITIVES: dict[str, dict[str, ir.TypeExpr]] = {
    "typescript": {
        "string": _P(_K.STRING),
        "number": _P(_K.NUMBER),
        "bigint": _INT,
        "boolean": _P(_K.BOOLEAN),
        "unknown": ir.AnyJson(),
        "object": ir.AnyJson(structured=True),
        "integer": _INT,
    },
    "rust": {
        "String": _P(_K.STRING),
        "str": _P(_K.STRING),
        "bool": _P(_K.BOOLEAN),
        **{f"{s}{b}": _INT for s in "iu" for b in (8, 16, 32, 64, 128, "size")},
        "f32": _FLOAT,
        "f64": _FLOAT,
        "Value": ir.AnyJson(),
        "serde_json::Value": ir.AnyJson(),
    },
    "go": {
        "string": _P(_K.STRING),
        "bool": _P(_K.BOOLEAN),
        **{f"{s}{b}": _INT for s in ("int", "uint") for b in ("", 8, 16, 32, 64)},
        "float32": _FLOAT,
        "float64": _FLOAT,
        "json.RawMessage": ir.AnyJson(),
    },
}
PRIMITIVES["prose"] = PRIMITIVES["typescript"]
_ARRAYS = {"Vec", "Array", "ReadonlyArray", "Set", "HashSet", "BTreeSet", "VecDeque"}
_MAPS = {"HashMap", "BTreeMap", "IndexMap", "Record", "Map"}
_WRAPPERS = {"Box", "Arc", "Rc", "Cow"}
_TOKEN = re.compile(
    r"\s*(?:(?P<str>\"[^\"]*\"|'[^']*')|(?P<name>[A-Za-z_$][\w$]*(?:(?:::|\.)[A-Za-z_$][\w$]*)*)"
    r"|(?P<num>-?\d+(?:\.\d+)?)|(?P<punct>\[\]|[<>\[\](){}|,*&?]))"
)


@dataclass(frozen=True, slots=True)
class SyntaxProblem:
    message: str


_NOTHING = object()  # ``null`` / ``()`` alone


def read_type(
    text: str, language: str, declared: set[str]
) -> ir.TypeExpr | None | SyntaxProblem:
    tokens: list[str] = []
    pos = 0
    while pos < len(text.rstrip()):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            return SyntaxProblem(f"unexpected {text[pos:].strip()[:12]!r}")
        tokens.append(match.group().strip())
        pos = match.end()
    parser = _Parser(tokens, language, declared)
    try:
        expr = parser.union()
        if parser.pos != len(tokens):
            raise _Fail(f"unexpected {tokens[parser.pos]!r}")
    except _Fail as fail:
        return SyntaxProblem(str(fail))
    if expr is _NOTHING or expr == _P(_K.NULL):
        return None
    assert not isinstance(expr, SyntaxProblem)
    return expr  # type: ignore[return-value]


class _Fail(Exception):
    pass


class _Parser:
    def __init__(self, tokens: list[str], language: str, declared: set[str]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.primitives = {**_COMMON, **PRIMITIVES.get(language, {})}
        self.declared = declared

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None:
            raise _Fail("the type text ends too early")
        if expected is not None and token != expected:
            raise _Fail(f"expected {expected!r}, got {token!r}")
        self.pos += 1
        return token

    def union(self) -> object:
        members = [self.term()]
        while self.peek() == "|":
            self.take()
            members.append(self.term())
        if len(members) == 1:
            return members[0]
        return _union(members)

    def term(self) -> object:
        token = self.peek()
        if token == "[]":  # Go ``[]T``
            self.take()
            return ir.ArrayOf(self.expr(self.term()))
        if token in ("*", "&"):  # Go ``*T`` nullable; a Rust reference is its target
            self.take()
            inner = self.expr(self.term())
            return _nullable(inner) if token == "*" else inner
        expr = self.primary()
        while self.peek() == "[]":  # TS ``T[]``
            self.take()
            expr = ir.ArrayOf(self.expr(expr))
        return expr

    def primary(self) -> object:
        token = self.take()
        if token == "(":
            if self.peek() == ")":
                self.take()
                return _NOTHING
            inner = self.union()
            self.take(")")
            return inner
        if token[0] in "\"'":
            return ir.Literal(token[1:-1])
        if re.match(r"-?\d", token):
            number = float(token)
            return ir.Literal(int(number) if number.is_integer() else number)
        if token == "map" and self.peek() == "[":  # Go ``map[K]V``
            self.take("[")
            self.union()
            self.take("]")
            return ir.MapOf(self.expr(self.term()))
        if token == "interface" and self.peek() == "{":
            self.take("{")
            self.take("}")
            return ir.AnyJson()
        if token in ("true", "false"):
            return ir.Literal(token == "true")
        if not re.match(r"[A-Za-z_$]", token):
            raise _Fail(f"unexpected {token!r}")
        args: list[object] = []
        if self.peek() == "<":
            self.take()
            args.append(self.union())
            while self.peek() == ",":
                self.take()
                args.append(self.union())
            self.take(">")
        return self.named(token, args)

    def named(self, name: str, args: list[object]) -> object:
        short = name.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
        if args:
            if short == "Option" and len(args) == 1:
                return _nullable(self.expr(args[0]))
            if short in _ARRAYS and len(args) == 1:
                return ir.ArrayOf(self.expr(args[0]))
            if short in _WRAPPERS:
                return args[-1]
            if short in _MAPS and len(args) == 2:
                return ir.MapOf(self.expr(args[1]))
            raise _Fail(
                f"{name}<...> is not a type the [methods] table reads; name a "
                "declared type"
            )
        if name in self.primitives:
            return self.primitives[name]
        if short in self.declared:
            return ir.Ref(short)
        if short in self.primitives:
            return self.primitives[short]
        raise _Fail(f"{name!r} is not declared by the spec")

    @staticmethod
    def expr(value: object) -> ir.TypeExpr:
        if value is _NOTHING:
            return _P(_K.NULL)
        return value  # type: ignore[return-value]


def _nullable(expr: ir.TypeExpr) -> ir.TypeExpr:
    return _union([expr, _P(_K.NULL)])  # type: ignore[return-value]


def _union(members: list[object]) -> object:
    flat: list[ir.TypeExpr] = []
    for member in members:
        parts = member.members if isinstance(member, ir.InlineUnion) else (member,)
        for part in parts:
            part = _P(_K.NULL) if part is _NOTHING else part
            if part not in flat:
                flat.append(part)  # type: ignore[arg-type]
    return flat[0] if len(flat) == 1 else ir.InlineUnion(tuple(flat))
