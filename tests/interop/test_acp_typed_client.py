"""The generated ``acp1`` typed client driving an agent written with the official ACP Python SDK
(``agent-client-protocol``) over stdio, through a full prompt turn: initialize (whose
``authMethods`` hold an untagged ``AuthMethod``), authenticate, session/new, session/load, a
prompt whose updates, permission request and fs calls the client's handler serves, and
session/cancel as a notification.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "generated" / "acp1" / "python"))

from acp1_protocol import client as acp_client
from acp1_protocol import models

AGENT = Path(__file__).with_name("acp_sdk_agent.py")


class Handler(acp_client.ClientHandler):
    """The client side: serves what the agent sends, typed by the acp1 bindings."""

    def __init__(self) -> None:
        self.updates: list[models.SessionNotification] = []
        self.calls: list[str] = []
        self.written = ""

    async def session_update(self, params: models.SessionNotification) -> None:
        self.updates.append(params)

    async def session_request_permission(
        self, params: models.RequestPermissionRequest
    ) -> models.RequestPermissionResponse:
        self.calls.append("session/request_permission")
        choice = params.options[0].option_id
        return models.RequestPermissionResponse.model_validate(
            {"outcome": {"outcome": "selected", "optionId": choice}}
        )

    async def fs_read_text_file(
        self, params: models.ReadTextFileRequest
    ) -> models.ReadTextFileResponse:
        self.calls.append("fs/read_text_file")
        return models.ReadTextFileResponse.model_validate({"content": "hello notes"})

    async def fs_write_text_file(
        self, params: models.WriteTextFileRequest
    ) -> models.WriteTextFileResponse:
        self.calls.append("fs/write_text_file")
        self.written = params.content
        return models.WriteTextFileResponse.model_validate({})


async def _turn(log: Path) -> tuple[Handler, dict[str, Any]]:
    handler = Handler()
    results: dict[str, Any] = {}
    async with await acp_client.Acp1Client.stdio(
        [sys.executable, str(AGENT)], handler=handler
    ) as agent:
        results["initialize"] = await agent.initialize(
            models.InitializeRequest.model_validate(
                {
                    "protocolVersion": 1,
                    "clientCapabilities": {
                        "fs": {"readTextFile": True, "writeTextFile": True},
                        "terminal": False,
                    },
                    "clientInfo": {"name": "acp1-client", "version": "1"},
                }
            )
        )
        method = results["initialize"].auth_methods[0].id
        results["authenticate"] = await agent.authenticate(
            models.AuthenticateRequest.model_validate({"methodId": method})
        )
        new = await agent.session_new(
            models.NewSessionRequest.model_validate({"cwd": "/work", "mcpServers": []})
        )
        results["new"] = new
        results["load"] = await agent.session_load(
            models.LoadSessionRequest.model_validate(
                {"sessionId": new.session_id, "cwd": "/work", "mcpServers": []}
            )
        )
        results["prompt"] = await agent.session_prompt(
            models.PromptRequest.model_validate(
                {
                    "sessionId": new.session_id,
                    "prompt": [{"type": "text", "text": "Uppercase notes.txt"}],
                }
            )
        )
        await agent.session_cancel(
            models.CancelNotification.model_validate({"sessionId": new.session_id})
        )
        await asyncio.sleep(0.3)  # let the notification land before the agent exits
    return handler, results


def test_the_typed_client_drives_an_sdk_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "agent.jsonl"
    monkeypatch.setenv("ACP_INTEROP_LOG", str(log))  # the agent process inherits it
    handler, results = asyncio.run(asyncio.wait_for(_turn(log), 60))
    initialize = results["initialize"]
    # An AuthMethod without "type" is the untagged agent variant, not an error.
    assert type(initialize.auth_methods[0]).__name__ == "AuthMethodAgent"
    assert initialize.agent_info.name == "sdk-agent"
    assert results["new"].session_id == "sess_sdk_1"
    assert str(results["prompt"].stop_reason) == "end_turn"
    assert handler.calls == [
        "session/request_permission",
        "fs/read_text_file",
        "fs/write_text_file",
    ]
    assert handler.written == "HELLO NOTES"
    kinds = [type(n.update).__name__ for n in handler.updates]
    assert kinds == [
        "SessionUpdateAgentMessageChunk",
        "SessionUpdateToolCall",
        "SessionUpdateToolCallUpdate",
    ]
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
