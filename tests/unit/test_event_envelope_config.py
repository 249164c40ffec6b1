"""spec.toml's ``[transport] kind = "event-envelope"`` and its ``[transport.fields]``:
the keys reach the IR with DAP's defaults filled in; each mistake (a misspelt part, a
part that is not a string, two parts under one key, fields on another kind, a framing the
envelope does not travel over, a misspelt kind) is one error at its line and column.
Every rejecting case has an accepting twin."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.test_spec_schema import HEAD, _load, _one

ENVELOPE = HEAD + '[transport]\nkind = "event-envelope"\nframings = ["ndjson-stdio"]\n'

DAP = (
    ("seq", "seq"),
    ("type", "type"),
    ("command", "command"),
    ("arguments", "arguments"),
    ("body", "body"),
    ("success", "success"),
    ("message", "message"),
    ("event", "event"),
    ("request_seq", "request_seq"),
)


def test_the_keys_default_to_dap_and_are_renamed_by_the_table(tmp_path: Path) -> None:
    config, diags = _load(tmp_path, ENVELOPE)
    assert config is not None and not diags.items
    assert config.envelope_fields == DAP
    renamed = ENVELOPE + '[transport.fields]\nseq = "id"\nbody = "data"\n'
    config, diags = _load(tmp_path, renamed)
    assert config is not None and not diags.items
    got = dict(config.envelope_fields)
    assert (got["seq"], got["body"], got["command"]) == ("id", "data", "command")
    # another kind carries no envelope keys
    config, _ = _load(tmp_path, HEAD)
    assert config is not None and config.envelope_fields == ()


# (spec.toml with the mistake, the same spelt right, message, line, column)
CASES = [
    (
        ENVELOPE + '[transport.fields]\ncomand = "op"\n',
        ENVELOPE + '[transport.fields]\ncommand = "op"\n',
        "unknown key 'comand' in [transport.fields]; did you mean 'command'?",
        8,
        1,
    ),
    (
        ENVELOPE + "[transport.fields]\nseq = 3\n",
        ENVELOPE + '[transport.fields]\nseq = "3"\n',
        "transport.fields.seq must be a string, not an integer",
        8,
        7,
    ),
    (
        ENVELOPE + '[transport.fields]\nbody = "type"\n',
        ENVELOPE + '[transport.fields]\nbody = "type"\ntype = "kind"\n',
        (
            "transport.fields.body is 'type', the key of type too; each part of the "
            "envelope needs its own"
        ),
        8,
        8,
    ),
    (
        HEAD + '[transport]\nkind = "jsonrpc-2.0"\n[transport.fields]\nseq = "n"\n',
        HEAD + '[transport]\nkind = "event-envelope"\n[transport.fields]\nseq = "n"\n',
        (
            "[transport.fields] names the keys of an event envelope; this spec's "
            "kind is 'jsonrpc-2.0' (kind = \"event-envelope\"?)"
        ),
        6,
        2,
    ),
    (
        HEAD + '[transport]\nkind = "event-envelope"\nframings = ["websocket"]\n',
        HEAD + '[transport]\nkind = "event-envelope"\nframings = ["ndjson-stdio"]\n',
        (
            "an event-envelope travels over ndjson-stdio or content-length-stdio, "
            "not websocket"
        ),
        6,
        13,
    ),
    (
        HEAD + '[transport]\nkind = "event-envelop"\n',
        HEAD + '[transport]\nkind = "event-envelope"\n',
        (
            "transport.kind must be one of jsonrpc-2.0, http-post-envelope, "
            "event-envelope, not 'event-envelop'; did you mean 'event-envelope'?"
        ),
        5,
        8,
    ),
]


@pytest.mark.parametrize(("wrong", "right", "message", "line", "col"), CASES)
def test_a_mistake_is_one_error_at_its_place(
    tmp_path: Path, wrong: str, right: str, message: str, line: int, col: int
) -> None:
    assert _one(tmp_path, wrong) == (message, line, col)
    config, diags = _load(tmp_path, right)
    assert config is not None and not diags.items, [d.message for d in diags.items]


def test_the_schema_defaults_are_the_runtimes() -> None:
    # spec.toml's table and the runtime's dataclass each spell DAP's key names: the runtime
    # is copied into packages that cannot import codegen, and the schema must not import
    # asyncio on every run. This keeps the two spellings one.
    from dataclasses import fields

    from codegen.runtime.event_envelope import EnvelopeFields
    from codegen.spec.schema import EnvelopeFieldsTable

    table = EnvelopeFieldsTable().model_dump()
    runtime = {f.name: f.default for f in fields(EnvelopeFields)}
    assert table and all(runtime[key] == value for key, value in table.items())
    # The runtime's extra fields are the `type` values, which spec.toml does not rename.
    assert {k for k in runtime if k not in table} == {
        "request_type",
        "response_type",
        "event_type",
    }
