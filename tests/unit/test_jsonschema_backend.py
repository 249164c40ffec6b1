"""The JSON Schema backend: hand-built IRs, each construct accepted AND rejected."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import jsonschema
import pytest

from codegen import ir
from codegen.backends import jsonschema as backend

STR = ir.Primitive(ir.PrimitiveKind.STRING)
INT = ir.Primitive(ir.PrimitiveKind.INTEGER)
NUM = ir.Primitive(ir.PrimitiveKind.NUMBER)
BOOL = ir.Primitive(ir.PrimitiveKind.BOOLEAN)
NULL = ir.Primitive(ir.PrimitiveKind.NULL)
OPT = ir.Presence.OPTIONAL


def fld(name: str, type_: ir.TypeExpr, **kw: Any) -> ir.Field:
    return ir.Field(name=name, wire_name=kw.pop("wire", name), type=type_, **kw)


def struct(name: str, *fields: ir.Field, **kw: Any) -> ir.StructDecl:
    return ir.StructDecl(name=name, fields=fields, **kw)


def enum(
    name: str, base: ir.EnumBase, *members: tuple[str, Any], **kw: Any
) -> ir.EnumDecl:
    return ir.EnumDecl(
        name=name,
        base=base,
        members=tuple(ir.EnumMember(n, v) for n, v in members),
        **kw,
    )


def protocol(
    *decls: ir.Decl, methods: tuple[ir.Method, ...] = (), **kw: Any
) -> ir.Protocol:
    return ir.Protocol(
        id="demo",
        title="Demo protocol",
        version="1.2.3",
        transport=ir.Transport("jsonrpc-2.0", ("ndjson-stdio",)),
        roles=("client", "server"),
        decls=decls,
        methods=methods,
        **kw,
    )


def validator(bundle: dict[str, Any], name: str) -> Any:
    return jsonschema.Draft202012Validator(
        {"$ref": backend.def_pointer(name), "$defs": bundle["$defs"]}
    )


def check(bundle: dict[str, Any], name: str, good: list[Any], bad: list[Any]) -> None:
    """Every accepted instance has rejected twins: both lists must be non-empty."""
    assert good and bad
    jsonschema.Draft202012Validator.check_schema(bundle)
    v = validator(bundle, name)
    for instance in good:
        assert v.is_valid(instance), (name, instance, list(v.iter_errors(instance)))
    for instance in bad:
        assert not v.is_valid(instance), (name, instance)


# --------------------------------------------------------------------------- bundle


def test_bundle_header_and_render_path() -> None:
    proto = protocol(
        struct("A", fld("x", INT)),
        docs="The demo.",
        constants=(ir.ConstDecl("PROTOCOL_VERSION", 3),),
    )
    files = backend.render(proto)
    assert list(files) == ["schema/demo.schema.json"]
    text = files["schema/demo.schema.json"]
    assert text.endswith("}\n")
    bundle = json.loads(text)
    assert "do not edit" in bundle.pop("$comment")
    assert bundle == backend.build_schema(proto)
    assert bundle["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert bundle["$id"] == "urn:codegen:demo"
    assert bundle["title"] == "Demo protocol"
    assert bundle["description"] == "The demo."
    assert bundle["x-version"] == "1.2.3"
    assert bundle["x-constants"] == {"PROTOCOL_VERSION": 3}
    assert set(bundle["$defs"]) == {"A"}
    jsonschema.Draft202012Validator.check_schema(bundle)


def test_def_pointer_escapes_json_pointer_characters() -> None:
    assert backend.def_pointer("Foo") == "#/$defs/Foo"
    assert backend.def_pointer("a/b~c") == "#/$defs/a~1b~0c"


def test_examples_are_not_embedded() -> None:
    example = ir.Example(
        "ex", '{"x": 1}', ir.ExamplePart.TYPE, ir.Expectation.ACCEPT, type_name="A"
    )
    proto = protocol(struct("A", fld("x", INT)), examples=(example,))
    assert "ex" not in backend.render(proto)["schema/demo.schema.json"]


# --------------------------------------------------------------------------- primitives


def test_integer_is_not_number() -> None:
    bundle = backend.build_schema(
        protocol(
            ir.AliasDecl("I", INT),
            ir.AliasDecl("N", NUM),
            ir.AliasDecl("S", STR),
            ir.AliasDecl("B", BOOL),
            ir.AliasDecl("Z", NULL),
        )
    )
    check(bundle, "I", [1, -7, 0], [1.5, "1", True, None])
    check(bundle, "N", [1, 1.5], ["1.5", None, False])
    check(bundle, "S", ["x", ""], [1, None])
    check(bundle, "B", [True, False], [0, "no"])
    check(bundle, "Z", [None], [0, ""])


def test_constraints() -> None:
    ranged = ir.Primitive(
        ir.PrimitiveKind.INTEGER, ir.Constraints(minimum=0, maximum=255, format="uint8")
    )
    patterned = ir.Primitive(
        ir.PrimitiveKind.STRING, ir.Constraints(pattern="^v[0-9]+$", format="semver")
    )
    bundle = backend.build_schema(
        protocol(ir.AliasDecl("U8", ranged), ir.AliasDecl("V", patterned))
    )
    assert bundle["$defs"]["U8"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 255,
        "format": "uint8",
    }
    assert bundle["$defs"]["V"]["format"] == "semver"
    check(bundle, "U8", [0, 255], [-1, 256])
    check(bundle, "V", ["v12"], ["12", "v"])


# --------------------------------------------------------------------------- type expressions


def test_containers_and_literals() -> None:
    kind = enum("Kind", ir.EnumBase.STRING, ("A", "a"), ("B", "b"))
    bundle = backend.build_schema(
        protocol(
            kind,
            struct(
                "C",
                fld("arr", ir.ArrayOf(INT)),
                fld("map", ir.MapOf(BOOL)),
                fld("tup", ir.TupleOf((STR, INT))),
                fld("any", ir.AnyJson()),
                fld("obj", ir.AnyJson(object_only=True)),
                fld("lit", ir.Literal("file")),
                fld("member", ir.EnumMemberRef("Kind", "B")),
                fld("keyed", ir.MapOf(INT, key=ir.Ref("Kind")), presence=OPT),
                fld("intkeys", ir.MapOf(STR, key=INT), presence=OPT),
            ),
        )
    )
    good = {
        "arr": [1, 2],
        "map": {"k": True},
        "tup": ["s", 1],
        "any": None,
        "obj": {},
        "lit": "file",
        "member": "b",
        "keyed": {"a": 1},
        "intkeys": {"12": "x", "-3": "y"},
    }
    bad_changes: list[dict[str, Any]] = [
        {"arr": [1, "2"]},
        {"map": {"k": 1}},
        {"tup": ["s", 1, 2]},
        {"tup": ["s"]},
        {"tup": [1, "s"]},
        {"obj": []},
        {"lit": "dir"},
        {"member": "a"},
        {"keyed": {"c": 1}},
        {"intkeys": {"x": "y"}},
    ]
    check(bundle, "C", [good], [{**good, **change} for change in bad_changes])
    assert bundle["$defs"]["C"]["properties"]["tup"]["items"] is False
    assert bundle["$defs"]["C"]["properties"]["member"] == {"const": "b"}


def test_inline_unions() -> None:
    bundle = backend.build_schema(
        protocol(
            enum("Kind", ir.EnumBase.STRING, ("A", "a"), ("B", "b")),
            struct("P", fld("x", INT)),
            ir.AliasDecl(
                "Lits", ir.InlineUnion((ir.Literal("x"), ir.EnumMemberRef("Kind", "A")))
            ),
            ir.AliasDecl("MaybeLit", ir.InlineUnion((ir.Literal("x"), NULL))),
            ir.AliasDecl("MaybeP", ir.InlineUnion((ir.Ref("P"), NULL))),
            ir.AliasDecl("MaybeS", ir.InlineUnion((STR, NULL))),
            ir.AliasDecl("SOrP", ir.InlineUnion((STR, ir.Ref("P")))),
        )
    )
    defs = bundle["$defs"]
    assert defs["Lits"] == {"enum": ["x", "a"]}
    assert defs["MaybeS"] == {"type": ["string", "null"]}
    assert defs["MaybeP"] == {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}
    check(bundle, "Lits", ["x", "a"], ["b", None])
    check(bundle, "MaybeLit", ["x", None], ["y"])
    check(bundle, "MaybeP", [{"x": 1}, None], [{"x": "1"}, 1])
    check(bundle, "MaybeS", ["s", None], [1])
    check(bundle, "SOrP", ["s", {"x": 1}], [None, 1, {"x": "s"}])


def test_dangling_references_raise() -> None:
    with pytest.raises(ValueError, match="Kind.C"):
        backend.build_schema(
            protocol(
                enum("Kind", ir.EnumBase.STRING, ("A", "a")),
                ir.AliasDecl("X", ir.EnumMemberRef("Kind", "C")),
            )
        )
    with pytest.raises(ValueError, match="Missing"):
        backend.build_schema(protocol(ir.AliasDecl("X", ir.Ref("Missing"))))


# --------------------------------------------------------------------------- structs


def test_struct_presence_nullability_and_defaults() -> None:
    wa = ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL
    bundle = backend.build_schema(
        protocol(
            struct("Inner", fld("v", INT)),
            struct(
                "S",
                fld("req", STR),
                fld("opt", STR, presence=OPT),
                fld("nul", INT, nullable=True),
                fld("ref", ir.Ref("Inner"), nullable=True, presence=OPT),
                fld("dflt", BOOL, presence=wa, default_json="false"),
            ),
        )
    )
    s = bundle["$defs"]["S"]
    assert s["required"] == ["req", "nul"]
    assert s["properties"]["nul"] == {"type": ["integer", "null"]}
    assert s["properties"]["ref"] == {
        "anyOf": [{"$ref": "#/$defs/Inner"}, {"type": "null"}]
    }
    assert s["properties"]["dflt"]["default"] is False
    assert "additionalProperties" not in s  # ExtraKeys.ALLOW
    base = {"req": "r", "nul": None}
    check(
        bundle,
        "S",
        [base, {**base, "nul": 3, "ref": None, "opt": "o", "dflt": True, "zz": 1}],
        [
            {"nul": None},  # req missing
            {"req": "r"},  # nul missing (nullable is not optional)
            {**base, "opt": None},  # optional is not nullable
            {**base, "ref": {"v": "x"}},
            {**base, "dflt": None},
        ],
    )


def test_struct_forbid_extra_keys_and_index_signature() -> None:
    bundle = backend.build_schema(
        protocol(
            struct("Closed", fld("a", INT), extra_keys=ir.ExtraKeys.FORBID),
            struct("Indexed", fld("a", INT), index_value=STR),
            struct("IndexedChild", fld("b", INT), bases=(ir.Ref("Indexed"),)),
        )
    )
    assert bundle["$defs"]["Closed"]["additionalProperties"] is False
    check(bundle, "Closed", [{"a": 1}], [{"a": 1, "b": 2}])
    check(bundle, "Indexed", [{"a": 1, "x": "s"}], [{"a": 1, "x": 2}])
    check(
        bundle, "IndexedChild", [{"a": 1, "b": 2, "x": "s"}], [{"a": 1, "b": 2, "x": 3}]
    )


def test_struct_bases_and_flatten_in_wire_order() -> None:
    bundle = backend.build_schema(
        protocol(
            struct("Base", fld("id", STR)),
            struct("Flat", fld("f1", INT), fld("f2", INT, presence=OPT)),
            struct(
                "Child",
                fld("own", BOOL),
                fld("flat", ir.Ref("Flat"), flatten=True),
                fld("tail", STR),
                bases=(ir.Ref("Base"),),
            ),
        )
    )
    child = bundle["$defs"]["Child"]
    assert list(child["properties"]) == ["id", "own", "f1", "f2", "tail"]
    assert child["required"] == ["id", "own", "f1", "tail"]
    good = {"id": "i", "own": True, "f1": 1, "tail": "t"}
    check(bundle, "Child", [good], [{**good, "f1": "x"}, {"id": "i", "own": True}])


def test_field_and_struct_annotations() -> None:
    deprecated = ir.Lifecycle(docs="Old.", deprecated="use y", since="0.2.0")
    bundle = backend.build_schema(
        protocol(
            struct(
                "FileEditBefore",
                fld("role", STR, allowed_values_note='"user" or "assistant"'),
                fld("old", STR, lifecycle=deprecated, presence=OPT),
                lifecycle=ir.Lifecycle(docs="Before state."),
                derived_from="FileEdit.before",
            )
        )
    )
    entry = bundle["$defs"]["FileEditBefore"]
    assert entry["description"] == "Before state."
    assert entry["x-derived-from"] == "FileEdit.before"
    assert entry["properties"]["role"]["description"] == (
        'Allowed values: "user" or "assistant"'
    )
    old = entry["properties"]["old"]
    assert old["deprecated"] is True
    assert old["x-since"] == "0.2.0"
    assert old["description"] == "Old."
    check(bundle, "FileEditBefore", [{"role": "user"}], [{}, {"role": 1}])


# --------------------------------------------------------------------------- enums


def test_string_and_integer_enums() -> None:
    bundle = backend.build_schema(
        protocol(
            enum("Color", ir.EnumBase.STRING, ("Red", "red"), ("Blue", "blue")),
            enum("Level", ir.EnumBase.INTEGER, ("Low", 1), ("High", 2)),
            enum("Open", ir.EnumBase.STRING, ("A", "a"), open=True),
        )
    )
    defs = bundle["$defs"]
    assert defs["Color"]["enum"] == ["red", "blue"]
    assert defs["Color"]["x-enum-varnames"] == ["Red", "Blue"]
    assert "enum" not in defs["Open"]
    assert defs["Open"]["x-open-enum"] is True
    assert defs["Open"]["x-enum-values"] == ["a"]
    check(bundle, "Color", ["red", "blue"], ["green", 1])
    check(bundle, "Level", [1, 2], [3, 1.5, "1"])
    check(bundle, "Open", ["a", "anything"], [1, None])


def test_flag_enum_accepts_every_combination() -> None:
    status = enum(
        "SessionStatus",
        ir.EnumBase.INTEGER,
        ("Idle", 1),
        ("Error", 1 << 1),
        ("InProgress", 1 << 3),
        ("InputNeeded", (1 << 3) | (1 << 4)),
        ("IsRead", 1 << 5),
        flags=True,
    )
    bundle = backend.build_schema(protocol(status))
    entry = bundle["$defs"]["SessionStatus"]
    assert entry["x-flags"] == {
        "Idle": 1,
        "Error": 2,
        "InProgress": 8,
        "InputNeeded": 24,
        "IsRead": 32,
    }
    assert entry["enum"] == sorted(entry["enum"])
    assert backend.flag_values(status) == entry["enum"]
    # 16 is a bit but only ever set together with 8; 0 is no member.
    check(bundle, "SessionStatus", [40, 1, 24, 59], [64, 16, 0, 4, 40.5, "40"])


def test_flag_enum_zero_only_when_a_member_is_zero() -> None:
    flags = enum("F", ir.EnumBase.INTEGER, ("None_", 0), ("A", 1), ("B", 2), flags=True)
    bundle = backend.build_schema(protocol(flags))
    assert bundle["$defs"]["F"]["enum"] == [0, 1, 2, 3]
    check(bundle, "F", [0, 3], [4, -1])


def test_wide_flag_enum_falls_back_to_a_range() -> None:
    members = [(f"B{bit}", 1 << bit) for bit in range(1, 14)]
    bundle = backend.build_schema(
        protocol(enum("Wide", ir.EnumBase.INTEGER, *members, flags=True))
    )
    entry = bundle["$defs"]["Wide"]
    assert "enum" not in entry
    mask = sum(value for _, value in members)
    assert (entry["minimum"], entry["maximum"]) == (2, mask)
    check(bundle, "Wide", [2, mask, 6], [0, 1, mask + 1, -2])


def test_open_flag_enum_has_no_value_constraint() -> None:
    bundle = backend.build_schema(
        protocol(enum("F", ir.EnumBase.INTEGER, ("A", 1), flags=True, open=True))
    )
    check(bundle, "F", [1, 1024], ["1", 1.5])


# --------------------------------------------------------------------------- unions


def _tagged_protocol() -> ir.Protocol:
    tag_num = ir.InlineUnion((ir.Literal("number"), ir.Literal("integer")))
    return protocol(
        struct("Text", fld("type", ir.Literal("text")), fld("text", STR)),
        struct("Num", fld("kind_", tag_num, wire="type"), fld("value", NUM)),
        ir.UnionDecl(
            "Content",
            (
                ir.Variant("Text", ir.Ref("Text"), ("text",)),
                ir.Variant("Num", ir.Ref("Num"), ("number", "integer")),
                ir.Variant("Empty", None, ("empty",)),
            ),
            ir.UnionRepr.INTERNALLY_TAGGED,
            tag_key="type",
        ),
    )


def test_internally_tagged_union() -> None:
    bundle = backend.build_schema(_tagged_protocol())
    content = bundle["$defs"]["Content"]
    assert content["discriminator"] == {
        "propertyName": "type",
        "mapping": {
            "text": "#/$defs/Text",
            "number": "#/$defs/Num",
            "integer": "#/$defs/Num",
        },
    }
    assert content["oneOf"][0] == {"$ref": "#/$defs/Text"}
    assert content["oneOf"][2]["properties"] == {"type": {"const": "empty"}}
    check(
        bundle,
        "Content",
        [
            {"type": "text", "text": "hi"},
            {"type": "number", "value": 1.5},
            {"type": "integer", "value": 2},
            {"type": "empty"},
        ],
        [
            {"type": "float", "value": 1.5},
            {"type": "text", "value": 1.5},
            {"type": "number", "text": "hi"},
            {"text": "hi"},
        ],
    )


def test_internally_tagged_variant_without_its_own_tag_field() -> None:
    bundle = backend.build_schema(
        protocol(
            struct("Payload", fld("x", INT)),
            ir.UnionDecl(
                "U",
                (ir.Variant("P", ir.Ref("Payload"), ("p",)),),
                ir.UnionRepr.INTERNALLY_TAGGED,
                tag_key="kind",
            ),
        )
    )
    check(bundle, "U", [{"kind": "p", "x": 1}], [{"x": 1}, {"kind": "q", "x": 1}])


def test_internally_tagged_newtype_of_a_closed_struct_takes_the_tag() -> None:
    # serde takes the tag out before a deny_unknown_fields struct reads the other keys
    # (found by schemars' enums_deny_unknown_fields conformance case)
    closed = struct("Closed", fld("x", INT), extra_keys=ir.ExtraKeys.FORBID)
    union = ir.UnionDecl(
        "U",
        (ir.Variant("C", ir.Ref("Closed"), ("c",)),),
        ir.UnionRepr.INTERNALLY_TAGGED,
        tag_key="kind",
    )
    bundle = backend.build_schema(protocol(closed, union))
    check(
        bundle,
        "U",
        [{"kind": "c", "x": 1}],
        [{"kind": "c", "x": 1, "y": 2}, {"kind": "d", "x": 1}, {"x": 1}, [1]],
    )
    # the struct itself stays closed to the tag key
    check(bundle, "Closed", [{"x": 1}], [{"x": 1, "kind": "c"}])


def test_internally_tagged_unit_payload_is_the_tag_alone() -> None:
    # `Variant(UnitStruct)`: serde reads it from the tag with nothing left over
    unit = ir.AliasDecl("Unit", NULL, kind=ir.AliasKind.NEWTYPE)
    union = ir.UnionDecl(
        "U",
        (
            ir.Variant("A", ir.Ref("Unit"), ("a",)),
            ir.Variant("B", None, ("b",)),
        ),
        ir.UnionRepr.INTERNALLY_TAGGED,
        tag_key="kind",
    )
    bundle = backend.build_schema(protocol(unit, union))
    check(
        bundle,
        "U",
        [{"kind": "a"}, {"kind": "b"}, {"kind": "b", "extra": 1}],
        [{"kind": "a", "extra": 1}, {"kind": "a", "x": None}, None],
    )


def test_adjacently_tagged_union() -> None:
    bundle = backend.build_schema(
        protocol(
            ir.UnionDecl(
                "Adj",
                (
                    ir.Variant("Num", INT, ("num", "n")),
                    ir.Variant("Stop", None, ("stop",)),
                ),
                ir.UnionRepr.ADJACENTLY_TAGGED,
                tag_key="t",
                content_key="c",
            )
        )
    )
    check(
        bundle,
        "Adj",
        [{"t": "num", "c": 1}, {"t": "n", "c": 2}, {"t": "stop"}],
        [{"t": "num", "c": "1"}, {"t": "num"}, {"t": "stop", "c": 1}, {"t": "go"}],
    )


def test_externally_tagged_union() -> None:
    bundle = backend.build_schema(
        protocol(
            ir.UnionDecl(
                "Ext",
                (
                    ir.Variant("Unit", None),
                    ir.Variant("Renamed", None, ("renamed_unit",)),
                    ir.Variant("Data", STR, ("data",)),
                ),
                ir.UnionRepr.EXTERNALLY_TAGGED,
            )
        )
    )
    assert bundle["$defs"]["Ext"]["oneOf"][0] == {"const": "Unit"}
    check(
        bundle,
        "Ext",
        ["Unit", "renamed_unit", {"data": "x"}],
        ["Renamed", {"data": 1}, {"data": "x", "more": 1}, {"other": "x"}, {}],
    )


@pytest.mark.parametrize(
    ("first_fit", "choice"), [(True, "first-fit"), (False, "best-fit")]
)
def test_untagged_union_uses_any_of_and_records_the_choice(
    first_fit: bool, choice: str
) -> None:
    bundle = backend.build_schema(
        protocol(
            struct("A", fld("a", INT)),
            struct("B", fld("b", STR)),
            ir.UnionDecl(
                "AB",
                (ir.Variant("A", ir.Ref("A")), ir.Variant("B", ir.Ref("B"))),
                ir.UnionRepr.UNTAGGED,
                first_fit=first_fit,
            ),
        )
    )
    entry = bundle["$defs"]["AB"]
    assert "oneOf" not in entry
    assert entry["x-union-choice"] == choice
    # Overlap is fine under anyOf (it would fail oneOf).
    check(bundle, "AB", [{"a": 1}, {"b": "x"}, {"a": 1, "b": "x"}], [{}, {"a": "x"}])


# --------------------------------------------------------------------------- aliases


def test_aliases_newtypes_and_externals() -> None:
    bundle = backend.build_schema(
        protocol(
            ir.AliasDecl("Uri", STR, lifecycle=ir.Lifecycle(docs="A URI.")),
            ir.AliasDecl("ToolCallId", INT, kind=ir.AliasKind.NEWTYPE),
            ir.AliasDecl("ActionEnvelope", ir.AnyJson(), kind=ir.AliasKind.EXTERNAL),
        )
    )
    defs = bundle["$defs"]
    assert defs["Uri"] == {"type": "string", "description": "A URI."}
    assert defs["ToolCallId"]["x-newtype"] is True
    external = defs["ActionEnvelope"]
    assert external["x-external"] is True
    assert "outside the spec" in external["description"]
    assert set(external) == {"x-external", "description"}
    check(bundle, "Uri", ["file:///x"], [1])
    check(bundle, "ToolCallId", [7], ["7"])
    jsonschema.Draft202012Validator.check_schema(bundle)
    # An external type accepts any JSON by design: there is no instance to reject.
    v = validator(bundle, "ActionEnvelope")
    anything: tuple[Any, ...] = (None, 1, "s", [], {})
    assert all(v.is_valid(x) for x in anything)


# --------------------------------------------------------------------------- methods


def _method_protocol() -> ir.Protocol:
    c2s = ir.Direction("client", "server")
    s2c = ir.Direction("server", "client")
    return protocol(
        struct("InitParams", fld("v", INT)),
        struct("InitResult", fld("ok", BOOL)),
        struct("Note", fld("msg", STR)),
        methods=(
            ir.Method(
                "initialize",
                ir.MethodKind.REQUEST,
                c2s,
                ir.Ref("InitParams"),
                ir.Ref("InitResult"),
                errors=(ir.ErrorCode(-32001, "NotReady"),),
            ),
            ir.Method(
                "reinitialize", ir.MethodKind.REQUEST, c2s, ir.Ref("InitParams"), None
            ),
            ir.Method("shutdown", ir.MethodKind.REQUEST, c2s, None, None),
            ir.Method("log", ir.MethodKind.NOTIFICATION, s2c, ir.Ref("Note"), None),
            ir.Method("echo", ir.MethodKind.NOTIFICATION, c2s, ir.Ref("Note"), None),
        ),
    )


def test_x_methods_entries() -> None:
    methods = backend.build_schema(_method_protocol())["x-methods"]
    assert methods["initialize"] == {
        "kind": "request",
        "direction": {"from": "client", "to": "server"},
        "params": {"$ref": "#/$defs/InitParams"},
        "result": {"$ref": "#/$defs/InitResult"},
        "errors": [{"code": -32001, "name": "NotReady"}],
    }
    assert methods["shutdown"] == {
        "kind": "request",
        "direction": {"from": "client", "to": "server"},
        "result": {"type": "null"},
    }
    assert methods["log"] == {
        "kind": "notification",
        "direction": {"from": "server", "to": "client"},
        "params": {"$ref": "#/$defs/Note"},
    }


def test_method_types_are_annotated_not_duplicated() -> None:
    bundle = backend.build_schema(_method_protocol())
    defs = bundle["$defs"]
    params = defs["InitParams"]
    assert params["x-method"] == ["initialize", "reinitialize"]
    assert params["x-method-params"] == ["initialize", "reinitialize"]
    assert "x-method-result" not in params
    assert params["x-direction"] == "client → server"
    assert defs["InitResult"]["x-method-result"] == ["initialize"]
    assert defs["Note"]["x-direction"] == ["client → server", "server → client"]
    # The method's schemas resolve against the bundle and validate.
    doc = {"$defs": defs, "$ref": "#/x-methods/initialize/params"}
    doc["x-methods"] = bundle["x-methods"]
    v = jsonschema.Draft202012Validator(doc)
    assert v.is_valid({"v": 1})
    assert not v.is_valid({"v": "1"})


# --------------------------------------------------------------------------- determinism


def test_output_is_deterministic_and_independent_of_decl_order() -> None:
    proto = _tagged_protocol()
    first = backend.render(proto)
    assert backend.render(proto) == first
    shuffled = replace(proto, decls=tuple(reversed(proto.decls)))
    assert backend.render(shuffled) == first
    text = first["schema/demo.schema.json"]
    assert (
        text
        == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False)
        + "\n"
    )


def test_non_ascii_is_written_verbatim() -> None:
    text = backend.render(_method_protocol())["schema/demo.schema.json"]
    assert "client → server" in text
