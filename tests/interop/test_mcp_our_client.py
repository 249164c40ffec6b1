"""Our generated typed ``mcp`` client drives a server written with the official MCP SDK.

Over stdio: initialize (our params read by the SDK, its result by our types),
notifications/initialized, ping (no params: optional params left out), tools/list,
tools/call with a progress token (the SDK server sends a log message and a progress
notification, and asks our client for its roots and a sampled message, which our client's
handler answers), resources/list and resources/read, prompts/list and prompts/get,
completion/complete, logging/setLevel (the SDK answers and notifies), and our
notifications/roots/list_changed.  Every payload is validated by both sides.  The
rejecting twins: a tool the server lacks comes back as an error result, a method it does
not serve as an error answer.
"""

from __future__ import annotations

import asyncio
import sys

from mcp_protocol import _rpc
from mcp_protocol import models as m
from mcp_protocol.client import McpClient, StubClientHandler

from tests.interop.conftest import HERE


class Recording(StubClientHandler):
    """Our client's handler: answers the server's requests, records its notifications."""

    def __init__(self) -> None:
        self.logs: list[m.LoggingMessageNotificationParams] = []
        self.progress: list[m.ProgressNotificationParams] = []
        self.roots_asked = 0
        self.sampled = 0

    async def notifications_message(
        self, params: m.LoggingMessageNotificationParams
    ) -> None:
        self.logs.append(params)

    async def notifications_progress(
        self, params: m.ProgressNotificationParams
    ) -> None:
        self.progress.append(params)

    async def roots_list(self, params: m.RequestParams | None) -> m.ListRootsResult:
        self.roots_asked += 1
        return m.ListRootsResult(roots=[m.Root(uri="file:///project", name="p")])

    async def sampling_create_message(
        self, params: m.CreateMessageRequestParams
    ) -> m.CreateMessageResult | m.CreateTaskResult:
        self.sampled += 1
        return m.CreateMessageResult(
            role="assistant",
            content=m.TextContent(type="text", text="sampled"),
            model="our-model",
        )


async def _session(handler: Recording) -> list[str]:
    seen: list[str] = []
    command = [sys.executable, str(HERE / "mcp_sdk_server.py")]
    client = await McpClient.stdio(command, handler=handler)
    async with client:
        init = await client.initialize(
            m.InitializeRequestParams(
                protocol_version="2025-11-25",
                capabilities=m.ClientCapabilities(
                    roots=m.ClientCapabilitiesRoots(list_changed=True),
                    sampling=m.ClientCapabilitiesSampling(),
                ),
                client_info=m.Implementation(name="codegen-client", version="1"),
            )
        )
        seen.append(f"initialize {init.protocol_version} {init.server_info.name}")
        await client.notifications_initialized()
        await client.ping()
        seen.append("ping")
        tools = await client.tools_list()
        seen.append(f"tools/list {[t.name for t in tools.tools]}")
        called = await client.tools_call(
            m.CallToolRequestParams(
                name="add",
                arguments={"a": 2, "b": 3},
                meta=m.RequestParamsMeta(progress_token="tok-1"),
            )
        )
        assert isinstance(called, m.CallToolResult)
        first = called.content[0]
        assert isinstance(first, m.TextContent)
        seen.append(f"tools/call {first.text}")
        resources = await client.resources_list()
        seen.append(f"resources/list {[r.uri for r in resources.resources]}")
        read = await client.resources_read(
            m.ReadResourceRequestParams(uri="file:///greeting.txt")
        )
        text = read.contents[0]
        assert isinstance(text, m.TextResourceContents)
        seen.append(f"resources/read {text.text}")
        prompts = await client.prompts_list()
        seen.append(f"prompts/list {[p.name for p in prompts.prompts]}")
        prompt = await client.prompts_get(
            m.GetPromptRequestParams(name="review", arguments={"code": "x = 1"})
        )
        seen.append(f"prompts/get {len(prompt.messages)}")
        completion = await client.completion_complete(
            m.CompleteRequestParams(
                ref=m.PromptReference(type="ref/prompt", name="review"),
                argument=m.CompleteRequestParamsArgument(name="language", value="py"),
            )
        )
        seen.append(f"completion/complete {completion.completion.values}")
        await client.logging_set_level(m.SetLevelRequestParams(level="debug"))
        seen.append("logging/setLevel")
        await client.notifications_roots_list_changed()
        missing = await client.tools_call(m.CallToolRequestParams(name="missing"))
        assert isinstance(missing, m.CallToolResult)
        seen.append(f"tools/call missing: isError={missing.is_error}")
        try:
            await client.tasks_list()  # the SDK server serves no tasks
        except _rpc.RpcError as error:
            seen.append(f"tasks/list: error {error.code}")
        for _ in range(100):
            if len(handler.logs) >= 2:
                break
            await asyncio.sleep(0.02)
    return seen


def test_our_client_drives_the_sdk_server() -> None:
    handler = Recording()
    seen = asyncio.run(_session(handler))
    assert seen[0] == "initialize 2025-11-25 sdk-server"
    assert seen[1:8] == [
        "ping",
        "tools/list ['add']",
        "tools/call 5 roots=1 model=our-model",
        "resources/list ['file:///greeting.txt']",
        "resources/read hello from the SDK",
        "prompts/list ['review']",
        "prompts/get 1",
    ]
    assert seen[8:10] == [
        "completion/complete ['python', 'pytorch']",
        "logging/setLevel",
    ]
    assert handler.roots_asked == 1 and handler.sampled == 1
    assert [p.progress for p in handler.progress] == [1]
    assert [log.data for log in handler.logs] == [
        "adding 2 and 3",
        "level is now debug",
    ]
    # The rejecting twins: a tool the server lacks is an error result; a method it
    # does not serve is an error answer.
    assert seen[10:] == ["tools/call missing: isError=True", "tasks/list: error -32601"]
