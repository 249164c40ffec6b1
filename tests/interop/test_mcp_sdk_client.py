"""The official MCP Python SDK's client drives our generated ``mcp`` stub server over stdio.

Every exchange the SDK offers a client, against the stub's answers (the spec's own doc
examples): initialize (the SDK checks the protocol version), ping, tools/list and
tools/call (during which our stub asks the SDK for its roots and a sampled message),
resources/list and resources/read, prompts/list and prompts/get, completion/complete,
logging/setLevel (after which our stub notifies a log message), and the client's own
notifications (initialized, roots/list_changed, progress).  The SDK validates every
answer with its own types; a stub answer it rejects fails the test.  The rejecting twin:
the stub told to fail ``tools/call`` (``--fail``) makes the SDK raise.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from mcp import ClientSession, McpError, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.shared.context import RequestContext

from tests.interop.conftest import HERE, env_with


def _server(python: str, transcript: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=python,
        args=[
            str(HERE / "mcp_stub_server.py"),
            "--transcript",
            str(transcript),
            *extra,
        ],
        env=env_with("mcp"),
    )


class Recorder:
    """The SDK client's callbacks: what our stub sent to the client."""

    def __init__(self) -> None:
        self.logs: list[types.LoggingMessageNotificationParams] = []
        self.roots_asked = 0
        self.sampled = 0

    async def logging(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)

    async def roots(self, context: RequestContext[Any, Any]) -> types.ListRootsResult:
        self.roots_asked += 1
        return types.ListRootsResult(
            roots=[types.Root(uri=types.FileUrl("file:///project"), name="project")]
        )

    async def sampling(
        self,
        context: RequestContext[Any, Any],
        params: types.CreateMessageRequestParams,
    ) -> types.CreateMessageResult:
        self.sampled += 1
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="sampled"),
            model="sdk-model",
        )


async def _session_run(python: str, transcript: Path, recorder: Recorder) -> list[str]:
    seen: list[str] = []
    async with (
        stdio_client(_server(python, transcript)) as (read, write),
        ClientSession(
            read,
            write,
            logging_callback=recorder.logging,
            list_roots_callback=recorder.roots,
            sampling_callback=recorder.sampling,
        ) as session,
    ):
        init = await session.initialize()
        seen.append(f"initialize {init.protocolVersion} {init.serverInfo.name}")
        await session.send_ping()
        seen.append("ping")
        tools = await session.list_tools()
        seen.append(f"tools/list {[t.name for t in tools.tools]}")
        called = await session.call_tool(tools.tools[0].name, {"location": "Paris"})
        first = called.content[0]
        assert isinstance(first, types.TextContent)
        seen.append(f"tools/call {first.text}")
        resources = await session.list_resources()
        seen.append(f"resources/list {len(resources.resources)}")
        read_back = await session.read_resource(resources.resources[0].uri)
        seen.append(f"resources/read {len(read_back.contents)}")
        prompts = await session.list_prompts()
        seen.append(f"prompts/list {[p.name for p in prompts.prompts]}")
        prompt = await session.get_prompt(prompts.prompts[0].name, {"code": "x"})
        seen.append(f"prompts/get {len(prompt.messages)}")
        completion = await session.complete(
            types.PromptReference(type="ref/prompt", name=prompts.prompts[0].name),
            {"name": "language", "value": "py"},
        )
        seen.append(f"completion/complete {completion.completion.values}")
        await session.set_logging_level("warning")
        seen.append("logging/setLevel")
        await session.send_roots_list_changed()
        await session.send_progress_notification("token-1", 0.5, 1.0, "half")
        for _ in range(100):  # the stub's log notification follows its answer
            if recorder.logs:
                break
            await asyncio.sleep(0.02)
        await session.send_ping()
    return seen


def test_sdk_client_drives_our_stub(python: str, tmp_path: Path) -> None:
    recorder = Recorder()
    transcript = tmp_path / "transcript.jsonl"
    seen = asyncio.run(_session_run(python, transcript, recorder))
    assert seen[0] == "initialize 2025-11-25 ExampleServer"
    assert seen[1:3] == ["ping", "tools/list ['get_weather']"]
    assert seen[3] == "tools/call roots=1 model=sdk-model"
    assert recorder.roots_asked == 1 and recorder.sampled == 1
    assert [entry.split()[0] for entry in seen[4:]] == [
        "resources/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "logging/setLevel",
    ]
    assert [(log.level, log.data) for log in recorder.logs] == [
        ("warning", {"note": "level set"})
    ]
    # The stub's transcript: every message both ways, notifications from the SDK included.
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    methods = [
        entry["message"].get("method")
        for entry in lines
        if isinstance(entry.get("message"), dict)
    ]
    for method in (
        "notifications/initialized",
        "notifications/roots/list_changed",
        "notifications/progress",
        "notifications/message",
        "roots/list",
        "sampling/createMessage",
    ):
        assert method in methods, method


async def _failing_call(python: str, transcript: Path) -> types.ErrorData | None:
    params = _server(python, transcript, "--fail", "tools/call=-32602")
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        try:
            await session.call_tool("get_weather", {"location": "Paris"})
        except McpError as error:
            return error.error
    return None


def test_an_error_answer_reaches_the_sdk_as_an_error(
    python: str, tmp_path: Path
) -> None:
    error = asyncio.run(_failing_call(python, tmp_path / "t.jsonl"))
    assert error is not None and error.code == -32602


async def _raw(python: str, transcript: Path, message: dict[str, Any]) -> Any:
    """One message the SDK's types would never send, straight to the stub."""
    process = await asyncio.create_subprocess_exec(
        python,
        str(HERE / "mcp_stub_server.py"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env=env_with("mcp"),
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write((json.dumps(message) + "\n").encode())
    await process.stdin.drain()
    line = await asyncio.wait_for(process.stdout.readline(), 30)
    process.stdin.close()
    await process.wait()
    return json.loads(line)


def test_the_stub_rejects_what_the_spec_forbids(python: str, tmp_path: Path) -> None:
    bad = {
        "jsonrpc": "2.0",
        "id": 9,
        "method": "resources/read",
        "params": {"uri": 42},
    }
    answer = asyncio.run(_raw(python, tmp_path / "t.jsonl", bad))
    assert answer["id"] == 9 and answer["error"]["code"] == -32602
