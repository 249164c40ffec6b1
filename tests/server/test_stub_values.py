"""The stub server's minimal values are read by the bindings before they are served, so a
struct serde reads otherwise than it writes is built as a reader sees it (keys a reader
takes, keys a reader requires, none it never reads); checked against the JSON Schema of
what serde reads, with the writer's form as the twin that the reader refuses.
"""

from __future__ import annotations

from pathlib import Path

import jsonschema

from codegen import ir
from codegen.backends.jsonschema import build_schema, def_pointer, written_bundle
from codegen.backends.server.stub_values import minimal_value
from codegen.ir.index import Index
from codegen.pipeline import load_protocol

GOLDEN = (
    Path(__file__).resolve().parent.parent / "golden" / "rust" / "asymmetric_fields"
)


def _protocol() -> ir.Protocol:
    outcome = load_protocol(GOLDEN)
    assert outcome.protocol is not None
    return outcome.protocol


def _accepts(bundle: dict[str, object], name: str, value: object) -> bool:
    schema = {**bundle, "$ref": def_pointer(name)}
    return jsonschema.Draft202012Validator(schema).is_valid(value)


def test_a_minimal_value_is_what_a_reader_reads() -> None:
    protocol = _protocol()
    bundle = build_schema(protocol)
    for name in ("Open", "Closed"):
        value = minimal_value(Index(protocol), ir.Ref(name))
        assert _accepts(bundle, name, value), (name, value)
    opened = minimal_value(Index(protocol), ir.Ref("Open"))
    assert set(opened) == {"write_only", "de_renamed", "aliased", "flag"}


def test_the_writers_form_is_not_what_a_reader_reads() -> None:
    # Twin: the same struct under the writer's keys is refused by serde's reader form,
    # which is what the minimal value was built as before.
    protocol = _protocol()
    bundle = build_schema(protocol)
    written = {"READ-ONLY": False, "ser_renamed": False, "ALIASED": 0}
    assert _accepts(written_bundle(bundle), "Open", written)
    assert not _accepts(bundle, "Open", written)
