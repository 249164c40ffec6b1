"""The Python (pydantic v2) bindings backend, end to end.

A hand-built IR covering every construct is rendered into a temporary directory,
imported and exercised: valid messages round-trip to the same JSON (key absence vs
``null``, ``1`` vs ``1.0``), invalid ones raise ``ValidationError``, from JSON text and
from ``json.loads`` output alike.  The emitted package is checked with
``mypy --strict``, ``ruff check`` and ``black --check``.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import jinja2
import pytest
from pydantic import TypeAdapter, ValidationError

from codegen import ir
from codegen.backends import python as backend
from codegen.backends.formatting import FormattingError, format_python
from codegen.backends.python.bindings import runtime_sources
from codegen.backends.render import render_template

BIN = Path(sys.executable).parent
STR = ir.Primitive(ir.PrimitiveKind.STRING)
INT = ir.Primitive(ir.PrimitiveKind.INTEGER)
NUM = ir.Primitive(ir.PrimitiveKind.NUMBER)
BOOL = ir.Primitive(ir.PrimitiveKind.BOOLEAN)
NULL = ir.Primitive(ir.PrimitiveKind.NULL)
REQ = ir.Presence.REQUIRED
OPT = ir.Presence.OPTIONAL
ALWAYS = ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL


def fld(
    wire: str, typ: ir.TypeExpr, presence: ir.Presence = REQ, **kw: Any
) -> ir.Field:
    return ir.Field(name=wire, wire_name=wire, type=typ, presence=presence, **kw)


def lit(*values: str | int | bool) -> ir.TypeExpr:
    members = tuple(ir.Literal(v) for v in values)
    return members[0] if len(members) == 1 else ir.InlineUnion(members)


def members(*pairs: tuple[str, str | int]) -> tuple[ir.EnumMember, ...]:
    return tuple(ir.EnumMember(name, value) for name, value in pairs)


WEIRD_DOC = '"Quoted" start, a \\ backslash,\ttab, triple """ quotes and an end quote"'
WEIRD_FIELD_DOC = (
    "A very long field description " * 5 + "→ ünïcode.\n\n    indented\x07"
)


