"""A typed user of acp_protocol (serde): tagged unions, enums, bounded integers."""

from __future__ import annotations

from acp_protocol import (
    METHODS,
    Icon,
    InitializeParams,
    PushToolCallParams,
    ReadTextFileParams,
    ToolCallContentMarkdown,
)
from acp_protocol.client import AcpClient
from pydantic import ValidationError

push = PushToolCallParams(
    label="Read file",
    icon=Icon.FILE_SEARCH,
    content=ToolCallContentMarkdown(markdown="reading"),  # the tag fills itself in
)
assert push.model_dump_json() == (
    '{"label":"Read file","icon":"fileSearch",'
    '"content":{"type":"markdown","markdown":"reading"}}'
)

read = ReadTextFileParams(path="/tmp/a", line=3)
assert read.line == 3
assert read.model_dump_json() == '{"path":"/tmp/a","line":3}'

try:
    ReadTextFileParams(path="/tmp/a", line=-1)
except ValidationError as error:
    assert error.error_count() == 1
else:
    raise AssertionError("a negative u32 was accepted")

assert METHODS["initialize"].params is not None


async def start(client: AcpClient) -> str:
    answer = await client.initialize(InitializeParams(protocol_version="1.0.0"))
    return answer.protocol_version


print("ok")
