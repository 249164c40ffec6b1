"""Rejecting twin of scripts/openctx_user.py (see ahp_rejects.py)."""

from __future__ import annotations

from openctx_protocol.client import OpenctxClient
from openctx_protocol.models import ItemsParams, Mention

ok = Mention(title="Doc", uri="file:///a")
a = Mention(title="Doc")  # error
b = Mention(title="Doc", uri="file:///a", url="x")  # error
c = ItemsParams(mention={"title": "Doc", "uri": "file:///a"})  # error


async def ask() -> None:
    client = OpenctxClient.http("http://127.0.0.1:1/")
    await client.items(ItemsParams(message="x"))  # error