def kitchen_sink(spec_id: str = "sink") -> ir.Protocol:
    """One protocol with every construct the backend maps."""
    decls: list[ir.Decl] = [
        # A union declared before its variants: definition order must be repaired.
        ir.UnionDecl(
            "Content",
            (
                ir.Variant("TextContent", ir.Ref("TextContent"), ("text",)),
                ir.Variant("MediaContent", ir.Ref("MediaContent"), ("image", "audio")),
            ),
            ir.UnionRepr.INTERNALLY_TAGGED,
            tag_key="type",
            lifecycle=ir.Lifecycle(docs="A content block."),
        ),
        ir.EnumDecl(
            "ContentKind",
            ir.EnumBase.STRING,
            members(("Text", "text"), ("Image", "image"), ("Audio", "audio")),
            lifecycle=ir.Lifecycle(docs="Content kinds."),
        ),
        ir.StructDecl(
            "TextContent",
            (fld("type", ir.EnumMemberRef("ContentKind", "Text")), fld("text", STR)),
        ),
        ir.StructDecl(
            "MediaContent",
            (
                fld(
                    "type",
                    ir.InlineUnion(
                        (
                            ir.EnumMemberRef("ContentKind", "Image"),
                            ir.EnumMemberRef("ContentKind", "Audio"),
                        )
                    ),
                ),
                fld("data", STR),
            ),
        ),
        ir.EnumDecl("Level", ir.EnumBase.INTEGER, members(("Low", 1), ("High", 2))),
        ir.EnumDecl(
            "Status",
            ir.EnumBase.INTEGER,
            members(
                ("Read", 1),
                ("InProgress", 1 << 3),
                ("InputNeeded", (1 << 3) | (1 << 4)),
                ("IsRead", 1 << 5),
            ),
            flags=True,
        ),
        ir.EnumDecl(
            "Mode",
            ir.EnumBase.STRING,
            members(("Auto", "auto"), ("Manual", "manual")),
            open=True,
        ),
        ir.EnumDecl(
            "Code", ir.EnumBase.INTEGER, members(("Ok", 0), ("Bad", 1)), open=True
        ),
        ir.StructDecl(
            "Meta",
            (fld("id", INT), fld("_meta", ir.AnyJson(object_only=True), OPT)),
            exported=False,
        ),
        ir.StructDecl(
            "Named", (fld("name", STR, lifecycle=ir.Lifecycle(docs="The name.")),)
        ),
        ir.StructDecl(
            "Thing",
            (
                fld("count", NUM, OPT),
                fld("size", INT, OPT, nullable=True),
                fld("label", STR, nullable=True),
                fld("flag", BOOL, ALWAYS, default_json="false"),
                fld("note", STR, ALWAYS, nullable=True),
                fld("mode", ir.Ref("Mode"), ALWAYS, default_json='"auto"'),
                fld("level", ir.Ref("Level"), OPT),
                fld("status", ir.Ref("Status"), OPT),
                fld("code", ir.Ref("Code"), OPT),
                fld("tags", ir.MapOf(STR), OPT),
                fld("pair", ir.TupleOf((STR, INT)), OPT),
                fld("choice", lit("a", "b"), OPT),
                fld(
                    "URLPath",
                    STR,
                    OPT,
                    lifecycle=ir.Lifecycle(since="1.2", deprecated=""),
                ),
                fld("type", STR, OPT),
                fld("list", ir.ArrayOf(ir.Ref("Content")), ALWAYS, default_json="[]"),
                fld("any", ir.AnyJson(), OPT),
                fld(
                    "port",
                    ir.Primitive(ir.PrimitiveKind.INTEGER, ir.Constraints(0, 65535)),
                    OPT,
                ),
                fld("one", lit(1), OPT),
                fld("yes", lit(True), OPT),
                fld("maybe", ir.InlineUnion((STR, NULL)), OPT),
            ),
            bases=(ir.Ref("Meta"), ir.Ref("Named")),
            extra_keys=ir.ExtraKeys.FORBID,
            lifecycle=ir.Lifecycle(
                docs="A thing.", deprecated="use Other", since="1.0"
            ),
        ),
        ir.StructDecl("Bag", (fld("x", INT),), index_value=INT),
        ir.StructDecl("Open", (fld("x", INT),)),
        ir.StructDecl("Inner", (fld("a", INT), fld("b", STR, OPT))),
        ir.StructDecl(
            "Flat",
            (
                fld("first", INT),
                ir.Field("inner", "inner", ir.Ref("Inner"), flatten=True),
                fld("z", INT),
            ),
        ),
        ir.StructDecl(
            "Tree", (fld("name", STR), fld("children", ir.ArrayOf(ir.Ref("Tree")), OPT))
        ),
        ir.StructDecl(
            "Dup",
            (
                fld("meta", INT),
                fld("_meta", STR),
                fld("fooBar", INT),
                fld("foo_bar", INT),
            ),
        ),
        ir.StructDecl("RootState", (fld("root", STR),)),
        ir.StructDecl("SessionState", (fld("session", STR), fld("extra", INT, OPT))),
        ir.StructDecl("TerminalState", (fld("terminal", INT),)),
        ir.UnionDecl(
            "State",
            (
                ir.Variant("RootState", ir.Ref("RootState")),
                ir.Variant("SessionState", ir.Ref("SessionState")),
                ir.Variant("TerminalState", ir.Ref("TerminalState")),
                ir.Variant("Name", STR),
            ),
            ir.UnionRepr.UNTAGGED,
            first_fit=True,
        ),
        ir.StructDecl("Text", (fld("text", STR),)),
        ir.StructDecl("Path", (fld("path", STR),)),
        ir.UnionDecl(
            "Chunk",
            (ir.Variant("Text", ir.Ref("Text")), ir.Variant("Path", ir.Ref("Path"))),
            ir.UnionRepr.UNTAGGED,
            first_fit=True,
        ),
        ir.UnionDecl(
            "Loose",
            (ir.Variant("Open", ir.Ref("Open")), ir.Variant("Count", INT)),
            ir.UnionRepr.UNTAGGED,
        ),
        ir.StructDecl("Circle", (fld("kind", lit(1)), fld("r", NUM))),
        ir.StructDecl("Square", (fld("kind", INT), fld("side", NUM))),
        ir.UnionDecl(
            "Shape",
            (
                ir.Variant("Circle", ir.Ref("Circle"), (1,)),
                ir.Variant("Square", ir.Ref("Square"), (2,)),
            ),
            ir.UnionRepr.INTERNALLY_TAGGED,
            tag_key="kind",
        ),
        ir.StructDecl("Payload", (fld("p", INT),)),
        ir.UnionDecl(
            "Event",
            (
                ir.Variant("Started", ir.Ref("Payload"), ("started",)),
                ir.Variant("Stopped", None, ("stopped",)),
            ),
            ir.UnionRepr.INTERNALLY_TAGGED,
            tag_key="event",
        ),
        ir.UnionDecl(
            "Adj",
            (
                ir.Variant("Move", ir.Ref("Inner"), ("move",)),
                ir.Variant("Stop", None, ("stop",)),
            ),
            ir.UnionRepr.ADJACENTLY_TAGGED,
            tag_key="t",
            content_key="c",
        ),
        ir.UnionDecl(
            "Ext",
            (
                ir.Variant("Text", STR, ("Text",)),
                ir.Variant("Point", ir.Ref("Inner"), ("Point", "Pt")),
                ir.Variant("Unit", None, ("Unit",)),
            ),
            ir.UnionRepr.EXTERNALLY_TAGGED,
        ),
        ir.AliasDecl(
            "UriList", ir.ArrayOf(ir.Ref("Uri"))
        ),  # uses an alias declared later
        ir.AliasDecl("Uri", STR, lifecycle=ir.Lifecycle(docs="A URI.")),
        ir.AliasDecl("ToolCallId", INT, kind=ir.AliasKind.NEWTYPE),
        ir.AliasDecl(
            "Wide", NUM, kind=ir.AliasKind.NEWTYPE
        ),  # not a class: a TypeAlias
        ir.AliasDecl("ActionEnvelope", ir.AnyJson(), kind=ir.AliasKind.EXTERNAL),
        ir.StructDecl("Field", (fld("x", INT),)),  # collides with pydantic's Field
        ir.StructDecl(
            "Weird",
            (fld("x", INT, lifecycle=ir.Lifecycle(docs=WEIRD_FIELD_DOC)),),
            lifecycle=ir.Lifecycle(docs=WEIRD_DOC),
        ),
        ir.StructDecl(
            "Defaults",
            (
                fld("inner", ir.Ref("Inner"), ALWAYS, default_json='{"a": 1}'),
                fld("tags", ir.MapOf(INT), ALWAYS, default_json='{"k": 2}'),
                fld("id", ir.Ref("ToolCallId"), ALWAYS, default_json="7"),
            ),
        ),
        ir.StructDecl(
            "InitializeParams",
            (fld("protocolVersion", INT), fld("content", ir.Ref("Content"), OPT)),
        ),
        ir.StructDecl("InitializeResult", (fld("state", ir.Ref("State")),)),
    ]
    methods = (
        ir.Method(
            "initialize",
            ir.MethodKind.REQUEST,
            ir.Direction("client", "server"),
            ir.Ref("InitializeParams"),
            ir.Ref("InitializeResult"),
            lifecycle=ir.Lifecycle(docs="Start a session."),
        ),
        ir.Method(
            "notify/sessionAdded",
            ir.MethodKind.NOTIFICATION,
            ir.Direction("server", "client"),
            ir.Ref("SessionState"),
            None,
        ),
        ir.Method(
            "$/cancel",
            ir.MethodKind.NOTIFICATION,
            ir.Direction("client", "server", both_ways=True),
            None,
            None,
        ),
        ir.Method(
            "shutdown",
            ir.MethodKind.REQUEST,
            ir.Direction("client", "server"),
            None,
            None,
        ),
        ir.Method(
            "scale",
            ir.MethodKind.REQUEST,
            ir.Direction("client", "server"),
            ir.ArrayOf(INT),
            ir.Ref("Shape"),
        ),
    )
    return ir.Protocol(
        id=spec_id,
        title="Sink",
        version="1.0",
        transport=ir.Transport("jsonrpc-2.0", ("ndjson-stdio",)),
        roles=("client", "server"),
        decls=tuple(decls),
        methods=methods,
        docs="Every construct.",
    )


