"""A typed user of mcp_protocol: MCP's own shapes, built in Python and read off the wire."""

from __future__ import annotations

from mcp_protocol import (
    INVALID_PARAMS,
    METHODS,
    CallToolRequestParams,
    CallToolResult,
    ClientCapabilities,
    Implementation,
    InitializeRequestParams,
    TextContent,
)
from mcp_protocol.client import McpClient

init = InitializeRequestParams(
    protocol_version="2025-11-25",
    capabilities=ClientCapabilities(),
    client_info=Implementation(name="typed", version="1.0", website_url="https://x.y"),
)
assert init.model_dump_json() == (
    '{"protocolVersion":"2025-11-25","capabilities":{},'
    '"clientInfo":{"name":"typed","version":"1.0","websiteUrl":"https://x.y"}}'
)

text = TextContent(text="hi")  # ``type`` fills itself in, as in MCP's own SDK
assert text.type == "text" and text.model_dump_json() == '{"type":"text","text":"hi"}'

call = CallToolRequestParams(
    name="weather",
    arguments={"city": "Paris"},  # ``{ [key: string]: unknown }``: a dict, as in TS
)
assert call.model_dump_json() == '{"name":"weather","arguments":{"city":"Paris"}}'

result = CallToolResult.model_validate_json(
    '{"content":[{"type":"text","text":"sunny"}],"isError":false}'
)
first = result.content[0]
if isinstance(first, TextContent):
    shown: str = first.text
    assert shown == "sunny"
assert result.is_error is False
assert INVALID_PARAMS == -32602 and METHODS["tools/call"].kind == "request"


async def call_tool(client: McpClient) -> list[str]:
    answer = await client.tools_call(call)  # or a CreateTaskResult (task augmented)
    if not isinstance(answer, CallToolResult):
        return []
    return [block.text for block in answer.content if isinstance(block, TextContent)]


print("ok")
