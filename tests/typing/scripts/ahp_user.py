"""A typed user of ahp_protocol: builds, writes, reads, and talks through the client."""

from __future__ import annotations

import asyncio

from ahp_protocol import (
    METHODS,
    UNSUPPORTED_PROTOCOL_VERSION,
    InitializeParams,
    InitializeResult,
    MarkdownResponsePart,
    ResponsePart,
    ResponsePartKind,
    RpcError,
    TransportError,
)
from ahp_protocol.client import AhpClient
from pydantic import TypeAdapter

params = InitializeParams(protocol_version=1, client_id="c1", locale="en-US")
assert params.model_dump_json() == (
    '{"protocolVersion":1,"clientId":"c1","locale":"en-US"}'
)
assert repr(InitializeParams(protocol_version=1, client_id="c1")) == (
    "InitializeParams(protocol_version=1, client_id='c1')"
)
version: int | float = params.protocol_version
client_id: str = params.client_id

part = MarkdownResponsePart(id="p1", content="**hi**")  # the tag fills itself in
assert part.kind is ResponsePartKind.MARKDOWN
assert part.model_dump_json() == '{"kind":"markdown","id":"p1","content":"**hi**"}'

read = TypeAdapter(ResponsePart).validate_json(
    '{"kind":"markdown","id":"p2","content":"x","later":1}'
)
assert isinstance(read, MarkdownResponsePart) and read.model_extra == {"later": 1}

result = InitializeResult.model_validate_json(
    '{"protocolVersion":1,"serverSeq":3,"snapshots":[]}'
)
seq: int | float = result.server_seq
assert seq == 3 and METHODS["initialize"].kind == "request"

error = RpcError(UNSUPPORTED_PROTOCOL_VERSION, "no", {"supported": [1]})
assert error.code == -32005 and '"supported": [1]' in str(error)


async def talk(url: str) -> int | float:
    try:
        async with AhpClient.websocket(url) as client:
            answer = await client.initialize(params)
            return answer.server_seq
    except TransportError:
        return -1
    except RpcError as failure:
        return failure.code


async def over_stdio() -> int | float:
    async with AhpClient.stdio() as client:
        answer = await client.initialize(params)
        return answer.protocol_version


assert asyncio.run(talk("ws://127.0.0.1:9/")) == -1  # refused: the package's error
print("ok")
