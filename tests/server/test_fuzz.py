"""A bounded fuzz run of malformed and hostile lines against one long-lived stdio
stub server per protocol; afterwards it must still answer a valid request.

``CODEGEN_FUZZ_EXAMPLES`` (default 60) bounds the run.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.support import Generated, RawStdio, with_transport

EXAMPLES = int(os.environ.get("CODEGEN_FUZZ_EXAMPLES", "60"))
STDIO = [g for g in with_transport("ndjson-stdio") if g.jsonrpc]

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _messages(methods: list[str]) -> st.SearchStrategy[bytes]:
    envelope = st.fixed_dictionaries(
        {},
        optional={
            "jsonrpc": st.sampled_from(["2.0", "1.0", 2]) | _json,
            "id": st.integers() | st.text(max_size=6) | _json,
            "method": st.sampled_from(methods) | st.text(max_size=12) | _json,
            "params": _json,
        },
    )
    structured = (envelope | st.lists(envelope, max_size=3) | _json).map(
        lambda value: json.dumps(value).encode()
    )
    raw = st.binary(max_size=64).map(lambda data: data.replace(b"\n", b" "))
    return structured | raw


@pytest.mark.parametrize("gen", STDIO, ids=lambda g: g.spec)
def test_hostile_lines_leave_the_server_answering(gen: Generated) -> None:
    methods = sorted(gen.module("methods").METHODS)
    server = RawStdio(gen, "--quiet")

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(_messages(methods))
    def hammer(line: bytes) -> None:
        server.send(line + b"\n")

    try:
        hammer()
        answer: Any = None
        server.send_json({"jsonrpc": "2.0", "id": "last", "method": "$/none"})
        while not (isinstance(answer, dict) and answer.get("id") == "last"):
            answer = server.receive()
        assert answer["error"]["code"] == -32601
    finally:
        code = server.close()
    assert code == 0
    assert b"Traceback" not in b"".join(server.stderr)
