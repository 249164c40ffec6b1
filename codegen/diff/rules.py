"""The catalogue of change kinds the spec diff reports, as data, and the severity model.

Phase: read by the comparison (``compare.py``), the rating (``change.py``) and the report.
Inputs: none (constants).
Outputs: ``RULES``: rule id → ``Rule`` (level, title, message template, severities), and
``Severity`` with its order.
Guarantees: every change the diff emits names a rule of this catalogue (an unknown id is a bug
and raises); rule ids are stable, users match on them (``--format json``).

The severity model
------------------
Every message flows from a sender to a receiver, and during a rollout the two peers run
different revisions.  Each rule therefore carries two severities, one per scenario:

- ``reader``: the receiver runs the NEW revision, the sender the OLD one (``old client → new
  server``);
- ``writer``: the sender runs the NEW revision, the receiver the OLD one (``new client → old
  server``).

A change is rated in the scenarios of the flows that carry it (the methods whose params or
result reach the changed place; a type carried both ways gets both) and the report keeps the
worst; ``--role R`` keeps only the scenarios where R runs the new revision.  In each scenario
the same three questions decide, whatever changed (a method, an enum member, a union variant,
a field, ``null``, a type):

- **breaking**: a peer doing only what its own revision already did (using nothing new) writes
  a message the other peer rejects or misreads.  A new required field (old senders never
  write it); a removed method, enum member or variant (old senders still send it: the new
  receiver answers -32601 or rejects it); a weakened guarantee: a required field removed or
  made optional, ``null`` newly allowed, a wider type, a new wire name or tag (new senders may
  write what old receivers reject for any message, not only for new features).
- **dangerous**: messages fail only when a peer uses something new that the other revision
  lacks: a new alternative.  A new request or notification called by a new peer on an old
  one (-32601; an unknown notification is dropped), a new member of a closed enum, a new
  union variant, a new optional key sent to a receiver that rejects unknown keys, a method
  now also sent the other way.  Also: the same shape with a new meaning (a changed default),
  a removal that was announced by a deprecation, and any change to a type no method carries
  (the diff cannot tell who reads it, so it flags it without calling it breaking).
- **compatible**: every message either revision writes is accepted and read the same: a new
  optional key (old readers ignore unknown keys), a new value of an open enum, a new
  alternative only the new side reads, a relaxed rule on the reader's side.
- **docs**: nothing on the wire (``@since``).

Payloads that carry nothing compare as the source language makes them behave: a method
without params, ``params: null`` and a serde unit struct are the same (serde writes ``null``
and reads a missing value as ``null``), as are a missing result and a ``null`` one.

``reader_closed`` / ``writer_closed`` replace the plain severity when the receiver in that
scenario rejects unknown object keys (``extra_keys = "forbid"``, serde's
``deny_unknown_fields``).  ``softened``: when the removed or weakened item was already
deprecated in the old revision, ``breaking`` becomes ``dangerous`` (the removal was announced).
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
    # A method is a member of the closed set of method names a receiver handles: a new one
    # called by a new peer on an old one is answered -32601 (or, a notification, dropped).
    _rule("method.added", W, "method added", "{kind} added", C, D),
    _rule(
        "method.removed",
        W,
        "method removed",
        "{kind} removed",
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
        "method may now be sent the other way too",
        "now goes {new} (was {old})",
        C,
        D,
    ),
    _rule(
        "method.direction-removed",
        W,
        "method no longer sent one of its ways",
        "now goes {new} (was {old})",
        B,
        C,
        softened=True,
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
        writer_closed=D,
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
    # Where a reader and a writer see a field differently (serde's alias, rename per
    # direction, skip_serializing / skip_deserializing, skip_serializing_if without a
    # default), each scenario pairs one revision's writer with the other's reader; a
    # change is breaking in the scenario where that reader loses or rejects what that
    # writer writes.
    _rule(
        "field.read-mismatch",
        W,
        "new readers lose what old writers write",
        "new readers {new_reader}; old writers {old_writer}",
        B,
        C,
    ),
    _rule(
        "field.write-mismatch",
        W,
        "old readers lose what new writers write",
        "new writers {new_writer}; old readers {old_reader}",
        C,
        B,
    ),
    _rule(
        "field.direction-relaxed",
        W,
        "reading or writing changed without a break",
        "readers {new_reader}; writers {new_writer} "
        "(was: readers {old_reader}; writers {old_writer})",
        C,
        C,
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
    # A variant readers and writers see differently, per direction (as the fields'
    # read/write mismatch rules): the old writer's tag against the new reader's, and
    # the new writer's against the old reader's.
    _rule(
        "union.variant-read-mismatch",
        W,
        "new readers refuse a tag old writers write",
        "variant {variant}: {new} (was: {old})",
        B,
        C,
    ),
    _rule(
        "union.variant-write-mismatch",
        W,
        "old readers refuse a tag new writers write",
        "variant {variant}: {new} (was: {old})",
        C,
        B,
    ),
    _rule(
        "union.variant-direction-relaxed",
        W,
        "a variant's tags read or written otherwise, without a break",
        "variant {variant}: {new} (was: {old})",
        C,
        C,
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
    # ----------------------------------------------------------------- constants
    # A named value of the protocol (a version, a filter name, an error code): the same
    # shape with a new meaning for peers that send or compare it.
    _rule(
        "constant.changed",
        W,
        "constant changed",
        "value {old} → {new}",
        D,
        D,
    ),
    _rule("constant.added", W, "constant added", "constant added = {new}", C, C),
    _rule(
        "constant.removed", W, "constant removed", "constant removed (was {old})", C, C
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
