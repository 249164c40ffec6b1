"""Helpers for the diff tests: fixture discovery and hand-built protocols."""

from __future__ import annotations

from pathlib import Path

from codegen import ir

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = HERE / "fixtures"
NOCHANGE = HERE / "nochange"
CROSSLANG = HERE / "crosslang"


def rule_of(fixture: str) -> str:
    """``type.widened~integer-number`` → ``type.widened``."""
    return fixture.split("~", 1)[0]


def level_of(fixture: str) -> str:
    return "python" if fixture.startswith("python.") else "wire"


def rel(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


S = ir.Span("t.ts", 1, 1)
STRING = ir.Primitive(ir.PrimitiveKind.STRING)


def protocol(*decls: ir.Decl, params: str = "P") -> ir.Protocol:
    """A protocol with one request ``m`` (client → server) whose params are ``params``."""
    method = ir.Method(
        "m",
        ir.MethodKind.REQUEST,
        ir.Direction("client", "server"),
        ir.Ref(params),
        None,
        span=S,
    )
    return ir.Protocol(
        id="t",
        title="t",
        version="0",
        transport=ir.Transport("jsonrpc-2.0", ()),
        roles=("client", "server"),
        decls=decls,
        methods=(method,),
    )


def struct(*fields: ir.Field, name: str = "P", **kw: object) -> ir.StructDecl:
    return ir.StructDecl(name, fields, span=S, **kw)  # type: ignore[arg-type]


def field(name: str, type_: ir.TypeExpr = STRING, **kw: object) -> ir.Field:
    return ir.Field(name, name, type_, span=S, **kw)  # type: ignore[arg-type]


def enum(*values: str, open: bool = False, name: str = "E") -> ir.EnumDecl:
    members = tuple(ir.EnumMember(v.capitalize(), v, span=S) for v in values)
    return ir.EnumDecl(name, ir.EnumBase.STRING, members, open=open, span=S)
