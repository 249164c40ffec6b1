"""Rules no source language in the repo can produce yet (open enums), checked on hand-built
IR, plus the rating machinery: direction, roles, both directions, deprecation, closed structs.
"""

from __future__ import annotations

import pytest

from codegen import ir
from codegen.diff import RULES, Severity, compare
from codegen.diff.compare import Change
from tests.diff.support import (
    FIXTURES,
    S,
    enum,
    field,
    protocol,
    rule_of,
    struct,
)


def _fields(p: ir.Protocol) -> dict[str, object]:
    return {name: getattr(p, name) for name in ir.Protocol.__dataclass_fields__}


E = ir.Ref("E")
P_WITH_E = struct(field("e", E))


def _consts(**values: str | int) -> ir.Protocol:
    base = protocol(P_WITH_E, enum("a"))
    constants = tuple(ir.ConstDecl(k, v, span=S) for k, v in values.items())
    return ir.Protocol(**{**_fields(base), "constants": constants})  # type: ignore[arg-type]


IR_CASES: dict[str, tuple[ir.Protocol, ir.Protocol, Severity]] = {
    # A protocol version peers send and compare: same shape, new meaning.
    "constant.changed": (
        _consts(ProtocolVersion="4"),
        _consts(ProtocolVersion="5"),
        Severity.DANGEROUS,
    ),
    "constant.added": (
        _consts(),
        _consts(URL_ELICITATION_REQUIRED=-32042),
        Severity.COMPATIBLE,
    ),
    "constant.removed": (
        _consts(FilterAll="all"),
        _consts(),
        Severity.COMPATIBLE,
    ),
    "enum.member-added-open": (
        protocol(P_WITH_E, enum("a", open=True)),
        protocol(P_WITH_E, enum("a", "b", open=True)),
        Severity.COMPATIBLE,
    ),
    "enum.member-removed-open": (
        protocol(P_WITH_E, enum("a", "b", open=True)),
        protocol(P_WITH_E, enum("a", open=True)),
        Severity.COMPATIBLE,
    ),
    "enum.opened": (
        protocol(P_WITH_E, enum("a")),
        protocol(P_WITH_E, enum("a", open=True)),
        Severity.COMPATIBLE,
    ),
    "enum.closed": (
        protocol(P_WITH_E, enum("a", open=True)),
        protocol(P_WITH_E, enum("a")),
        Severity.BREAKING,
    ),
}


def _only(old: ir.Protocol, new: ir.Protocol) -> Change:
    changes = compare(old, new)
    assert len(changes) == 1, [c.rule.id for c in changes]
    return changes[0]


@pytest.mark.parametrize("rule_id", sorted(IR_CASES))
def test_ir_rule(rule_id: str) -> None:
    old, new, severity = IR_CASES[rule_id]
    change = _only(old, new)
    assert change.rule.id == rule_id
    assert change.rate()[0] is severity


def test_every_rule_has_a_case() -> None:
    fixtures = {rule_of(p.name) for p in FIXTURES.iterdir() if p.is_dir()}
    assert set(RULES) - fixtures - set(IR_CASES) == set()


def test_role_picks_the_scenario() -> None:
    old = protocol(struct(field("a")))
    new = protocol(struct(field("a"), field("b")))
    change = _only(old, new)
    assert change.rule.id == "field.added-required"
    # The server receives P: a new server rejects an old client's message.
    assert change.rate("server") == (Severity.BREAKING, ("old client → new server",))
    # The client sends P: a new client writes the key, an old server ignores it.
    assert change.rate("client") == (Severity.COMPATIBLE, ("new client → old server",))
    assert change.rate() == (Severity.BREAKING, ("old client → new server",))


def test_type_used_both_ways_gets_the_stricter_severity() -> None:
    def proto(*fields: ir.Field) -> ir.Protocol:
        shared = struct(*fields, name="Shared")
        base = protocol(shared, params="Shared")
        back = ir.Method(
            "n",
            ir.MethodKind.NOTIFICATION,
            ir.Direction("server", "client"),
            ir.Ref("Shared"),
            None,
            span=S,
        )
        return ir.Protocol(
            **{**_fields(base), "methods": (*base.methods, back)}  # type: ignore[arg-type]
        )

    change = _only(proto(field("a")), proto(field("a"), field("b")))
    assert change.via == ("m", "n")
    # Whichever role upgrades first, it receives Shared from an old peer.
    assert change.rate("client")[0] is Severity.BREAKING
    assert change.rate("server")[0] is Severity.BREAKING


