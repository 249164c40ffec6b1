"""The discriminator pass on untagged unions: literal tags make a tagged union; otherwise
the union stays untagged (first fit or best fit), and a first-fit variant that can never
be chosen is reported."""

from __future__ import annotations

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.passes.infer_discriminators import infer_discriminators

STR = ir.Primitive(ir.PrimitiveKind.STRING)
INT = ir.Primitive(ir.PrimitiveKind.INTEGER)


def _field(name: str, expr: ir.TypeExpr, optional: bool = False) -> ir.Field:
    presence = ir.Presence.OPTIONAL if optional else ir.Presence.REQUIRED
    return ir.Field(name, name, expr, presence)


def _run(*decls: ir.Decl) -> tuple[ir.Protocol, Diagnostics]:
    protocol = ir.Protocol(
        "p", "P", "1", ir.Transport("jsonrpc-2.0", ()), ("a", "b"), decls, ()
    )
    diags = Diagnostics()
    return infer_discriminators(protocol, diags), diags


def _union(first_fit: bool, *names: str) -> ir.UnionDecl:
    return ir.UnionDecl(
        "U",
        tuple(ir.Variant(n, ir.Ref(n)) for n in names),
        ir.UnionRepr.UNTAGGED,
        first_fit=first_fit,
    )


def _codes(diags: Diagnostics) -> list[str]:
    return [d.code for d in diags.items]


def test_literal_keys_make_a_tagged_union() -> None:
    protocol, diags = _run(
        ir.StructDecl("A", (_field("kind", ir.Literal("a")),)),
        ir.StructDecl("B", (_field("kind", ir.Literal("b")), _field("x", INT))),
        _union(False, "A", "B"),
    )
    union = protocol.decl("U")
    assert isinstance(union, ir.UnionDecl)
    assert union.repr is ir.UnionRepr.INTERNALLY_TAGGED and union.tag_key == "kind"
    assert _codes(diags) == []


def test_same_literal_twice_stays_untagged_with_a_note() -> None:
    protocol, diags = _run(
        ir.StructDecl("A", (_field("kind", ir.Literal("a")),)),
        ir.StructDecl("B", (_field("kind", ir.Literal("a")), _field("x", INT))),
        _union(False, "A", "B"),
    )
    union = protocol.decl("U")
    assert isinstance(union, ir.UnionDecl) and union.repr is ir.UnionRepr.UNTAGGED
    assert _codes(diags) == ["UNI003"]


def test_first_fit_variant_never_chosen_is_reported() -> None:
    # Every B reads as A (A keeps unknown keys and asks only for ``text``).
    _, diags = _run(
        ir.StructDecl("A", (_field("text", STR),)),
        ir.StructDecl("B", (_field("text", STR), _field("path", STR))),
        _union(True, "A", "B"),
    )
    assert _codes(diags) == ["UNI003", "UNI004"]
    assert "variant B is never chosen" in diags.items[1].message


def test_first_fit_variant_with_its_own_chance_is_not_reported() -> None:
    for a_fields, b_fields in (
        # B first would shadow A, but here A comes first and needs ``text``.
        ((_field("text", STR), _field("mode", INT)), (_field("text", STR),)),
        # Same keys, other types: a value of B never reads as A.
        ((_field("text", STR),), (_field("text", INT),)),
        # A requires what B only may have.
        ((_field("text", STR),), (_field("text", STR, optional=True),)),
    ):
        _, diags = _run(
            ir.StructDecl("A", a_fields),
            ir.StructDecl("B", b_fields),
            _union(True, "A", "B"),
        )
        assert _codes(diags) == ["UNI003"], (a_fields, b_fields)


def test_forbidding_unknown_keys_gives_later_variants_a_chance() -> None:
    _, diags = _run(
        ir.StructDecl("A", (_field("text", STR),), extra_keys=ir.ExtraKeys.FORBID),
        ir.StructDecl("B", (_field("text", STR), _field("path", STR))),
        _union(True, "A", "B"),
    )
    assert _codes(diags) == ["UNI003"]


def test_best_fit_unions_have_no_unreachable_variants() -> None:
    _, diags = _run(
        ir.StructDecl("A", (_field("text", STR),)),
        ir.StructDecl("B", (_field("text", STR), _field("path", STR))),
        _union(False, "A", "B"),
    )
    assert _codes(diags) == ["UNI003"]