def write_package(files: dict[str, str], root: Path) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "python"


def import_package(python_dir: Path, package: str) -> ModuleType:
    sys.path.insert(0, str(python_dir))
    try:
        return importlib.import_module(package)
    finally:
        sys.path.remove(str(python_dir))


PACKAGE = "sink_bindings"


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    return backend.render(kitchen_sink(), PACKAGE)


@pytest.fixture(scope="module")
def python_dir(
    rendered: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    return write_package(rendered, tmp_path_factory.mktemp("sink"))


@pytest.fixture(scope="module")
def pkg(python_dir: Path) -> Iterator[ModuleType]:
    module = import_package(python_dir, PACKAGE)
    yield module
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]


# ---------------------------------------------------------------------------- helpers


def adapter(tp: Any) -> TypeAdapter[Any]:
    if isinstance(tp, type) and hasattr(tp, "model_config"):
        return TypeAdapter(tp)
    return TypeAdapter(tp, config={"strict": True})


def roundtrip(tp: Any, text: str) -> None:
    """Valid from JSON text and from ``json.loads`` output; dumps to the same JSON."""
    ta = adapter(tp)
    expected = json.loads(text)
    from_json = ta.validate_json(text)
    from_python = ta.validate_python(json.loads(text))
    for value in (from_json, from_python):
        dumped = ta.dump_json(value).decode()
        assert json.loads(dumped) == expected
        # Same keys in the same order, same number spelling (1 stays 1, 1.5 stays 1.5).
        assert dumped == json.dumps(expected, separators=(",", ":"), ensure_ascii=False)


def rejects(tp: Any, text: str) -> None:
    """Invalid from JSON text and from ``json.loads`` output alike."""
    ta = adapter(tp)
    with pytest.raises(ValidationError):
        ta.validate_json(text)
    with pytest.raises(ValidationError):
        ta.validate_python(json.loads(text))


THING_MIN = (
    '{"id":1,"name":"n","label":null,"flag":false,"note":null,"mode":"auto","list":[]}'
)


def thing(**changes: Any) -> str:
    data = json.loads(THING_MIN)
    for key, value in changes.items():
        if value is ...:
            data.pop(key)
        else:
            data[key] = value
    order = [
        "id", "_meta", "name", "count", "size", "label", "flag", "note", "mode",
        "level", "status", "code", "tags", "pair", "choice", "URLPath", "type", "list",
        "any", "port", "one", "yes", "maybe",
    ]  # fmt: skip
    return json.dumps({k: data[k] for k in order if k in data} | data)


# -------------------------------------------------------------------------- the files


