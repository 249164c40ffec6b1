"""The check-enum-values pass: two members with one value are reported (ENU001), each
repeat once, at the repeating member; distinct values, and equal values in different
enums, are not."""

from __future__ import annotations

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.passes.check_enum_values import check_enum_values


def _enum(name: str, *members: tuple[str, str | int]) -> ir.EnumDecl:
    return ir.EnumDecl(
        name,
        ir.EnumBase.STRING if isinstance(members[0][1], str) else ir.EnumBase.INTEGER,
        tuple(
            ir.EnumMember(m, v, span=ir.Span("a.ts", line, 3))
            for line, (m, v) in enumerate(members, start=1)
        ),
    )


def _check(*decls: ir.Decl) -> list[str]:
    protocol = ir.Protocol(
        "p", "p", "1", ir.Transport("jsonrpc-2.0", ()), ("a", "b"), decls, ()
    )
    diags = Diagnostics()
    assert check_enum_values(protocol, diags) is protocol
    return [f"{d.code} {d.span} {d.message}" for d in diags.items]


def test_a_repeated_value_is_reported_at_each_repeat() -> None:
    found = _check(_enum("Kind", ("A", "x"), ("B", "y"), ("C", "x"), ("D", "x")))
    assert [line.split(" ")[:2] for line in found] == [
        ["ENU001", "a.ts:3:3"],
        ["ENU001", "a.ts:4:3"],
    ]
    assert "Kind.C has the value 'x' of Kind.A" in found[0]


def test_distinct_values_and_other_enums_are_fine() -> None:
    assert _check(_enum("Kind", ("A", "x"), ("B", "y"))) == []
    assert _check(_enum("One", ("A", "x")), _enum("Two", ("A", "x"))) == []
    assert _check(_enum("Num", ("A", 1), ("B", 2))) == []
    assert len(_check(_enum("Num", ("A", 1), ("B", 1)))) == 1
