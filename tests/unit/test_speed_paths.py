"""The fast paths of generation give exactly what the slow ones they replaced gave.

- ``imports.names_in`` (one regular-expression scan) against the ``tokenize`` reference on
  every generated module and on snippets that trip scanners (strings, comments, numbers,
  attribute access, ``...``, lazy ``TypeAliasType`` values).
- ``package.ir_sha256`` (one walk) against ``ir.dump.to_data`` of the IR rewritten with
  blank spans and no sources.
- The provenance module laid out without ruff against the module ruff formats, and the
  fallback to ruff where a value is not a plain string or a line would be too long.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import io
import json
import tokenize
from pathlib import Path
from typing import Any

import pytest

from codegen import ir
from codegen.backends.formatting import format_python
from codegen.backends.python import package
from codegen.backends.python.imports import names_in
from codegen.ir import dump as ir_dump
from codegen.ir.rewrite import rewrite
from codegen.pipeline import discover_specs, load_protocol

REPO = Path(__file__).resolve().parent.parent.parent
MODULES = sorted((REPO / "generated").glob("*/python/*/*.py"))


def reference_names(text: str) -> list[str]:
    """The tokenizer-based ``names_in`` this project used before."""
    names: dict[str, None] = {}
    after_dot = False
    recent: list[str] = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.NAME and not after_dot:
            names.setdefault(token.string)
        if (
            token.type == tokenize.STRING
            and recent[-4:-2] == ["TypeAliasType", "("]
            and recent[-1:] == [","]
        ):
            for name in reference_names(ast.literal_eval(token.string)):
                names.setdefault(name)
        if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            after_dot = token.type == tokenize.OP and token.string == "."
            recent = (recent + [token.string])[-4:]
    return list(names)


SNIPPETS = [
    'x = Literal["Field"]  # Any\n',
    "a = typing.Self\nb = (obj\n  .Attr)\n",
    "n = 1e5 + 0x1F + 1.5e-3 + 1_000 + .5j\n",
    'd = """doc with Any\nand "quotes" \\""" still"""\ne = Any\n',
    "s = r'raw \\' Field' + b'bytes' + f'{Any}' + rb\"x\"\n",
    'T = TypeAliasType("T", "list[Annotated[int, Strict()]] | None")\n',
    "def f(x: Callable[..., Any]) -> None:\n    ...\n    return x.y\n",
    "x = ''\ny = '''a'b''' + Tag\n",
    "élan = Ünïcode\n",
    "x = [\n    1,  # comment Discriminator\n    \\\n    Field,\n]\n",
]


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_names_in_matches_the_tokenizer_on_snippets(snippet: str) -> None:
    ast.parse(snippet)
    assert names_in(snippet) == reference_names(snippet)


def test_names_in_matches_the_tokenizer_on_every_generated_module() -> None:
    assert len(MODULES) >= 20
    for module in MODULES:
        text = module.read_text(encoding="utf-8")
        assert names_in(text) == reference_names(text), module


def test_names_in_tells_strings_and_code_apart() -> None:
    """The rejecting twin: a name only inside a string or comment is not used."""
    assert "Field" not in names_in('x = "Field"  # Field\n')
    assert "Field" in names_in('x = Field("Field")\n')
    assert "Self" not in names_in("x = typing.Self\n")