def test_file_set_and_headers(rendered: dict[str, str]) -> None:
    root = f"python/{PACKAGE}"
    runtime = runtime_sources("jsonrpc-2.0")
    assert "__init__.py" in runtime and "connection.py" in runtime
    # a module of another envelope kind stays out of a JSON-RPC package
    assert (
        "event_envelope.py" in runtime_sources() and "event_envelope.py" not in runtime
    )
    for name, text in runtime.items():
        assert rendered[f"{root}/_rpc/{name}"].split("\n", 1)[1] == text
    assert sorted(rendered) == sorted(
        f"{root}/{name}"
        for name in (
            *("__init__.py", "models.py", "methods.py", "errors.py", "py.typed"),
            *(f"_rpc/{module}" for module in runtime),
        )
    )
    assert rendered[f"{root}/py.typed"] == ""
    header = (
        "# generated by codegen from spec 'sink' — do not edit; "
        "run `codegen generate` to regenerate."
    )
    for name in ("__init__.py", "models.py", "methods.py", "_rpc/__init__.py"):
        assert rendered[f"{root}/{name}"].splitlines()[0] == header


def test_output_is_byte_identical_across_runs_and_hash_seeds(
    rendered: dict[str, str],
) -> None:
    assert backend.render(kitchen_sink(), PACKAGE) == rendered
    here = str(Path(__file__).parent)
    script = (
        f"import json, sys; sys.path.insert(0, {here!r}); "
        "from test_python_backend import kitchen_sink; "
        "from codegen.backends.python.bindings import render; "
        f"print(json.dumps(render(kitchen_sink(), {PACKAGE!r}), sort_keys=True))"
    )
    outputs = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        outputs.add(done.stdout)
    assert outputs == {json.dumps(rendered, sort_keys=True) + "\n"}


def test_imports_only_stdlib_and_pydantic(rendered: dict[str, str]) -> None:
    # Module-level imports only: aiohttp is imported inside the transports that use it.
    allowed = {"pydantic", "pydantic_core", *sys.stdlib_module_names}
    for path, text in rendered.items():
        for line in text.splitlines():
            if line.startswith(("import ", "from ")) and not line.startswith("from ."):
                assert line.split()[1].split(".")[0] in allowed, (path, line)


def tool(*args: str | Path, cwd: Path | None = None) -> tuple[int, str]:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, cwd=cwd, check=False
    )
    return done.returncode, done.stdout + done.stderr


