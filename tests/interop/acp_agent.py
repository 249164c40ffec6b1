"""An ACP agent built on the generated acp1 stub server (``acp1_protocol.server``): the stub's
answers, plus a prompt turn that streams ``session/update`` notifications and calls back to
the client (``session/request_permission``, ``fs/read_text_file``, ``fs/write_text_file``).
Every request and notification it handles is appended to $ACP_INTEROP_LOG as JSON lines.

Run as ``python acp_agent.py`` (stdio); the official SDK's client drives it in
``test_acp_sdk_client.py``.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from acp1_protocol import models, server

LOG = os.environ.get("ACP_INTEROP_LOG")


def _log(method: str, params: Any) -> None:
    if LOG:
        with open(LOG, "a", encoding="utf-8") as stream:
            payload = params.model_dump(mode="json", by_alias=True)
            stream.write(json.dumps({"method": method, "params": payload}) + "\n")


class InteropAgent(server.StubHandler):
    """The stub, logging what it handles, with a prompt turn that uses the client."""

    async def initialize(
        self, params: models.InitializeRequest
    ) -> models.InitializeResponse:
        _log("initialize", params)
        return await super().initialize(params)

    async def authenticate(
        self, params: models.AuthenticateRequest
    ) -> models.AuthenticateResponse:
        _log("authenticate", params)
        return await super().authenticate(params)

    async def session_new(
        self, params: models.NewSessionRequest
    ) -> models.NewSessionResponse:
        _log("session/new", params)
        return await super().session_new(params)

    async def session_load(
        self, params: models.LoadSessionRequest
    ) -> models.LoadSessionResponse:
        _log("session/load", params)
        return await super().session_load(params)

    async def session_cancel(self, params: models.CancelNotification) -> None:
        _log("session/cancel", params)

    async def session_prompt(
        self, params: models.PromptRequest
    ) -> models.PromptResponse:
        _log("session/prompt", params)
        session = params.session_id
        await self.peer.session_update(
            models.SessionNotification.model_validate(
                {
                    "sessionId": session,
                    "update": {
                        "sessionUpdate": "agent_message_chunk",
                        "content": {"type": "text", "text": "Reading the file"},
                    },
                }
            )
        )
        await self.peer.session_update(
            models.SessionNotification.model_validate(
                {
                    "sessionId": session,
                    "update": {
                        "sessionUpdate": "tool_call",
                        "toolCallId": "call_1",
                        "title": "Edit notes.txt",
                        "kind": "edit",
                        "status": "pending",
                    },
                }
            )
        )
        permission = await self.peer.session_request_permission(
            models.RequestPermissionRequest.model_validate(
                {
                    "sessionId": session,
                    "toolCall": {"toolCallId": "call_1", "title": "Edit notes.txt"},
                    "options": [
                        {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                        {"optionId": "reject", "name": "Reject", "kind": "reject_once"},
                    ],
                }
            )
        )
        read = await self.peer.fs_read_text_file(
            models.ReadTextFileRequest.model_validate(
                {
                    "sessionId": session,
                    "path": "/project/notes.txt",
                    "line": 1,
                    "limit": 2,
                }
            )
        )
        await self.peer.fs_write_text_file(
            models.WriteTextFileRequest.model_validate(
                {
                    "sessionId": session,
                    "path": "/project/notes.txt",
                    "content": read.content.upper(),
                }
            )
        )
        outcome = permission.outcome.model_dump(mode="json", by_alias=True)
        await self.peer.session_update(
            models.SessionNotification.model_validate(
                {
                    "sessionId": session,
                    "update": {
                        "sessionUpdate": "tool_call_update",
                        "toolCallId": "call_1",
                        "status": "completed",
                        "content": [
                            {
                                "type": "content",
                                "content": {
                                    "type": "text",
                                    "text": json.dumps(outcome),
                                },
                            }
                        ],
                    },
                }
            )
        )
        return models.PromptResponse.model_validate({"stopReason": "end_turn"})


if __name__ == "__main__":
    sys.exit(server.main(["--transport", "stdio"], handler_class=InteropAgent))
