"""The official SDKs' own servers over stdio, for ``bench_sdk_server.py``: trivial handlers.

Phase: measurement (``make bench``), never a timed test.
Inputs: argv ``mcp RESULTS`` or ``acp RESULTS``: a JSON file mapping each method of the
benchmark's mix to the result the generated stub server answers it with.  Run by the
interop venv (``tests/interop/requirements.txt``), which has no codegen: this file imports
nothing of the project.
Outputs: an MCP server (the SDK's low-level ``mcp.server.lowlevel.Server`` on its stdio
transport: the least the SDK puts between a request and its handler, no FastMCP tool
registry) or an ACP agent (``acp.run_agent``) whose handlers return, for every request,
that result read once into the SDK's own model at start: the same handler work as the
stub's canned answer.
Guarantees: the SDKs' own framing, validation, dispatch and writing, as a user gets them.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any


def _first_valid(kinds: Any, value: Any) -> Any:
    """``value`` read as the first of ``kinds`` (one class or a tuple) that accepts it."""
    from pydantic import ValidationError

    for kind in kinds if isinstance(kinds, tuple) else (kinds,):
        try:
            return kind.model_validate(value)
        except ValidationError:
            if kind is (kinds[-1] if isinstance(kinds, tuple) else kinds):
                raise
    raise AssertionError("unreachable")


def _mcp(results: dict[str, Any]) -> None:
    import anyio
    from mcp import types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    server: Server[Any, Any] = Server("bench-sdk-server")
    # method -> (the SDK's request class, its result class)
    kinds = {
        "ping": (types.PingRequest, types.EmptyResult),
        "tools/list": (types.ListToolsRequest, types.ListToolsResult),
        # A call with ``task`` params may be answered with the task it created.
        "tools/call": (
            types.CallToolRequest,
            (types.CallToolResult, types.CreateTaskResult),
        ),
        "resources/list": (types.ListResourcesRequest, types.ListResourcesResult),
        "resources/read": (types.ReadResourceRequest, types.ReadResourceResult),
        "prompts/list": (types.ListPromptsRequest, types.ListPromptsResult),
        "prompts/get": (types.GetPromptRequest, types.GetPromptResult),
        "completion/complete": (types.CompleteRequest, types.CompleteResult),
    }
    for method, value in results.items():
        if method == "initialize":  # the SDK's session answers it from its options
            continue
        request, result = kinds[method]
        answer = types.ServerResult(_first_valid(result, value))

        async def handler(_request: Any, answer: Any = answer) -> Any:
            return answer

        server.request_handlers[request] = handler

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


def _acp(results: dict[str, Any]) -> None:
    import acp
    from acp import schema

    # method -> (the Agent method the SDK calls, its result class)
    kinds = {
        "initialize": ("initialize", schema.InitializeResponse),
        "authenticate": ("authenticate", schema.AuthenticateResponse),
        "session/new": ("new_session", schema.NewSessionResponse),
        "session/load": ("load_session", schema.LoadSessionResponse),
        "session/set_mode": ("set_session_mode", schema.SetSessionModeResponse),
        "session/prompt": ("prompt", schema.PromptResponse),
        "session/list": ("list_sessions", schema.ListSessionsResponse),
    }

    class Agent:
        def on_connect(self, conn: Any) -> None:
            self.conn = conn

        async def ext_method(self, method: str, params: Any) -> Any:
            raise acp.RequestError.method_not_found(method)

        async def ext_notification(self, method: str, params: Any) -> None:
            return None

    for method, value in results.items():
        name, result = kinds[method]
        answer = result.model_validate(value)

        async def handler(*_args: Any, answer: Any = answer, **_kw: Any) -> Any:
            return answer

        setattr(Agent, name, handler)
    asyncio.run(acp.run_agent(Agent()))


def main() -> int:
    kind, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as stream:
        results = json.load(stream)
    {"mcp": _mcp, "acp": _acp}[kind](results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