def test_emitted_package_passes_mypy_ruff_and_black(python_dir: Path) -> None:
    package = python_dir / PACKAGE
    assert tool(BIN / "ruff", "check", "--isolated", package) == (
        0,
        "All checks passed!\n",
    )
    code, output = tool(BIN / "black", "--check", "--line-length", "88", package)
    assert code == 0, output
    # One mypy run over the package that exercises every construct (it is the slow one).
    mypy = (BIN / "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull)
    code, output = tool(*mypy, PACKAGE, cwd=python_dir)
    assert code == 0, output


def test_empty_protocol_renders_a_valid_package(tmp_path: Path) -> None:
    protocol = replace(kitchen_sink("empty"), decls=(), methods=())
    python_dir = write_package(backend.render(protocol, "empty_bindings"), tmp_path)
    package = python_dir / "empty_bindings"
    assert tool(BIN / "ruff", "check", "--isolated", package)[0] == 0
    assert tool(BIN / "black", "--check", "-q", package)[0] == 0
    module = import_package(python_dir, "empty_bindings")
    assert module.METHODS == {}
    assert module.__all__ == [
        *("INTERNAL_ERROR", "INVALID_PARAMS", "INVALID_REQUEST", "METHODS"),
        *("METHOD_NOT_FOUND", "PARSE_ERROR", "InvalidResult", "MethodInfo"),
        *("RpcError", "TransportError", "TransportTimeout"),
    ]


# ------------------------------------------------------------------- presence & types


def test_required_optional_nullable_written_always(pkg: ModuleType) -> None:
    roundtrip(pkg.Thing, THING_MIN)  # optional keys absent stay absent
    roundtrip(
        pkg.Thing, thing(size=None, note="x", count=3)
    )  # null kept where nullable
    rejects(pkg.Thing, thing(label=...))  # required (nullable) key missing
    rejects(pkg.Thing, thing(count=None))  # optional, not nullable: null rejected
    rejects(pkg.Thing, thing(name=None))  # required, not nullable
    # Written-always fields may be absent on read, and are then written with their
    # default.
    data = json.loads(THING_MIN)
    for key in ("flag", "note", "mode", "list"):
        del data[key]
    model = pkg.Thing.model_validate_json(json.dumps(data))
    assert json.loads(model.model_dump_json()) == json.loads(THING_MIN)
    assert model.size is pkg.models.MISSING


def test_meta_and_keyword_fields_are_aliased(pkg: ModuleType) -> None:
    text = thing(_meta={"trace": [1]}, type="x", URLPath="/a")
    roundtrip(pkg.Thing, text)
    model = pkg.Thing.model_validate_json(text)
    assert model.meta == {"trace": [1]}
    assert model.type == "x" and model.url_path == "/a" and model.id == 1
    assert "meta" in pkg.Thing.model_fields and "_meta" not in pkg.Thing.model_fields
    # Populate by attribute name, dump by wire name.
    built = pkg.Thing(id=1, name="n", label=None, meta={"a": 1})
    assert json.loads(built.model_dump_json())["_meta"] == {"a": 1}


def test_messages_are_read_by_wire_name_only(pkg: ModuleType) -> None:
    # A reader (any TypeAdapter, model_validate*) sees wire names only: the attribute
    # spelling is an unknown key, as serde and encoding/json see it.
    readers = (
        TypeAdapter(pkg.Thing).validate_json,
        pkg.Thing.model_validate_json,
        lambda text: pkg.Thing.model_validate(json.loads(text)),
    )
    for read in readers:
        assert read(thing(URLPath="/a")).url_path == "/a"
        with pytest.raises(ValidationError):
            read(thing(url_path="/a"))  # Thing is closed: an unknown key
        with pytest.raises(ValidationError):
            read(thing(type_="x"))  # no attribute spelling is ever a wire name
    # An open model keeps the attribute spelling as an unknown key, never as the field.
    both = TypeAdapter(pkg.InitializeParams).validate_json(
        '{"protocolVersion":1,"protocol_version":2}'
    )
    assert both.protocol_version == 1 and both.model_extra == {"protocol_version": 2}
    # The METHODS adapters (codegen validate, the stub server and client) too.
    params = pkg.METHODS["initialize"].params
    assert params.validate_json('{"protocolVersion":1}').protocol_version == 1
    with pytest.raises(ValidationError):
        params.validate_json('{"protocol_version":1}')
    # Built in Python: by attribute name or by wire name.
    assert pkg.InitializeParams(protocol_version=1) == pkg.InitializeParams(
        protocolVersion=1
    )


def test_colliding_wire_names_get_distinct_attributes(pkg: ModuleType) -> None:
    assert list(pkg.Dup.model_fields) == ["meta", "meta_2", "foo_bar_2", "foo_bar"]
    roundtrip(pkg.Dup, '{"meta":1,"_meta":"m","fooBar":2,"foo_bar":3}')
    rejects(pkg.Dup, '{"meta":"1","_meta":"m","fooBar":2,"foo_bar":3}')


def test_strict_scalars_from_json_and_python(pkg: ModuleType) -> None:
    rejects(pkg.Thing, thing(id="3"))  # "3" is not an integer
    rejects(pkg.Thing, thing(id=1.5))
    rejects(pkg.Thing, thing(id=True))
    rejects(pkg.Thing, thing(flag="no"))  # "no" is not a boolean
    rejects(pkg.Thing, thing(flag=0))
    rejects(pkg.Thing, thing(name=1))  # 1 is not a string


def test_number_keeps_int_and_float_apart(pkg: ModuleType) -> None:
    roundtrip(pkg.Thing, thing(count=1))
    roundtrip(pkg.Thing, thing(count=1.5))
    roundtrip(pkg.Thing, thing(count=1.0))
    assert type(pkg.Thing.model_validate_json(thing(count=1)).count) is int
    rejects(pkg.Thing, thing(count="1"))
    rejects(pkg.Thing, thing(count=True))


def test_integer_constraints(pkg: ModuleType) -> None:
    roundtrip(pkg.Thing, thing(port=65535))
    rejects(pkg.Thing, thing(port=65536))
    rejects(pkg.Thing, thing(port=-1))


def test_containers(pkg: ModuleType) -> None:
    roundtrip(
        pkg.Thing, thing(tags={"a": "b"}, pair=["x", 2], any={"deep": [None, 1.5]})
    )
    rejects(pkg.Thing, thing(tags={"a": 1}))
    rejects(pkg.Thing, thing(pair=["x", "2"]))
    rejects(pkg.Thing, thing(pair=["x", 2, 3]))
    roundtrip(pkg.Thing, thing(maybe=None))
    roundtrip(pkg.Thing, thing(maybe="s"))
    rejects(pkg.Thing, thing(maybe=1))


def test_literals_are_exact(pkg: ModuleType) -> None:
    roundtrip(pkg.Thing, thing(choice="b", one=1, yes=True))
    rejects(pkg.Thing, thing(choice="c"))
    rejects(pkg.Thing, thing(one=True))  # pydantic's Literal[1] alone would accept true
    rejects(pkg.Thing, thing(one=1.0))
    rejects(pkg.Thing, thing(yes=1))


def test_extra_keys_forbid_allow_and_typed_index_signature(pkg: ModuleType) -> None:
    rejects(pkg.Thing, thing(unknown=1))
    roundtrip(pkg.Open, '{"x":1,"kept":{"a":[1,2]}}')
    roundtrip(pkg.Bag, '{"x":1,"y":2}')
    rejects(pkg.Bag, '{"x":1,"y":"2"}')
    assert pkg.Bag.model_validate_json('{"x":1,"y":2}').model_extra == {"y": 2}


def test_bases_and_flatten_inline_fields_in_wire_order(pkg: ModuleType) -> None:
    assert list(pkg.Thing.model_fields)[:3] == ["id", "meta", "name"]
    assert list(pkg.Flat.model_fields) == ["first", "a", "b", "z"]
    roundtrip(pkg.Flat, '{"first":0,"a":1,"b":"x","z":2}')
    roundtrip(pkg.Flat, '{"first":0,"a":1,"z":2}')
    rejects(pkg.Flat, '{"first":0,"z":2}')


def test_recursive_model(pkg: ModuleType) -> None:
    roundtrip(pkg.Tree, '{"name":"a","children":[{"name":"b","children":[]}]}')
    rejects(pkg.Tree, '{"name":"a","children":[{"children":[]}]}')


def test_defaults_of_complex_types_are_validated(pkg: ModuleType) -> None:
    model = pkg.Defaults.model_validate_json("{}")
    assert isinstance(model.inner, pkg.Inner)
    assert model.model_dump_json() == '{"inner":{"a":1},"tags":{"k":2},"id":7}'
    assert pkg.Defaults.model_validate_json("{}").tags is not model.tags
    roundtrip(pkg.Defaults, '{"inner":{"a":2,"b":"x"},"tags":{},"id":1}')
    rejects(pkg.Defaults, '{"id":"1"}')


# ------------------------------------------------------------------------------ enums


def test_string_enum(pkg: ModuleType) -> None:
    assert issubclass(pkg.ContentKind, str)
    assert pkg.ContentKind.TEXT.value == "text"
    model = pkg.TextContent.model_validate({"type": "text", "text": "x"})
    assert model.type is pkg.ContentKind.TEXT
    roundtrip(pkg.ContentKind, '"audio"')
    rejects(pkg.ContentKind, '"video"')
    rejects(pkg.ContentKind, '"TEXT"')
    rejects(pkg.TextContent, '{"type":"image","text":"x"}')


def test_integer_enum_accepts_plain_values_but_no_coercion(pkg: ModuleType) -> None:
    roundtrip(pkg.Thing, thing(level=2))
    assert pkg.Thing.model_validate(json.loads(thing(level=2))).level is pkg.Level.HIGH
    rejects(pkg.Thing, thing(level=3))
    rejects(pkg.Thing, thing(level="1"))
    rejects(pkg.Thing, thing(level=True))
    rejects(pkg.Thing, thing(level=1.0))


def test_flags_enum_accepts_combinations_and_rejects_undefined_bits(
    pkg: ModuleType,
) -> None:
    roundtrip(pkg.Thing, thing(status=40))  # InProgress | IsRead
    roundtrip(pkg.Thing, thing(status=41))
    roundtrip(pkg.Thing, thing(status=8))
    value = pkg.Thing.model_validate(json.loads(thing(status=40))).status
    assert value == pkg.Status.IN_PROGRESS | pkg.Status.IS_READ
    roundtrip(pkg.Thing, thing(status=24))  # InputNeeded, a composite member
    roundtrip(pkg.Thing, thing(status=57))  # Read | InputNeeded | IsRead
    rejects(pkg.Thing, thing(status=16))  # a bit only valid as part of InputNeeded
    rejects(pkg.Thing, thing(status=0))  # no flag set, and no zero member
    rejects(pkg.Thing, thing(status=2))  # an undefined bit
    rejects(pkg.Thing, thing(status=64))
    rejects(pkg.Thing, thing(status="8"))
    rejects(pkg.Thing, thing(status=True))


def test_open_enums_accept_unknown_values(pkg: ModuleType) -> None:
    roundtrip(pkg.Thing, thing(mode="turbo", code=7))
    model = pkg.Thing.model_validate(json.loads(thing(mode="manual", code=1)))
    assert model.mode is pkg.Mode.MANUAL and model.code is pkg.Code.BAD
    assert pkg.Thing.model_validate_json(thing(mode="turbo")).mode == "turbo"
    rejects(pkg.Thing, thing(mode=1))
    rejects(pkg.Thing, thing(code="7"))
    rejects(pkg.Thing, thing(code=True))


# ----------------------------------------------------------------------------- unions


def test_tagged_union_with_enum_member_tags(pkg: ModuleType) -> None:
    roundtrip(pkg.Content, '{"type":"text","text":"hi"}')
    roundtrip(pkg.Content, '{"type":"image","data":"b64"}')
    roundtrip(pkg.Content, '{"type":"audio","data":"b64"}')  # a variant with two tags
    assert isinstance(
        adapter(pkg.Content).validate_json('{"type":"audio","data":""}'),
        pkg.MediaContent,
    )
    rejects(pkg.Content, '{"type":"video","data":"b64"}')
    rejects(pkg.Content, '{"type":"text","data":"b64"}')
    rejects(pkg.Content, '{"text":"hi"}')
    roundtrip(
        pkg.Thing,
        thing(list=[{"type": "text", "text": "a"}, {"type": "image", "data": "b"}]),
    )


def test_tagged_union_with_integer_tags_compares_json_types(pkg: ModuleType) -> None:
    roundtrip(pkg.Shape, '{"kind":1,"r":1.5}')
    roundtrip(pkg.Shape, '{"kind":2,"side":2}')
    assert isinstance(
        adapter(pkg.Shape).validate_python({"kind": 2, "side": 1}), pkg.Square
    )
    rejects(pkg.Shape, '{"kind":true,"r":1}')
    rejects(pkg.Shape, '{"kind":1.0,"r":1}')
    rejects(pkg.Shape, '{"kind":3,"r":1}')
    rejects(pkg.Square, '{"kind":1,"side":1}')  # the tag field of a variant is pinned


def test_internally_tagged_unit_variant_and_payload_without_tag(
    pkg: ModuleType,
) -> None:
    roundtrip(pkg.Event, '{"event":"started","p":1}')
    roundtrip(pkg.Event, '{"event":"stopped"}')
    # serde reads an internally tagged unit variant whatever other keys come with it
    # (checked against serde_json); the bindings keep them, as for any object.
    roundtrip(pkg.Event, '{"event":"stopped","p":1}')
    rejects(pkg.Event, '{"event":"started"}')
    rejects(pkg.Event, '{"p":1}')


def test_first_fit_untagged_union_takes_the_first_variant_that_reads(
    pkg: ModuleType,
) -> None:
    roundtrip(pkg.State, '{"root":"r"}')
    roundtrip(pkg.State, '{"session":"s","extra":1}')
    roundtrip(pkg.State, '{"terminal":3}')
    roundtrip(pkg.State, '"just a name"')  # the only non-object variant
    state = adapter(pkg.State)
    assert isinstance(state.validate_python({"session": "s"}), pkg.SessionState)
    assert isinstance(state.validate_python(pkg.RootState(root="r")), pkg.RootState)
    # Keys of two variants: the first in declaration order wins (serde's untagged).
    both = state.validate_json('{"session":"s","root":"r"}')
    assert isinstance(both, pkg.RootState)
    rejects(pkg.State, '{"root":1}')
    rejects(pkg.State, '{"terminal":"3"}')
    rejects(pkg.State, "3")


def test_first_fit_falls_through_to_a_later_variant(pkg: ModuleType) -> None:
    # serde: {"text": 5, "path": "p"} is not a Text (5 is no string), so it is a Path.
    chunk = adapter(pkg.Chunk).validate_json('{"text":5,"path":"p"}')
    assert isinstance(chunk, pkg.Path)
    assert isinstance(adapter(pkg.Chunk).validate_json('{"text":"t"}'), pkg.Text)
    rejects(pkg.Chunk, '{"text":5}')
    rejects(pkg.Chunk, '{"path":5,"text":6}')


def test_untagged_union_without_discriminator_is_a_smart_union(pkg: ModuleType) -> None:
    roundtrip(pkg.Loose, '{"x":1}')
    roundtrip(pkg.Loose, "5")
    rejects(pkg.Loose, '"5"')


def test_adjacently_tagged_union(pkg: ModuleType) -> None:
    roundtrip(pkg.Adj, '{"t":"move","c":{"a":1}}')
    roundtrip(pkg.Adj, '{"t":"stop"}')
    rejects(pkg.Adj, '{"t":"stop","c":{"a":1}}')
    rejects(pkg.Adj, '{"t":"move"}')
    rejects(pkg.Adj, '{"t":"jump","c":{"a":1}}')
    rejects(pkg.Adj, '{"c":{"a":1}}')


def test_externally_tagged_union(pkg: ModuleType) -> None:
    roundtrip(pkg.Ext, '"Unit"')
    roundtrip(pkg.Ext, '{"Text":"hello"}')
    roundtrip(pkg.Ext, '{"Point":{"a":1}}')
    # A second tag value (serde alias) is read, and written as the first.
    value = adapter(pkg.Ext).validate_json('{"Pt":{"a":1}}')
    assert adapter(pkg.Ext).dump_json(value) == b'{"Point":{"a":1}}'
    rejects(pkg.Ext, '"Text"')
    rejects(pkg.Ext, '"Nope"')
    rejects(pkg.Ext, '{"Text":1}')
    rejects(pkg.Ext, '{"Text":"a","Point":{"a":1}}')
    rejects(pkg.Ext, '{"Unit":null}')


# ---------------------------------------------------------------------------- aliases


def test_aliases_newtypes_and_externals(
    pkg: ModuleType, rendered: dict[str, str]
) -> None:
    models = rendered[f"python/{PACKAGE}/models.py"]
    assert "Uri: TypeAlias = str" in models
    # Aliases of scalars carry Strict(): TypeAdapter(Alias) is lax by default.
    assert "ToolCallId: TypeAlias = Annotated[int, Strict()]" in models
    assert (
        "Wide: TypeAlias = Annotated[\n    Annotated[int, Strict()] | Annotated[float, Strict()], _NUMBER\n]"
        in models
    )
    assert "# ActionEnvelope is defined outside this spec: any JSON value." in models
    assert models.index("Uri: TypeAlias") < models.index("UriList: TypeAlias")
    assert "RootModel" not in models
    roundtrip(pkg.UriList, '["a","b"]')
    rejects(pkg.UriList, "[1]")
    roundtrip(pkg.ToolCallId, "5")
    rejects(pkg.ToolCallId, '"5"')
    roundtrip(pkg.ActionEnvelope, '{"anything":[1,"x",null]}')


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("ToolCallId", "true"),
        ("ToolCallId", "1.0"),
        ("ToolCallId", '"5"'),
        ("Wide", "true"),
        ("Wide", '"1.5"'),
        ("UriList", "[1]"),
    ],
)
def test_aliases_are_strict_in_a_plain_type_adapter(
    pkg: ModuleType, name: str, text: str
) -> None:
    # What a user writes: no config.  pydantic's default lax mode read "true" as 1.
    plain = TypeAdapter(getattr(pkg, name))
    with pytest.raises(ValidationError):
        plain.validate_json(text)
    with pytest.raises(ValidationError):
        plain.validate_python(json.loads(text))


