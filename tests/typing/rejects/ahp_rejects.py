"""Rejecting twin of scripts/ahp_user.py: every line marked ``# error`` must be an
error for mypy --strict and for pyright; no other line may be."""

from __future__ import annotations

from ahp_protocol import (
    InitializeParams,
    MarkdownResponsePart,
    ResponsePartKind,
    RpcError,
)
from ahp_protocol.client import AhpClient

ok = InitializeParams(protocol_version=1, client_id="c1")
a = InitializeParams(protocol_version=1, client_id="c1", locael="x")  # error
b = InitializeParams(protocolVersion=1, client_id="c1")  # error
c = InitializeParams(protocol_version="1", client_id="c1")  # error
d = InitializeParams(protocol_version=1)  # error
e = MarkdownResponsePart(kind=ResponsePartKind.REASONING, id="p", content="")  # error
f: str = ok.protocol_version  # error
g = ok.clientId  # error
h = RpcError("-32005", "no")  # error


async def talk() -> None:
    client = AhpClient.websocket("ws://127.0.0.1:1/")
    await client.initialize(ok)  # error
