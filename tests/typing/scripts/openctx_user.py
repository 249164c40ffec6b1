"""A typed user of openctx_protocol: HTTP POST envelopes, optional fields, lists."""

from __future__ import annotations

from openctx_protocol import METHODS, TransportError
from openctx_protocol.client import OpenctxClient
from openctx_protocol.models import (
    Item,
    ItemsParams,
    ItemsResult,
    Mention,
    MetaParams,
    MetaResult,
)
from pydantic import TypeAdapter

params = ItemsParams(message="hello", mention=Mention(title="Doc", uri="file:///a"))
assert params.model_dump_json() == (
    '{"message":"hello","mention":{"title":"Doc","uri":"file:///a"}}'
)
items = TypeAdapter(ItemsResult).validate_json('[{"title":"A","url":"https://a"}]')
first: Item = items[0]
assert first.title == "A" and first.url == "https://a"
meta = MetaResult.model_validate_json('{"name":"Linear Issues"}')
name: str = meta.name
assert name == "Linear Issues" and METHODS["items"].kind == "request"


async def ask(url: str) -> list[str]:
    try:
        async with OpenctxClient.http(url) as client:
            await client.meta(MetaParams())
            return [item.title for item in await client.items(params)]
    except TransportError:
        return []


print("ok")