def test_plain_type_adapters_of_aliases_still_accept_their_values(
    pkg: ModuleType,
) -> None:
    assert TypeAdapter(pkg.ToolCallId).validate_json("5") == 5
    wide = TypeAdapter(pkg.Wide)
    assert type(wide.validate_json("1")) is int and wide.validate_json("1.5") == 1.5


def test_reserved_declaration_names_are_renamed(pkg: ModuleType) -> None:
    assert pkg.Field_2.__name__ == "Field_2"
    roundtrip(pkg.Field_2, '{"x":1}')
    rejects(pkg.Field_2, '{"x":"1"}')


def test_awkward_docs_survive_as_docstrings(pkg: ModuleType) -> None:
    assert pkg.Weird.__doc__.strip() == WEIRD_DOC.expandtabs(4)
    roundtrip(pkg.Weird, '{"x":1}')


def test_docs_become_docstrings(pkg: ModuleType) -> None:
    doc = pkg.Thing.__doc__ or ""
    assert "A thing." in doc and "Deprecated: use Other" in doc and "Since: 1.0." in doc
    assert "Extends Meta, Named" in doc
    assert pkg.ContentKind.__doc__ == "Content kinds."
    assert "A bit-flag enum" in (pkg.Status.__doc__ or "")
    assert "Meta" not in pkg.__all__  # not exported by the spec


