"""A typed user of piglet_protocol (Go): defaults, omitempty, JSON values."""

from __future__ import annotations

from piglet_protocol import (
    METHODS,
    HostListToolsResult,
    InitializeParams,
    RegisterToolParams,
)
from piglet_protocol.client import PigletClient

tool = RegisterToolParams(
    name="grep", description="search", parameters={"type": "object"}
)
assert tool.model_dump_json() == (
    '{"name":"grep","description":"search","parameters":{"type":"object"}}'
)
empty = RegisterToolParams()  # Go's zero values
assert empty.model_dump_json() == '{"name":"","description":"","parameters":null}'

listed = HostListToolsResult.model_validate_json('{"tools":null}')
assert listed.tools is None
assert METHODS["initialize"].kind == "request"


async def hello(client: PigletClient) -> str:
    answer = await client.initialize(InitializeParams(protocol_version="1", cwd="/"))
    return answer.name


print("ok")