def _reference_ir_sha256(protocol: ir.Protocol) -> str:
    def blank(node: Any) -> Any:
        if isinstance(node, ir.Span):
            return ir.NO_SPAN
        if isinstance(node, ir.Protocol):
            return dataclasses.replace(node, sources=())
        return node

    data = ir_dump.to_data(rewrite(protocol, blank))
    text = json.dumps(data, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.fixture(scope="module")
def protocols() -> list[ir.Protocol]:
    out = []
    for spec_dir in discover_specs(REPO / "specs"):
        outcome = load_protocol(spec_dir, REPO)
        assert outcome.protocol is not None
        out.append(outcome.protocol)
    return out


def test_ir_hash_in_one_walk_equals_the_rewrite(protocols: list[ir.Protocol]) -> None:
    for protocol in protocols:
        assert package.ir_sha256(protocol) == _reference_ir_sha256(protocol)


def test_ir_hash_ignores_spans_and_sees_content(protocols: list[ir.Protocol]) -> None:
    protocol = protocols[0]
    moved = rewrite(
        protocol,
        lambda n: (
            dataclasses.replace(n, line=n.line + 7) if isinstance(n, ir.Span) else n
        ),
    )
    assert package.ir_sha256(moved) == package.ir_sha256(protocol)
    renamed = dataclasses.replace(protocol, title=protocol.title + " 2")
    assert package.ir_sha256(renamed) != package.ir_sha256(protocol)


def _facts(path: str, spec_id: str = "demo") -> package.PackageFacts:
    return package.PackageFacts(spec_id, "Demo", "1.0", ((path, "ab" * 32),), "cd" * 32)


HASHES = {"__init__.py": "ef" * 32, "models.py": "01" * 32}


@pytest.mark.parametrize(
    "facts",
    [
        _facts("a.ts"),  # the source pair fits on one line
        _facts("specs/demo/protocol.ts"),  # split, as ruff splits it
        _facts("specs/" + "x" * 90 + ".ts"),  # too long even split: ruff decides
        _facts('specs/it"s.ts'),  # a quote: ruff normalizes
        _facts("specs/demo/a.ts", spec_id="d\u2028emo"),  # a line separator
    ],
)
def test_provenance_is_what_ruff_makes(facts: package.PackageFacts) -> None:
    emitted = package.render(facts, "demo_protocol", "demo-protocol", {})
    text = package._provenance(facts, "demo_protocol", HASHES)
    assert emitted["python/demo_protocol/_provenance.py"].startswith("# generated")
    reference = format_python(
        package._provenance_text(facts, "demo_protocol", HASHES, repr),
        filename="_provenance.py",
    )
    assert text == reference
    # the twin: a layout ruff would change is told apart
    assert text.replace("    ", "  ") != reference


def _reference_enum_schema(enum: type[Any]) -> Any:
    """The Python before-validator the bindings used for every enum before."""
    from pydantic_core import PydanticCustomError, core_schema

    def wire(value: Any) -> Any:
        if issubclass(enum, str):
            if isinstance(value, str):
                return value
            raise PydanticCustomError("string_type", "Input should be a valid string")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise PydanticCustomError("int_type", "Input should be a valid integer")

    schema = core_schema.enum_schema(enum, list(enum.__members__.values()))
    if issubclass(enum, str):
        schema["sub_type"] = "str"
    elif issubclass(enum, int):
        schema["sub_type"] = "int"
    return core_schema.no_info_before_validator_function(wire, schema)


def _verdict(validate: Any, value: Any) -> tuple[str, Any]:
    from pydantic import ValidationError

    try:
        return "ok", validate(value)
    except ValidationError as error:
        return "error", [(e["type"], e["msg"]) for e in error.errors()]


def test_enums_give_the_verdicts_of_the_python_validator() -> None:
    """Every plain enum of every generated package, on values of each JSON type and
    on its members: the native strict check accepts and rejects what the Python
    before-validator did, with the same errors; flags keep their validator."""
    import enum
    import importlib
    import sys

    from pydantic import TypeAdapter
    from pydantic_core import SchemaValidator

    checked = 0
    for models in sorted((REPO / "generated").glob("*/python/*/models.py")):
        sys.path.insert(0, str(models.parent.parent))
        try:
            module = importlib.import_module(f"{models.parent.name}.models")
        finally:
            sys.path.pop(0)
        for value in vars(module).values():
            if not (
                isinstance(value, type)
                and issubclass(value, enum.Enum)
                and hasattr(value, "_wire_value")
                and not issubclass(value, enum.Flag)
            ):
                continue
            reference = SchemaValidator(_reference_enum_schema(value))
            ours = TypeAdapter(value)
            members = list(value.__members__.values())
            inputs = [m.value for m in members] + members
            inputs += ["", "no such value", 1, 0, True, False, 1.0, None, [], {}]
            for item in inputs:
                for mode in ("python", "json"):
                    if mode == "json" and isinstance(item, enum.Enum):
                        continue
                    if mode == "python":
                        want = _verdict(reference.validate_python, item)
                        got = _verdict(ours.validate_python, item)
                    else:
                        text = json.dumps(item)
                        want = _verdict(reference.validate_json, text)
                        got = _verdict(ours.validate_json, text)
                    assert got == want, (value, mode, item)
            checked += 1
    assert checked >= 10