# ---------------------------------------------------------------------------- methods


def test_method_registry(pkg: ModuleType) -> None:
    methods = pkg.METHODS
    assert list(methods) == [
        "initialize",
        "notify/sessionAdded",
        "$/cancel",
        "shutdown",
        "scale",
    ]
    init = methods["initialize"]
    assert (init.kind, init.sender, init.receiver, init.both_ways) == (
        "request",
        "client",
        "server",
        False,
    )
    assert isinstance(
        init.params.validate_python({"protocolVersion": 1}), pkg.InitializeParams
    )
    with pytest.raises(ValidationError):
        init.params.validate_python({"protocolVersion": "1"})
    assert methods["notify/sessionAdded"].kind == "notification"
    assert methods["notify/sessionAdded"].result is None
    assert methods["$/cancel"].params is None and methods["$/cancel"].both_ways
    assert methods["shutdown"].result.validate_python(None) is None
    with pytest.raises(ValidationError):
        methods["shutdown"].result.validate_python({})
    scale = methods["scale"].params
    assert scale.validate_python([1, 2]) == [1, 2]
    with pytest.raises(ValidationError):
        scale.validate_python(["1"])  # non-model adapters are strict too


def test_request_and_notification_helpers(pkg: ModuleType) -> None:
    m = pkg.methods
    params = pkg.InitializeParams.model_validate({"protocolVersion": 1})
    assert m.initialize_request(params, id=7) == {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "initialize",
        "params": {"protocolVersion": 1},
    }
    assert m.shutdown_request(id="x") == {
        "jsonrpc": "2.0",
        "id": "x",
        "method": "shutdown",
    }
    assert m.cancel_notification() == {"jsonrpc": "2.0", "method": "$/cancel"}
    session = pkg.SessionState(session="s")
    assert m.notify_session_added_notification(session) == {
        "jsonrpc": "2.0",
        "method": "notify/sessionAdded",
        "params": {"session": "s"},
    }
    result = m.parse_initialize_result({"state": {"root": "r"}})
    assert isinstance(result.state, pkg.RootState)
    with pytest.raises(ValidationError):
        m.parse_initialize_result({"state": {"root": 1}})
    assert isinstance(m.parse_scale_result({"kind": 1, "r": 2}), pkg.Circle)
    assert m.parse_shutdown_result(None) is None
    with pytest.raises(ValidationError):
        m.parse_shutdown_result(1)
    assert m.parse_notify_session_added_params({"session": "s"}) == session


