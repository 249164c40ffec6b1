"""``Index`` on structs whose bases extend each other (the checker refuses such types, a
frontend may still hand them over): the index-signature lookups end, they never recurse
without end (found by the wild-ts oracle sample on @types/ws)."""

from __future__ import annotations

from codegen import ir
from codegen.ir.index import Index


def _protocol(*decls: ir.Decl) -> ir.Protocol:
    return ir.Protocol(
        id="p",
        title="p",
        version="0",
        transport=ir.Transport("jsonrpc-2.0", ()),
        roles=("client", "server"),
        decls=decls,
        methods=(),
    )


def test_bases_in_a_cycle_have_no_index_signature() -> None:
    a = ir.StructDecl("A", (), bases=(ir.Ref("B"),))
    b = ir.StructDecl("B", (), bases=(ir.Ref("A"),))
    index = Index(_protocol(a, b))
    assert index.index_value(a) is None and index.index_key(b) is None


def test_an_index_signature_in_a_cycle_is_still_found() -> None:
    number = ir.Primitive(ir.PrimitiveKind.NUMBER)
    a = ir.StructDecl("A", (), bases=(ir.Ref("B"),))
    b = ir.StructDecl(
        "B", (), bases=(ir.Ref("A"),), index_value=number, index_key=number
    )
    index = Index(_protocol(a, b))
    assert index.index_value(a) == number and index.numeric_index(a)
    assert not Index(_protocol(a, replace_key(b))).numeric_index(a)


def replace_key(struct: ir.StructDecl) -> ir.StructDecl:
    from dataclasses import replace

    return replace(struct, index_key=None)
