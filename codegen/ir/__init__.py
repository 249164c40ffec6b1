"""The intermediate representation shared by every frontend, pass and backend.

Phase: the model between parsing and rendering.
Inputs: built by the frontends (one per source language), rewritten by the passes.
Outputs: read by naming, the backends and the diff.
Guarantees: every node is a frozen dataclass (hashable, comparable, safe to share between
passes); every node that came from a source carries a ``Span``; nothing here imports from the
rest of the package, so the IR can be used alone (a test enforces this).  Equality and hashing
mean "the same wire meaning": spans and docs are presentation and take no part in them, so
the same declaration written in two places (a field redeclared in a sub-interface, a ``_meta``
field inherited from two bases) IS the same declaration.

The IR is designed for all four source languages at once.  The facts a wire format depends on
are kept apart rather than folded into one flag: whether a key may be absent (``Presence``),
whether it may be ``null`` (``Field.nullable``) and what a reader assumes when it is absent
(``Field.default_json``) are three separate facts, because serde, Go and TypeScript each combine
them differently.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TypeAlias


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A position in a spec source: repo-relative ``file``, 1-based ``line`` and ``col``."""

    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<generated>", 0, 0)


@dataclass(frozen=True, slots=True)
class Lifecycle:
    """Documentation and versioning facts every declaration may carry.

    ``docs`` is presentation: it takes no part in equality, so the same declaration with
    other comments is the same declaration (the diff compares docs on its own).
    """

    docs: str = field(default="", compare=False)
    since: str | None = None
    deprecated: str | None = (
        None  # the deprecation message; "" means deprecated without a reason
    )


NO_LIFECYCLE = Lifecycle()


# --------------------------------------------------------------------------- type expressions


class PrimitiveKind(enum.Enum):
    STRING = "string"
    INTEGER = "integer"  # kept apart from NUMBER: Rust u64 and Go int are integers on the wire
    NUMBER = "number"  # any JSON number; the value is kept exactly as written (TS ``number``)
    BOOLEAN = "boolean"
    NULL = "null"


@dataclass(frozen=True, slots=True)
class Constraints:
    """Value constraints taken from the source (``@format float``, ``u8`` ranges, ``PathBuf``)."""

    minimum: int | float | None = None
    maximum: int | float | None = None
    format: str | None = None  # e.g. "uri", "float", "uint64", "path", "semver"
    pattern: str | None = None
    # The value is an IEEE 754 binary float (Rust f32/f64): ``5`` reads as ``5.0`` and is
    # written so; a number beyond its range is an error.  Otherwise a NUMBER keeps the
    # value as written.
    binary_float: bool = False


NO_CONSTRAINTS = Constraints()


