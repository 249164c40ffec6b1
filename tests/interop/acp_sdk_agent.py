"""An ACP agent written with the official Python SDK (``agent-client-protocol``), as a real
agent would be: it advertises an agent-handled login (an ``AuthMethod`` without ``type``),
and its prompt turn streams updates, asks permission and reads and writes a file through the
client.  What it handles is appended to $ACP_INTEROP_LOG as JSON lines.

Driven by the generated ``acp1`` typed client in ``test_acp_typed_client.py``.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import acp
from acp import schema

LOG = os.environ.get("ACP_INTEROP_LOG")


def _log(method: str, **fields: Any) -> None:
    if LOG:
        with open(LOG, "a", encoding="utf-8") as stream:
            stream.write(json.dumps({"method": method, **fields}) + "\n")


class SdkAgent:
    def on_connect(self, conn: Any) -> None:
        self.conn = conn

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: Any = None,
        client_info: Any = None,
        **kwargs: Any,
    ) -> schema.InitializeResponse:
        _log(
            "initialize",
            fs=client_capabilities.fs.read_text_file if client_capabilities else None,
        )
        return schema.InitializeResponse(
            protocol_version=acp.PROTOCOL_VERSION,
            agent_capabilities=schema.AgentCapabilities(load_session=True),
            auth_methods=[schema.AuthMethodAgent(id="agent-login", name="Agent login")],
            agent_info=schema.Implementation(name="sdk-agent", version="0.12.1"),
        )

    async def authenticate(
        self, method_id: str, **kwargs: Any
    ) -> schema.AuthenticateResponse:
        _log("authenticate", method_id=method_id)
        return schema.AuthenticateResponse()

    async def new_session(
        self, cwd: str, mcp_servers: Any = None, **kwargs: Any
    ) -> schema.NewSessionResponse:
        _log("session/new", cwd=cwd)
        return schema.NewSessionResponse(session_id="sess_sdk_1")

    async def load_session(
        self, cwd: str, session_id: str, mcp_servers: Any = None, **kwargs: Any
    ) -> None:
        _log("session/load", session_id=session_id)

    async def prompt(
        self, session_id: str, prompt: list[Any], **kwargs: Any
    ) -> schema.PromptResponse:
        _log("session/prompt", text=prompt[0].text)
        await self.conn.session_update(
            session_id, acp.update_agent_message_text("On it.")
        )
        await self.conn.session_update(
            session_id,
            acp.start_tool_call(
                "call_1", "Edit notes.txt", kind="edit", status="pending"
            ),
        )
        permission = await self.conn.request_permission(
            session_id,
            schema.ToolCallUpdate(tool_call_id="call_1", title="Edit notes.txt"),
            [
                schema.PermissionOption(
                    option_id="allow", name="Allow", kind="allow_once"
                ),
                schema.PermissionOption(
                    option_id="reject", name="Reject", kind="reject_once"
                ),
            ],
        )
        read = await self.conn.read_text_file(
            session_id, "/project/notes.txt", line=1, limit=2
        )
        await self.conn.write_text_file(
            session_id, "/project/notes.txt", read.content.upper()
        )
        await self.conn.session_update(
            session_id,
            acp.update_tool_call(
                "call_1",
                status="completed",
                content=[
                    acp.tool_content(
                        acp.text_block(
                            permission.outcome.model_dump_json(by_alias=True)
                        )
                    )
                ],
            ),
        )
        return schema.PromptResponse(stop_reason="end_turn")

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        _log("session/cancel", session_id=session_id)

    async def ext_method(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        raise acp.RequestError.method_not_found(method)

    async def ext_notification(self, method: str, params: dict[str, Any]) -> None:
        return None


if __name__ == "__main__":
    asyncio.run(acp.run_agent(SdkAgent()))
