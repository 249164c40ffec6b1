"""JSON-RPC message types next to a method table (MCP's shape): a request interface with a
literal ``method`` is its method, a routing union of them (``ClientRequest``) repeats the
method table, and the generic envelope (``JSONRPCMessage``) is carried by no method.  Checked
on hand-built IR, as a TypeScript frontend that derives methods from such interfaces
produces it."""

from __future__ import annotations

from codegen import ir
from codegen.diff import Severity, compare
from codegen.diff.change import Change
from tests.diff.support import STRING, S

OPT = ir.Presence.OPTIONAL


def fld(name: str, type_: ir.TypeExpr = STRING, **kw: object) -> ir.Field:
    return ir.Field(name, name, type_, span=S, **kw)  # type: ignore[arg-type]


def st(name: str, *fields: ir.Field, bases: tuple[str, ...] = ()) -> ir.StructDecl:
    return ir.StructDecl(name, fields, tuple(ir.Ref(b) for b in bases), span=S)


def union(name: str, *members: str) -> ir.UnionDecl:
    return ir.UnionDecl(
        name,
        tuple(ir.Variant(m, ir.Ref(m), span=S) for m in members),
        ir.UnionRepr.UNTAGGED,
        span=S,
    )


def request(method: str, params: str) -> ir.StructDecl:
    return st(
        f"{params}Request",
        fld("method", ir.Literal(method)),
        fld("params", ir.Ref(params)),
        bases=("JSONRPCRequest",),
    )


def proto(
    *decls: ir.Decl, methods: tuple[tuple[str, str, str], ...] = ()
) -> ir.Protocol:
    return ir.Protocol(
        id="t",
        title="t",
        version="0",
        transport=ir.Transport("jsonrpc-2.0", ()),
        roles=("client", "server"),
        decls=decls,
        methods=tuple(
            ir.Method(
                wire,
                ir.MethodKind.REQUEST,
                ir.Direction("client", "server"),
                ir.Ref(params),
                ir.Ref(result),
                span=S,
            )
            for wire, params, result in methods
        ),
    )


def envelope(*, error_id: ir.Presence = ir.Presence.REQUIRED) -> list[ir.Decl]:
    return [
        st(
            "Request",
            fld("method"),
            fld("params", ir.AnyJson(object_only=True), presence=OPT),
        ),
        st(
            "JSONRPCRequest",
            fld("jsonrpc", ir.Literal("2.0")),
            fld("id"),
            bases=("Request",),
        ),
        st(
            "JSONRPCError",
            fld("jsonrpc", ir.Literal("2.0")),
            fld("id", presence=error_id),
            fld("error", ir.AnyJson()),
        ),
        union("JSONRPCMessage", "JSONRPCRequest", "JSONRPCError"),
        st("Result", fld("_meta", ir.AnyJson(object_only=True), presence=OPT)),
    ]


def wire(changes: list[Change]) -> list[tuple[str, str, Severity]]:
    out = [
        (c.rule.id, c.where, c.rate()[0])
        for c in changes
        if not c.rule.id.startswith("python.")
    ]
    return sorted(out)


ONE_METHOD = (("tools/call", "CallParams", "CallResult"),)
TWO_METHODS = (*ONE_METHOD, ("tools/list", "ListParams", "ListResult"))


def old_side() -> ir.Protocol:
    return proto(
        *envelope(),
        st("CallParams", fld("name")),
        st("CallResult", fld("text"), bases=("Result",)),
        request("tools/call", "CallParams"),
        union("ClientRequest", "CallParamsRequest"),
        union("ClientResult", "CallResult"),
        methods=ONE_METHOD,
    )


def test_a_new_method_is_reported_once_not_again_by_its_routing_unions() -> None:
    new = proto(
        *envelope(),
        st("CallParams", fld("name")),
        st("CallResult", fld("text"), bases=("Result",)),
        st("ListParams", fld("cursor", presence=OPT)),
        st("ListResult", fld("items", ir.ArrayOf(STRING)), bases=("Result",)),
        request("tools/call", "CallParams"),
        request("tools/list", "ListParams"),
        union("ClientRequest", "CallParamsRequest", "ListParamsRequest"),
        union("ClientResult", "CallResult", "ListResult"),
        methods=TWO_METHODS,
    )
    assert wire(compare(old_side(), new)) == [
        ("method.added", "tools/list", Severity.DANGEROUS)
    ]


def test_moving_envelope_keys_between_bases_changes_nothing() -> None:
    """The request interface extends Request in one revision and JSONRPCRequest (with
    ``jsonrpc``/``id``) in the other: the method's payload is the same."""
    new = proto(
        *envelope(),
        st("CallParams", fld("name")),
        st("CallResult", fld("text"), bases=("Result",)),
        st(
            "CallParamsRequest",
            fld("method", ir.Literal("tools/call")),
            fld("params", ir.Ref("CallParams")),
            bases=("Request",),
        ),
        union("ClientRequest", "CallParamsRequest"),
        union("ClientResult", "CallResult"),
        methods=ONE_METHOD,
    )
    assert wire(compare(old_side(), new)) == []
    assert wire(compare(new, old_side())) == []


def test_an_envelope_change_is_flagged_but_never_breaking() -> None:
    old = old_side()
    new = proto(
        *envelope(error_id=OPT),
        *old.decls[len(envelope()) :],
        methods=ONE_METHOD,
    )
    changes = [c for c in compare(old, new) if not c.rule.id.startswith("python.")]
    assert wire(changes) == [
        ("field.required-to-optional", "JSONRPCError.id", Severity.DANGEROUS)
    ]
    assert changes[0].unused
    # The same change in a method's payload is breaking.
    used_old = proto(st("P", fld("id")), st("R"), methods=(("m", "P", "R"),))
    used_new = proto(
        st("P", fld("id", presence=OPT)), st("R"), methods=(("m", "P", "R"),)
    )
    assert wire(compare(used_old, used_new)) == [
        ("field.required-to-optional", "P.id", Severity.BREAKING)
    ]


def test_a_key_added_to_a_base_of_results_is_reported_once_with_every_method() -> None:
    def side(*result_fields: ir.Field) -> ir.Protocol:
        return proto(
            st("Result", *result_fields),
            st("CallParams", fld("name")),
            st("CallResult", fld("text"), bases=("Result",)),
            st("ListParams"),
            st("ListResult", fld("items", ir.ArrayOf(STRING)), bases=("Result",)),
            methods=TWO_METHODS,
        )

    changes = [
        c
        for c in compare(side(), side(fld("_meta", ir.AnyJson(), presence=OPT)))
        if not c.rule.id.startswith("python.")
    ]
    assert [(c.rule.id, c.where, c.via) for c in changes] == [
        ("field.added-optional", "Result._meta", ("tools/call", "tools/list"))
    ]