@dataclass(frozen=True, slots=True)
class Primitive:
    kind: PrimitiveKind
    constraints: Constraints = NO_CONSTRAINTS


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference to a named declaration of the protocol (resolved by name)."""

    name: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class EnumMemberRef:
    """One member of an enum used as a type: the TS discriminant ``type: Kind.Text``."""

    enum: str
    member: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Literal:
    """A single JSON scalar as a type: ``'file'``, ``42``, ``true``."""

    value: str | int | float | bool


@dataclass(frozen=True, slots=True)
class ArrayOf:
    items: TypeExpr
    # A reader drops the items that do not read as ``items`` instead of rejecting the
    # array (serde_with ``VecSkipError``); a writer writes what it kept.
    skip_invalid: bool = False


@dataclass(frozen=True, slots=True)
class MapOf:
    """A JSON object used as a dictionary; keys are strings on the wire."""

    values: TypeExpr
    key: TypeExpr = field(default_factory=lambda: Primitive(PrimitiveKind.STRING))
    # A writer writes the entries in key order whatever order they were read in (Rust's
    # ``BTreeMap``); otherwise in the order read.
    sorted_keys: bool = False


@dataclass(frozen=True, slots=True)
class TupleOf:
    """A JSON array with a type per position.  ``required``: how many leading items must
    be present (None: all; TypeScript's ``[a, b?]`` has 1); ``rest``: the type of every
    item after ``items`` (TypeScript's ``[a, ...b[]]``), None: no more items."""

    items: tuple[TypeExpr, ...]
    required: int | None = None
    rest: TypeExpr | None = None
    # What a writer writes where it differs (serde's skip_serializing /
    # skip_deserializing on a tuple struct's fields): ``items`` is what a reader reads.
    written_items: tuple[TypeExpr, ...] | None = None

    @property
    def least(self) -> int:
        """How many items an instance has at the least (``required``, else all)."""
        return len(self.items) if self.required is None else self.required


@dataclass(frozen=True, slots=True)
class AnyJson:
    """Any JSON value (TS ``unknown``/``any``, ``serde_json::Value``, Go ``any``/``RawMessage``).

    ``object_only`` narrows it to any JSON object (serde_json ``Map``); ``structured`` to
    any JSON object or array (TS ``object``: everything but primitives).
    """

    object_only: bool = False
    structured: bool = False


@dataclass(frozen=True, slots=True)
class InlineUnion:
    """An anonymous union inside a type expression (``A | B``, ``'x' | 'y'``, ``T | null``).

    Unions of declarations are lifted to named ``UnionDecl``s by a pass; what stays inline is
    literal unions and nullability inside containers.
    """

    members: tuple[TypeExpr, ...]


TypeExpr: TypeAlias = (
    Primitive
    | Ref
    | EnumMemberRef
    | Literal
    | ArrayOf
    | MapOf
    | TupleOf
    | AnyJson
    | InlineUnion
)


# --------------------------------------------------------------------------- declarations


class Presence(enum.Enum):
    """Whether a key is on the wire, separately for reading and writing."""

    REQUIRED = "required"  # always written; a reader rejects a message without it
    OPTIONAL = "optional"  # may be absent both ways (TS ``?``, serde skip_serializing_if, omitempty)
    # Always written, but a reader accepts it missing: serde's bare ``Option<T>`` and
    # ``#[serde(default)]`` fields.
    WRITTEN_ALWAYS_READ_OPTIONAL = "written-always-read-optional"


@dataclass(frozen=True, slots=True)
class Field:
    name: str  # the name in the source language
    wire_name: str  # the JSON key
    type: TypeExpr
    presence: Presence = Presence.REQUIRED
    nullable: bool = False
    default_json: str | None = (
        None  # canonical JSON text of the value assumed when absent
    )
    flatten: bool = (
        False  # serde ``flatten``: the fields of ``type`` sit in this object
    )
    lifecycle: Lifecycle = NO_LIFECYCLE
    span: Span = field(default=NO_SPAN, compare=False)
    # e.g. Go's trailing ``// "user" or "assistant"``; presentation only
    allowed_values_note: str | None = field(default=None, compare=False)
    synthesized: bool = (
        False  # added by the frontend (serde's struct tag), not written in source
    )
    # Canonical JSON of the value a writer never writes: it leaves the key out instead
    # (serde's ``skip_serializing_if``: ``null`` for ``Option::is_none``, ``[]`` for
    # ``Vec::is_empty``, a default member for ``is_default``).  A reader accepts it
    # (``null`` too: read-side nullability) and keeps the key absent.
    omitted_value: str | None = None
    # A value that does not read as ``type`` is not an error: the reader takes what an
    # absent key gives (``default_json``, or absent).  serde_with ``DefaultOnError``; the
    # tag key of a serde struct, whose value serde never reads.
    default_on_error: bool = False
    # Where reading and writing differ (serde's ``rename(serialize = .., deserialize = ..)``,
    # ``alias``, ``skip_serializing``, ``skip_deserializing``), ``wire_name`` and
    # ``presence`` say what a writer writes and these what a reader reads: the keys a
    # reader takes the value from (empty: ``wire_name`` only); ``written`` False: a writer
    # never writes the key; ``read`` False: a reader never reads it (the key is an unknown
    # one) and takes ``default_json``.
    read_names: tuple[str, ...] = ()
    written: bool = True
    read: bool = True
    # A writer may leave the key out (``presence`` OPTIONAL) but a reader rejects the
    # object without it: serde's ``skip_serializing_if`` on a field with no default.
    read_required: bool = False

    def read_keys(self) -> tuple[str, ...]:
        """The keys a reader takes this field's value from."""
        return self.read_names or (self.wire_name,)

    def asymmetric(self) -> bool:
        """Whether a reader and a writer see this field differently."""
        return (
            bool(self.read_names)
            or not self.written
            or not self.read
            or self.read_required
        )


class ExtraKeys(enum.Enum):
    """What a reader does with keys an object type does not declare."""

    ALLOW = "allow"  # accepted and kept, so a round trip preserves them
    FORBID = "forbid"


@dataclass(frozen=True, slots=True)
class StructDecl:
    name: str
    fields: tuple[Field, ...]
    bases: tuple[Ref, ...] = ()
    extra_keys: ExtraKeys = ExtraKeys.ALLOW
    index_value: TypeExpr | None = None  # TS ``[k: string]: T`` / serde flattened map
    lifecycle: Lifecycle = NO_LIFECYCLE
    span: Span = field(default=NO_SPAN, compare=False)
    derived_from: str | None = None  # "FileEdit.before" when the name was synthesized
    exported: bool = True
    # A reader also takes the object as a JSON array of these keys' values, in this order
    # (serde_json reads any struct so); the flag says whether a trailing value may be left
    # out (the field has its own default).  None: only the object form.
    array_form: tuple[tuple[str, bool], ...] | None = None
    # The keys ``index_value`` types: None, every key beyond the fields; a NUMBER
    # primitive, numeric names only (TS ``[k: number]: T`` beside members): any other key
    # is an extra key, which ``extra_keys`` decides.
    index_key: TypeExpr | None = None


class EnumBase(enum.Enum):
    STRING = "string"
    INTEGER = "integer"


@dataclass(frozen=True, slots=True)
class EnumMember:
    name: str
    value: str | int
    lifecycle: Lifecycle = NO_LIFECYCLE
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class EnumDecl:
    name: str
    base: EnumBase
    members: tuple[EnumMember, ...]
    flags: bool = False  # a bit-flag enum: every OR of member values is a legal value
    open: bool = False  # readers accept values that are not members
    # The member (by name) a reader takes for any value of the base type that is not a
    # member; a writer writes that member's value (serde's ``#[serde(other)]``).
    catch_all: str | None = None
    # A reader also takes a member as the object ``{value: null}`` (serde_json reads a
    # unit variant so); a writer writes the bare value.
    map_form: bool = False
    lifecycle: Lifecycle = NO_LIFECYCLE
    span: Span = field(default=NO_SPAN, compare=False)
    derived_from: str | None = None
    exported: bool = True


class UnionRepr(enum.Enum):
    """How a union is written on the wire (serde's four representations; TS and Go map onto them)."""

    INTERNALLY_TAGGED = "internally-tagged"  # {"type": "x", ...fields}
    ADJACENTLY_TAGGED = "adjacently-tagged"  # {"t": "x", "c": payload}
    EXTERNALLY_TAGGED = "externally-tagged"  # {"x": payload} or "x" for a unit variant
    # The payload alone.  A reader takes a variant that reads the value: with
    # ``UnionDecl.first_fit`` the first one in declaration order (serde's untagged enums);
    # otherwise any (TypeScript's assignability), preferring the one that fits best.
    # A pass turns it into INTERNALLY_TAGGED when literal keys tell the variants apart.
    UNTAGGED = "untagged"


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    type: TypeExpr | None  # None: a unit variant (no payload)
    tag_values: tuple[
        str | int | bool, ...
    ] = ()  # several values allowed for one variant
    lifecycle: Lifecycle = NO_LIFECYCLE
    span: Span = field(default=NO_SPAN, compare=False)
    # In a tagged union: no tag of its own; a reader tries it, in declaration order, after
    # no tagged variant read the value, and a writer writes its bare payload (serde's
    # ``#[serde(untagged)]`` on a variant).
    untagged: bool = False
    # A unit variant a reader takes for any tag no other variant has; a writer writes its
    # own tag (serde's ``#[serde(other)]``).
    catch_all: bool = False
    # Where reading and writing differ: the tags a reader takes (None: ``tag_values``),
    # while a writer writes ``tag_values[0]``; ``written`` False: a writer cannot write
    # the variant (serde ``skip_serializing`` fails); ``read`` False: a reader rejects it
    # (``skip_deserializing``).
    read_tags: tuple[str | int | bool, ...] | None = None
    written: bool = True
    read: bool = True

    def asymmetric(self) -> bool:
        """Whether a reader and a writer see this variant differently."""
        return self.read_tags is not None or not self.written or not self.read


@dataclass(frozen=True, slots=True)
class UnionDecl:
    name: str
    variants: tuple[Variant, ...]
    repr: UnionRepr
    tag_key: str | None = None  # internally / adjacently tagged
    content_key: str | None = None  # adjacently tagged
    # Untagged only: the first variant in declaration order that reads a value is the
    # one (serde), rather than any that reads it (TypeScript); output depends on it.
    first_fit: bool = False
    lifecycle: Lifecycle = NO_LIFECYCLE
    span: Span = field(default=NO_SPAN, compare=False)
    derived_from: str | None = None
    exported: bool = True
    # Tagged unions only: a value whose tag names no variant is kept as it is (declared
    # per spec: peers of a newer revision send variants this one does not know).
    open: bool = False
    # Adjacently tagged only: keys besides the tag and the content (serde steps over
    # them unless the enum has ``deny_unknown_fields``).
    extra_keys: ExtraKeys = ExtraKeys.ALLOW


class AliasKind(enum.Enum):
    ALIAS = "alias"  # another name for the same type (TS ``type URI = string``)
    NEWTYPE = (
        "newtype"  # a distinct type with the same wire form (serde ``ToolCallId(u64)``)
    )
    EXTERNAL = "external"  # defined outside the spec; declared in spec.toml as any JSON


@dataclass(frozen=True, slots=True)
class AliasDecl:
    name: str
    target: TypeExpr
    kind: AliasKind = AliasKind.ALIAS
    lifecycle: Lifecycle = NO_LIFECYCLE
    span: Span = field(default=NO_SPAN, compare=False)
    derived_from: str | None = None
    exported: bool = True


@dataclass(frozen=True, slots=True)
class ConstDecl:
    """A named constant the protocol defines (protocol version, filter names)."""

    name: str
    value: str | int | float | bool
    lifecycle: Lifecycle = NO_LIFECYCLE
    span: Span = field(default=NO_SPAN, compare=False)


Decl: TypeAlias = StructDecl | EnumDecl | UnionDecl | AliasDecl


# --------------------------------------------------------------------------- methods


class MethodKind(enum.Enum):
    REQUEST = "request"
    NOTIFICATION = "notification"


@dataclass(frozen=True, slots=True)
class Direction:
    """Who sends a message to whom, in the protocol's own role names."""

    sender: str
    receiver: str
    both_ways: bool = False

    def arrow(self) -> str:
        return f"{self.sender} {'↔' if self.both_ways else '→'} {self.receiver}"


@dataclass(frozen=True, slots=True)
class ErrorCode:
    code: int
    name: str
    docs: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Method:
    wire_name: str
    kind: MethodKind
    direction: Direction
    params: TypeExpr | None  # None: the message carries no ``params`` key
    result: TypeExpr | None  # None: a request's success result is ``null``
    errors: tuple[ErrorCode, ...] = ()
    lifecycle: Lifecycle = NO_LIFECYCLE
    span: Span = field(default=NO_SPAN, compare=False)
    # The ``params`` key may be absent (TS ``params?: T``); never ``null`` on the wire.
    params_optional: bool = False


# --------------------------------------------------------------------------- examples


class ExamplePart(enum.Enum):
    MESSAGE = "message"  # a whole JSON-RPC (or envelope) message
    PARAMS = "params"
    RESULT = "result"
    ERROR = "error"
    TYPE = "type"  # an instance of a named type


class Expectation(enum.Enum):
    ACCEPT = "accept"
    REJECT = "reject"


@dataclass(frozen=True, slots=True)
class Example:
    name: str
    json_text: str  # verbatim, so key order and number spelling survive
    part: ExamplePart
    expect: Expectation
    method: str | None = None
    type_name: str | None = None
    span: Span = field(default=NO_SPAN, compare=False)
    skipped_reason: str | None = None  # set when the sample could not be used (``...``)
    note: str = ""


# --------------------------------------------------------------------------- protocol


@dataclass(frozen=True, slots=True)
class Transport:
    kind: str  # "jsonrpc-2.0", "http-post-envelope" or "event-envelope"
    framings: tuple[str, ...]  # "ndjson-stdio", "websocket", "http-post"
    # event-envelope: (part, key) of each part of the envelope ("seq", "seq"), ...
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: str  # repo-relative
    sha256: str
    language: str


@dataclass(frozen=True, slots=True)
class Protocol:
    id: str
    title: str
    version: str
    transport: Transport
    roles: tuple[
        str, str
    ]  # (initiator, responder): "client"/"server", "host"/"extension"
    decls: tuple[Decl, ...]
    methods: tuple[Method, ...]
    constants: tuple[ConstDecl, ...] = ()
    examples: tuple[Example, ...] = ()
    errors: tuple[ErrorCode, ...] = ()
    sources: tuple[SourceFile, ...] = ()
    docs: str = ""

    def decl(self, name: str) -> Decl | None:
        for candidate in self.decls:
            if candidate.name == name:
                return candidate
        return None