def test_closed_struct_makes_an_added_optional_field_dangerous() -> None:
    """A new optional key is a new alternative: an old receiver that rejects unknown keys
    fails only on messages that use it (as with a new enum member)."""
    old = protocol(struct(field("a"), extra_keys=ir.ExtraKeys.FORBID))
    new = protocol(
        struct(
            field("a"),
            field("b", presence=ir.Presence.OPTIONAL),
            extra_keys=ir.ExtraKeys.FORBID,
        )
    )
    change = _only(old, new)
    assert change.rule.id == "field.added-optional"
    assert change.rate("client") == (Severity.DANGEROUS, ("new client → old server",))
    assert change.rate("server")[0] is Severity.COMPATIBLE
    # A new required key is in every message: the closed old receiver rejects them all.
    required = protocol(struct(field("a"), field("b"), extra_keys=ir.ExtraKeys.FORBID))
    change = _only(old, required)
    assert change.rate("client") == (Severity.BREAKING, ("new client → old server",))


def test_unused_type_is_rated_for_any_direction_but_never_breaking() -> None:
    old = protocol(struct(field("a")), struct(field("x"), name="Loose"))
    new = protocol(struct(field("a")), struct(field("x"), field("y"), name="Loose"))
    change = _only(old, new)
    assert change.where == "Loose.y"
    assert change.unused
    assert change.rate() == (Severity.DANGEROUS, ("old sender → new receiver",))
    # The same change in a type a method carries is breaking.
    used = _only(protocol(struct(field("x"))), protocol(struct(field("x"), field("y"))))
    assert used.rate()[0] is Severity.BREAKING


def test_a_type_used_by_a_method_is_not_also_rated_as_unused() -> None:
    """``Inner`` is reached from ``m``'s params and also named by an unused struct: its
    change carries ``m``'s flow only."""
    inner_old = struct(field("x"), name="Inner")
    inner_new = struct(field("x"), field("y"), name="Inner")
    holder = struct(field("inner", ir.Ref("Inner")), name="Holder")
    params = struct(field("inner", ir.Ref("Inner")))
    change = _only(
        protocol(params, holder, inner_old), protocol(params, holder, inner_new)
    )
    assert change.where == "Inner.y"
    assert not change.unused
    assert change.flows == {("client", "server")}
    assert change.rate()[0] is Severity.BREAKING


def test_renamed_struct_is_matched_by_position() -> None:
    old = protocol(
        struct(field("q", ir.Ref("Inner"))), struct(field("x"), name="Inner")
    )
    new = protocol(
        struct(field("q", ir.Ref("Inner2"))),
        struct(field("x", presence=ir.Presence.OPTIONAL), name="Inner2"),
    )
    rules = sorted(c.rule.id for c in compare(old, new))
    assert rules == ["field.required-to-optional", "python.type-renamed"]


def test_newtype_and_alias_are_their_wire_form() -> None:
    alias = ir.AliasDecl("Id", ir.Primitive(ir.PrimitiveKind.INTEGER), span=S)
    newtype = ir.AliasDecl(
        "Id", ir.Primitive(ir.PrimitiveKind.INTEGER), ir.AliasKind.NEWTYPE, span=S
    )
    old = protocol(struct(field("id", ir.Ref("Id"))), alias)
    new = protocol(struct(field("id", ir.Ref("Id"))), newtype)
    inlined = protocol(struct(field("id", ir.Primitive(ir.PrimitiveKind.INTEGER))))
    assert compare(old, new) == []
    assert [c.rule.id for c in compare(old, inlined)] == ["python.type-removed"]


def test_deprecated_then_removed_enum_member_is_dangerous() -> None:
    deprecated = ir.EnumDecl(
        "E",
        ir.EnumBase.STRING,
        (
            ir.EnumMember("A", "a", span=S),
            ir.EnumMember("B", "b", ir.Lifecycle(deprecated=""), span=S),
        ),
        span=S,
    )
    change = _only(protocol(P_WITH_E, deprecated), protocol(P_WITH_E, enum("a")))
    assert change.rule.id == "enum.member-removed"
    assert change.rate()[0] is Severity.DANGEROUS


def test_a_tuple_element_made_optional_or_a_rest_added_is_a_change() -> None:
    # a tuple's lengths are part of its type (TypeScript's ``[a, b?]``, ``[a, ...b[]]``)
    fixed = ir.TupleOf((STRING_T, STRING_T))
    for other in (
        ir.TupleOf((STRING_T, STRING_T), required=1),
        ir.TupleOf((STRING_T, STRING_T), rest=STRING_T),
    ):
        change = _only(
            protocol(struct(field("t", fixed))), protocol(struct(field("t", other)))
        )
        assert change.rule.id == "type.changed"
    # the same tuple: no change; a rest whose type changes: a change inside it
    same = ir.TupleOf((STRING_T,), rest=STRING_T)
    assert not compare(
        protocol(struct(field("t", same))), protocol(struct(field("t", same)))
    )
    inner = ir.TupleOf((STRING_T,), rest=ir.Primitive(ir.PrimitiveKind.NUMBER))
    assert compare(
        protocol(struct(field("t", same))), protocol(struct(field("t", inner)))
    )


STRING_T = ir.Primitive(ir.PrimitiveKind.STRING)