def test_non_jsonrpc_transport_builds_envelopes(tmp_path: Path) -> None:
    protocol = ir.Protocol(
        id="env",
        title="Env",
        version="0",
        transport=ir.Transport("http-post-envelope", ("http-post",)),
        roles=("client", "provider"),
        decls=(ir.StructDecl("MetaParams", (fld("q", STR, OPT),)),),
        methods=(
            ir.Method(
                "meta",
                ir.MethodKind.REQUEST,
                ir.Direction("client", "provider"),
                ir.Ref("MetaParams"),
                None,
            ),
        ),
    )
    package = import_package(
        write_package(backend.render(protocol, "env_bindings"), tmp_path),
        "env_bindings",
    )
    params = package.MetaParams.model_validate({})
    assert package.methods.meta_request(params) == {"method": "meta", "params": {}}


# ---------------------------------------------------------------------- shared pieces


def test_render_environment_is_strict_and_formatter_errors_are_clear() -> None:
    with pytest.raises(jinja2.UndefinedError):
        render_template("python/__init__.py.j2", header="# h")
    assert format_python("x = ( 1,\n 2 )\n") == "x = (1, 2)\n"
    with pytest.raises(FormattingError, match="ruff format failed on broken.py"):
        format_python("def (:\n", filename="broken.py")
