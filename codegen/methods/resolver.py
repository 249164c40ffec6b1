"""Evidence → methods: one resolver for every language.

Phase: frontend tail (each frontend hands its ``Evidence`` here).
Inputs: the evidence in source order, the spec's roles, and per wire name the facts
spec.toml's ``[methods]`` table gives (``supplied``; ``"method"`` when the table says the
evidence is not a method, so nothing is reported about it).
Outputs: ``Resolved``: one ``ir.Method`` per wire name in order of first evidence, the
examples the evidence carries, the facts no evidence stated (``unknown``: the table may give
them without being stale) and the provenance of each fact (fact → where it was read).
Guarantees (the rules, the same for every language):
- two exclusive declarations of one name are MTH002;
- kind, direction, params and result agree across the evidence or it is an MTH006 error
  naming both places; a two-way direction covers each one-way direction between the roles;
- guessed directions (a registry naming no role) give way to stated ones; guesses naming
  different senders make the method two-way;
- no kind: a request when some evidence gives a result (a note), else MTH006 unless the
  table gives it; no direction: MTH006 unless the table gives it;
- a request whose result no evidence gives is an MTH010 error unless some evidence says it
  answers nothing or the table gives it; a notification with a result is MTH003;
- every inferred fact is an MTH009 note naming its evidence.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from codegen import ir
from codegen.diagnostics import Diagnostics, Severity
from codegen.methods.evidence import UNSET, Evidence

_TYPE_NODES = (
    ir.Ref,
    ir.InlineUnion,
    ir.AnyJson,
    ir.ArrayOf,
    ir.MapOf,
    ir.Primitive,
    ir.Literal,
    ir.TupleOf,
)


@dataclass
class Resolved:
    methods: list[ir.Method]
    examples: list[ir.Example]
    unknown: dict[str, set[str]]  # wire name → facts no evidence stated
    provenance: dict[str, dict[str, str]] = field(default_factory=dict)


def where_of(item: Evidence) -> str:
    return f"{item.where} ({item.span})" if item.span.file else item.where


def resolve(
    evidence: list[Evidence],
    roles: tuple[str, str],
    supplied: dict[str, set[str]],
    diags: Diagnostics,
    *,
    params_missing: str = "warn",
) -> Resolved:
    """``params_missing``: what a method no evidence gives params for gets — "warn"
    (MTH003 warning, no params), "note" (MTH009, no params) or "error" (MTH010)."""
    groups: dict[str, list[Evidence]] = {}
    for item in evidence:
        groups.setdefault(item.wire, []).append(item)
    out = Resolved([], [], {})
    for wire, items in groups.items():
        given = supplied.get(wire, set())
        if "method" in given:
            out.unknown[wire] = {"method"}  # the table says this is not a method
            continue
        one = _One(wire, items, roles, given, diags, params_missing)
        method = one.build()
        one.unknown.update(fact for item in items for fact in item.weak)
        out.methods.append(method)
        if one.unknown:
            out.unknown[wire] = one.unknown
        out.provenance[wire] = one.provenance
        for item in items:
            out.examples.extend(item.examples)
    return out


@dataclass
class _One:
    wire: str
    items: list[Evidence]
    roles: tuple[str, str]
    supplied: set[str]
    diags: Diagnostics
    params_missing: str
    unknown: set[str] = field(default_factory=set)
    provenance: dict[str, str] = field(default_factory=dict)

    def build(self) -> ir.Method:
        items, wire = self.items, self.wire
        first = items[0]
        exclusive = [i for i in items if i.exclusive]
        for extra in exclusive[1:]:
            self.diags.report(
                "MTH002",
                f"method {wire} is declared twice (first at {exclusive[0].span})",
                extra.span,
            )
        kind = self.kind()
        direction = self.direction()
        params = self.params()
        result = self.result(kind)
        for item in items:
            for fact, why in item.inferred.items():
                self.diags.report(
                    "MTH009", f"{wire}: {fact} {why}", item.span, Severity.NOTE
                )
        lifecycle = next(
            (i.lifecycle for i in items if i.lifecycle.docs), first.lifecycle
        )
        errors = tuple(e for i in items for e in i.errors)
        if errors:
            self.provenance["errors"] = where_of(next(i for i in items if i.errors))
        return ir.Method(
            wire_name=wire,
            kind=kind,
            direction=direction,
            params=params if isinstance(params, _TYPE_NODES) else None,
            result=result if isinstance(result, _TYPE_NODES) else None,
            errors=tuple(dict.fromkeys(errors)),
            lifecycle=lifecycle,
            span=(exclusive[0] if exclusive else first).span,
            params_optional=any(i.params_optional for i in items),
        )

    def kind(self) -> ir.MethodKind:
        stated = [(i.kind, i) for i in self.items if i.kind is not None]
        agreed = self.agree("kind", stated)
        if isinstance(agreed, ir.MethodKind):
            return agreed
        answering = next((i for i in self.items if i.result is not UNSET), None)
        if answering is not None:
            self.provenance["kind"] = f"a result is given by {where_of(answering)}"
            self.unknown.add("kind")
            self.diags.report(
                "MTH009",
                f"{self.wire}: read as a request because {where_of(answering)} gives "
                "it a result",
                answering.span,
                Severity.NOTE,
            )
            return ir.MethodKind.REQUEST
        if "kind" not in self.supplied:
            self.diags.report(
                "MTH006",
                f"the kind of {self.wire} (request or notification) is not in the "
                f'source; add [methods.{toml_key(self.wire)}] kind = "request" (or '
                '"notification") to spec.toml',
                self.items[0].span,
            )
        self.unknown.add("kind")
        return ir.MethodKind.REQUEST

    def direction(self) -> ir.Direction:
        roles = self.roles
        stated = [
            (i.direction, i)
            for i in self.items
            if i.direction is not None and not i.direction_guessed
        ]
        exact = [(d, i) for d, i in stated if not i.direction_partial]
        partial = [(d, i) for d, i in stated if i.direction_partial]
        if exact:
            agreed = self.agree("direction", exact)
            assert isinstance(agreed, ir.Direction)
            two_way = next((d for d, _ in exact if d.both_ways), agreed)
            for value, other in partial:
                if value.sender not in (two_way.sender,) and not two_way.both_ways:
                    self.conflict("direction", exact[0][1], agreed, other, value)
            return two_way
        if partial:
            senders = {d.sender for d, _ in partial}
            d0, i0 = partial[0]
            self.provenance["direction"] = "; ".join(
                f"{d.sender} sends it: {where_of(i)}" for d, i in partial
            )
            if len(senders) > 1 or any(d.both_ways for d, _ in partial):
                return ir.Direction(d0.sender, d0.receiver, both_ways=True)
            return d0
        guessed = [(i.direction, i) for i in self.items if i.direction is not None]
        if guessed:
            senders = {d.sender for d, _ in guessed}
            d0, i0 = guessed[0]
            self.provenance["direction"] = f"guessed from {where_of(i0)}"
            self.unknown.add("direction")
            if len(senders) > 1 or any(d.both_ways for d, _ in guessed):
                return ir.Direction(d0.sender, d0.receiver, both_ways=True)
            return d0
        if "direction" not in self.supplied:
            self.diags.report(
                "MTH006",
                f"the direction of {self.wire} is not in the source; add "
                f'[methods.{toml_key(self.wire)}] direction = "{roles[0]} → {roles[1]}" (or '
                f'"{roles[1]} → {roles[0]}", "{roles[0]} ↔ {roles[1]}") to spec.toml',
                self.items[0].span,
            )
        self.unknown.add("direction")
        return ir.Direction(roles[0], roles[1])

    def params(self) -> object:
        given = [(i.params, i) for i in self.items if i.params is not UNSET]
        if given:
            return self.agree("params", given)
        self.unknown.add("params")
        if "params" not in self.supplied:
            message = (
                f"no params type is found for {self.wire}; it is read as sending no "
                f'params (say [methods.{toml_key(self.wire)}] params = "<type>" if it does, '
                'params = "" to confirm)'
            )
            if self.params_missing == "error":
                self.diags.report("MTH010", message, self.items[0].span)
            elif self.params_missing == "note":
                self.diags.report("MTH009", message, self.items[0].span, Severity.NOTE)
            else:
                self.diags.report("MTH003", message, self.items[0].span)
        return None

    def result(self, kind: ir.MethodKind) -> object:
        given = [(i.result, i) for i in self.items if i.result is not UNSET]
        result = self.agree("result", given) if given else None
        if kind is ir.MethodKind.NOTIFICATION:
            if result is not None:
                self.diags.report(
                    "MTH003",
                    f"notification {self.wire} cannot have a result "
                    f"({type_text(result)} ignored)",
                    self.items[0].span,
                )
            return None
        if given:
            return result
        silent = next((i for i in self.items if i.answers_nothing), None)
        if silent is not None:
            self.provenance["result"] = f"answers nothing: {where_of(silent)}"
            return None
        self.unknown.add("result")
        if "result" not in self.supplied:
            self.diags.report(
                "MTH010",
                f"request {self.wire}: no result type is found and the source does not "
                f'say it answers nothing; add [methods.{toml_key(self.wire)}] result = "<type>" '
                '(or result = "null") to spec.toml',
                self.items[0].span,
            )
        return None

    def agree(self, what: str, values: Sequence[tuple[object, Evidence]]) -> object:
        if not values:
            return None
        # A rule of thumb (``weak``) gives way to any evidence that states the fact.
        strong = [(v, i) for v, i in values if what not in i.weak]
        values = strong or values
        chosen, source = values[0]
        how = source.how.get(what)
        self.provenance[what] = (
            f"{how}, for {where_of(source)}" if how else where_of(source)
        )
        for value, other in values[1:]:
            if value != chosen and not _both_ways_covers(value, chosen):
                self.conflict(what, source, chosen, other, value)
        return chosen

    def conflict(
        self, what: str, one: Evidence, value: object, other: Evidence, said: object
    ) -> None:
        self.diags.report(
            "MTH006",
            f"{self.wire}: {where_of(one)} gives {what} {type_text(value)}, "
            f"{where_of(other)} gives {type_text(said)}",
            other.span,
        )


def _both_ways_covers(value: object, chosen: object) -> bool:
    """A two-way direction agrees with each one-way direction between the same roles."""
    if isinstance(value, ir.Direction) and isinstance(chosen, ir.Direction):
        roles = {value.sender, value.receiver}
        return roles == {chosen.sender, chosen.receiver} and (
            value.both_ways or chosen.both_ways
        )
    return False


def type_text(value: object) -> str:
    """A short, source-neutral text of a fact (for messages and the method table)."""
    if value is None:
        return "none"
    if isinstance(value, ir.Ref):
        return value.name
    if isinstance(value, ir.Direction):
        return value.arrow()
    if isinstance(value, ir.MethodKind):
        return value.value
    if isinstance(value, ir.InlineUnion):
        return " | ".join(type_text(m) for m in value.members)
    if isinstance(value, ir.ArrayOf):
        inner = type_text(value.items)
        return f"({inner})[]" if " " in inner else f"{inner}[]"
    if isinstance(value, ir.MapOf):
        return f"map<{type_text(value.values)}>"
    if isinstance(value, ir.Primitive):
        return value.kind.value
    if isinstance(value, ir.Literal):
        return repr(value.value)
    if isinstance(value, ir.AnyJson):
        return "any"
    return type(value).__name__


def resolve_with(
    methods: list[ir.Method],
    evidence: list[Evidence],
    roles: tuple[str, str],
    diags: Diagnostics,
    where: str = "the method table read before",
    provenance: dict[str, dict[str, str]] | None = None,
) -> list[ir.Method]:
    """Methods a frontend built by its own rules, resolved together with more evidence:
    each method's facts count as stated, so a contradiction names both places."""
    stated = [
        Evidence(
            m.wire_name,
            where,
            m.span,
            kind=m.kind,
            direction=m.direction,
            params=m.params,
            params_optional=m.params_optional,
            result=m.result if m.kind is ir.MethodKind.REQUEST else UNSET,
            errors=m.errors,
            lifecycle=m.lifecycle,
            answers_nothing=m.result is None,
        )
        for m in methods
    ]
    resolved = resolve(stated + evidence, roles, {}, diags)
    if provenance is not None:
        provenance.update(resolved.provenance)
    return resolved.methods


def toml_key(wire: str) -> str:
    """A wire name as a quoted TOML key (``"doc/lookup"``; quotes and controls escaped),
    for the ``[methods.…]`` lines messages suggest."""
    return json.dumps(wire, ensure_ascii=False)
