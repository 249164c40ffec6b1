"""The catalogue of change kinds the spec diff reports, as data.

Phase: read by the comparison (``compare.py``) and the report (``report.py``).
Inputs: none (constants).
Outputs: ``RULES``: rule id → ``Rule`` (level, title, message template, severities), and
``Severity`` with its order.
Guarantees: every change the diff emits names a rule of this catalogue (an unknown id is a bug
and raises); rule ids are stable, users match on them (``--format json``).

Severity depends on the direction of the message a change touches.  A message flows from its
sender to its receiver, and during a rollout the two peers run different revisions, so each
rule carries two severities:

- ``reader``: the receiver runs the NEW revision, the sender the OLD one ("old sender → new
  receiver").  A new required field breaks here: old senders do not write it.
- ``writer``: the sender runs the NEW revision, the receiver the OLD one ("new sender → old
  receiver").  A removed required field, a new nullable, a widened type or a new member of a
  closed enum breaks (or endangers) here: old receivers reject what new senders write.

A change is rated by the scenarios that apply to it (``--role`` keeps only the scenario where
that role runs the new revision); a type reachable in both directions gets the stricter one.
``reader_closed`` / ``writer_closed`` replace the plain severity when the receiver in that
scenario rejects unknown object keys (``extra_keys = "forbid"``).  ``softened``: when the removed
or changed item was already deprecated in the old revision, ``breaking`` becomes ``dangerous``
(the removal was announced).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Severity(enum.Enum):
    DOCS = "docs"
    COMPATIBLE = "compatible"
    DANGEROUS = "dangerous"
    BREAKING = "breaking"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {
    Severity.DOCS: 0,
    Severity.COMPATIBLE: 1,
    Severity.DANGEROUS: 2,
    Severity.BREAKING: 3,
}


class Level(enum.Enum):
    WIRE = "wire"  # what peers exchange
    PYTHON = "python"  # the generated Python API (class, member and attribute names)


B = Severity.BREAKING
D = Severity.DANGEROUS
C = Severity.COMPATIBLE
DOC = Severity.DOCS


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    level: Level
    title: str
    template: str  # str.format(**details); the report prints the location beside it
    reader: Severity  # old sender → new receiver
    writer: Severity  # new sender → old receiver
    reader_closed: Severity | None = None  # the new receiver rejects unknown keys
    writer_closed: Severity | None = None  # the old receiver rejects unknown keys
    softened_by_deprecation: bool = False


def _rule(
    id: str,
    level: Level,
    title: str,
    template: str,
    reader: Severity,
    writer: Severity,
    *,
    reader_closed: Severity | None = None,
    writer_closed: Severity | None = None,
    softened: bool = False,
) -> Rule:
    return Rule(
        id,
        level,
        title,
        template,
        reader,
        writer,
        reader_closed,
        writer_closed,
        softened,
    )


W = Level.WIRE
P = Level.PYTHON

_CATALOGUE: tuple[Rule, ...] = (
    # ----------------------------------------------------------------- methods
    _rule("method.added", W, "method added", "method added", C, C),
    _rule(
        "method.removed",
        W,
        "method removed",
        "method removed",
        B,
        C,
        softened=True,
    ),
    _rule(
        "method.kind-changed",
        W,
        "request ↔ notification",
        "changed from {old} to {new}",
        B,
        B,
    ),
    _rule(
        "method.direction-changed",
        W,
        "method direction changed",
        "now goes {new} (was {old})",
        B,
        B,
    ),
    _rule(
        "method.direction-added",
        W,
        "method may now be sent both ways",
        "now goes {new} (was {old})",
        C,
        C,
    ),
    _rule(
        "method.params-added",
        W,
        "params added",
        "now carries params (had none)",
        B,
        C,
    ),
    _rule(
        "method.params-removed",
        W,
        "params removed",
        "no longer carries params",
        C,
        B,
    ),
    _rule(
        "method.result-added",
        W,
        "result added",
        "now returns a result (was null)",
        B,
        C,
    ),
    _rule(
        "method.result-removed",
        W,
        "result removed",
        "now returns null",
        C,
        B,
    ),
    # ----------------------------------------------------------------- fields
    _rule(
        "field.added-required",
        W,
        "required field added",
        "required field added",
        B,
        C,
        writer_closed=B,
    ),
    _rule(
        "field.added-optional",
        W,
        "optional field added",
        "optional field added",
        C,
        C,
        writer_closed=B,
    ),
    _rule(
        "field.removed-required",
        W,
        "required field removed",
        "required field removed",
        C,
        B,
        reader_closed=B,
        softened=True,
    ),
    _rule(
        "field.removed-optional",
        W,
        "optional field removed",
        "optional field removed",
        C,
        C,
        reader_closed=B,
    ),
    _rule(
        "field.optional-to-required",
        W,
        "optional → required",
        "became required (was {old})",
        B,
        C,
    ),
    _rule(
        "field.required-to-optional",
        W,
        "required → optional",
        "may now be absent (was required)",
        C,
        B,
        softened=True,
    ),
    _rule(
        "field.presence-relaxed",
        W,
        "presence changed without a break",
        "presence {old} → {new}",
        C,
        C,
    ),
    _rule(
        "field.wire-renamed",
        W,
        "wire name changed",
        "wire name changed (was {old_field})",
        B,
        B,
    ),
    _rule(
        "field.default-changed",
        W,
        "default changed",
        "default {old} → {new}",
        D,
        D,
    ),
    # ----------------------------------------------------------------- nullability and types
    _rule(
        "nullable.added",
        W,
        "null now allowed",
        "may now be null",
        C,
        B,
    ),
    _rule(
        "nullable.removed",
        W,
        "null no longer allowed",
        "may no longer be null",
        B,
        C,
    ),
    _rule(
        "type.changed",
        W,
        "type changed",
        "type changed: {old} → {new}",
        B,
        B,
    ),
    _rule(
        "type.widened",
        W,
        "type widened",
        "type widened: {old} → {new}",
        C,
        B,
    ),
    _rule(
        "type.narrowed",
        W,
        "type narrowed",
        "type narrowed: {old} → {new}",
        B,
        C,
    ),
    _rule(
        "struct.extra-keys-closed",
        W,
        "unknown keys now rejected",
        "now rejects unknown keys",
        D,
        C,
    ),
    _rule(
        "struct.extra-keys-opened",
        W,
        "unknown keys now accepted",
        "now accepts unknown keys",
        C,
        C,
    ),
    # ----------------------------------------------------------------- enums and literals
    _rule(
        "enum.member-added",
        W,
        "member added to a closed enum",
        "value {value} added",
        C,
        D,
    ),
    _rule(
        "enum.member-added-open",
        W,
        "member added to an open enum",
        "value {value} added (open enum)",
        C,
        C,
    ),
    _rule(
        "enum.member-removed",
        W,
        "member removed from a closed enum",
        "value {value} removed",
        B,
        C,
        softened=True,
    ),
    _rule(
        "enum.member-removed-open",
        W,
        "member removed from an open enum",
        "value {value} removed (open enum)",
        C,
        C,
    ),
    _rule(
        "enum.opened",
        W,
        "enum now open",
        "now accepts unknown values",
        C,
        C,
    ),
    _rule(
        "enum.closed",
        W,
        "enum now closed",
        "no longer accepts unknown values",
        B,
        C,
    ),
    # ----------------------------------------------------------------- unions
    _rule(
        "union.variant-added",
        W,
        "union variant added",
        "variant {variant} added",
        C,
        D,
    ),
    _rule(
        "union.variant-removed",
        W,
        "union variant removed",
        "variant {variant} removed",
        B,
        C,
        softened=True,
    ),
    _rule(
        "union.tag-key-changed",
        W,
        "tag key changed",
        "tag key {old} → {new}",
        B,
        B,
    ),
    _rule(
        "union.tag-value-changed",
        W,
        "tag value changed",
        "variant {variant} tag {old} → {new}",
        B,
        B,
    ),
    _rule(
        "union.repr-changed",
        W,
        "union representation changed",
        "representation {old} → {new}",
        B,
        B,
    ),
    # ----------------------------------------------------------------- lifecycle
    _rule(
        "deprecated.added",
        W,
        "deprecated",
        "deprecated{reason}",
        C,
        C,
    ),
    _rule(
        "deprecated.removed",
        W,
        "no longer deprecated",
        "no longer deprecated",
        C,
        C,
    ),
    _rule(
        "since.changed",
        W,
        "@since changed",
        "since {old} → {new}",
        DOC,
        DOC,
    ),
    # ----------------------------------------------------------------- generated Python API
    _rule(
        "python.type-renamed",
        P,
        "class renamed",
        "class {old} renamed to {new} (same wire form)",
        B,
        B,
    ),
    _rule(
        "python.type-removed",
        P,
        "class or alias removed",
        "{old} is no longer exported",
        B,
        B,
    ),
    _rule(
        "python.type-added",
        P,
        "class or alias added",
        "{new} is now exported",
        C,
        C,
    ),
    _rule(
        "python.enum-member-renamed",
        P,
        "enum member renamed",
        "{enum}.{old} renamed to {enum}.{new} (same value {value})",
        B,
        B,
    ),
    _rule(
        "python.field-source-renamed",
        P,
        "source name changed, wire name kept",
        "source name {old} → {new}; attribute {attribute} unchanged",
        DOC,
        DOC,
    ),
)

RULES: dict[str, Rule] = {rule.id: rule for rule in _CATALOGUE}


def rule(rule_id: str) -> Rule:
    """The rule with this id; an unknown id is a bug in the diff."""
    return RULES[rule_id]
