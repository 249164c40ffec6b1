"""The official ACP Python SDK (``agent-client-protocol``) as the client, driving an agent built
on the generated ``acp1`` stub server over stdio: initialize, authenticate, session/new,
session/load, a prompt turn with session/update notifications and session/request_permission
and fs calls back to the SDK's client, and session/cancel as a notification.

Both sides validate what they receive: the SDK with its own models (generated upstream from
the official schema), the stub with the acp1 bindings.  A message either side rejects fails
the turn.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import acp
from acp import schema

REPO = Path(__file__).resolve().parent.parent.parent
AGENT = Path(__file__).with_name("acp_agent.py")


class RecordingClient:
    """The SDK-side client: answers the agent's calls and records them."""

    def __init__(self) -> None:
        self.updates: list[Any] = []
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        self.updates.append(update)

    async def request_permission(
        self, session_id: str, tool_call: Any, options: list[Any], **kwargs: Any
    ) -> schema.RequestPermissionResponse:
        self.calls.append(("session/request_permission", {"options": len(options)}))
        return schema.RequestPermissionResponse(
            outcome=schema.AllowedOutcome(
                option_id=options[0].option_id, outcome="selected"
            )
        )

    async def read_text_file(
        self,
        session_id: str,
        path: str,
        line: int | None = None,
        limit: int | None = None,
        **kwargs: Any,
    ) -> schema.ReadTextFileResponse:
        self.calls.append(
            ("fs/read_text_file", {"path": path, "line": line, "limit": limit})
        )
        return schema.ReadTextFileResponse(content="hello notes")

    async def write_text_file(
        self, session_id: str, path: str, content: str, **kwargs: Any
    ) -> schema.WriteTextFileResponse:
        self.calls.append(("fs/write_text_file", {"path": path, "content": content}))
        return schema.WriteTextFileResponse()

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise acp.RequestError.method_not_found(method)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None


def _env(log: Path) -> dict[str, str]:
    package = str(REPO / "generated" / "acp1" / "python")
    path = os.pathsep.join(filter(None, [package, os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "ACP_INTEROP_LOG": str(log)}


async def _turn(log: Path) -> tuple[RecordingClient, dict[str, Any]]:
    client = RecordingClient()
    results: dict[str, Any] = {}
    async with acp.spawn_agent_process(
        lambda _agent: client, sys.executable, str(AGENT), env=_env(log)
    ) as (conn, _process):
        results["initialize"] = await conn.initialize(
            protocol_version=acp.PROTOCOL_VERSION,
            client_capabilities=schema.ClientCapabilities(
                fs=schema.FileSystemCapabilities(
                    read_text_file=True, write_text_file=True
                ),
                terminal=False,
            ),
            client_info=schema.Implementation(name="sdk-client", version="0.12.1"),
        )
        methods = results["initialize"].auth_methods or []
        assert methods, "the stub advertises the docs' authentication methods"
        method = methods[0].root if hasattr(methods[0], "root") else methods[0]
        results["authenticate"] = await conn.authenticate(method_id=method.id)
        results["new"] = await conn.new_session(cwd="/work", mcp_servers=[])
        session = results["new"].session_id
        results["load"] = await conn.load_session(
            cwd="/work", session_id=session, mcp_servers=[]
        )
        results["prompt"] = await conn.prompt(
            session_id=session, prompt=[acp.text_block("Uppercase notes.txt")]
        )
        await conn.cancel(session_id=session)
        await asyncio.sleep(0.3)  # let the notification land before the agent exits
    return client, results


def test_the_sdk_client_drives_the_generated_agent(tmp_path: Path) -> None:
    log = tmp_path / "agent.jsonl"
    client, results = asyncio.run(asyncio.wait_for(_turn(log), 60))
    assert results["initialize"].protocol_version == 1
    assert results["new"].session_id
    assert results["prompt"].stop_reason == "end_turn"
    # The agent's notifications reached the SDK and passed its validation.
    kinds = [type(update).__name__ for update in client.updates]
    assert kinds == ["AgentMessageChunk", "ToolCallStart", "ToolCallProgress"]
    # The agent's requests reached the SDK's client, and its answers came back valid.
    assert [name for name, _ in client.calls] == [
        "session/request_permission",
        "fs/read_text_file",
        "fs/write_text_file",
    ]
    assert client.calls[2][1]["content"] == "HELLO NOTES"
    selected = json.loads(client.updates[2].content[0].content.text)
    assert selected == {"outcome": "selected", "optionId": "allow"}
    # The generated agent read every request, and session/cancel as a notification.
    handled = [
        json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()
    ]
    assert [entry["method"] for entry in handled] == [
        "initialize",
        "authenticate",
        "session/new",
        "session/load",
        "session/prompt",
        "session/cancel",
    ]
    assert handled[0]["params"]["clientCapabilities"]["fs"] == {
        "readTextFile": True,
        "writeTextFile": True,
    }
