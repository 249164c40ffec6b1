"""Our generated MCP stub server, as a user would extend it, for the interop tests.

``python tests/interop/mcp_stub_server.py`` serves ``mcp_protocol.server`` over stdio with
the stub's own answers, plus what a stub cannot do on its own: after ``logging/setLevel``
it sends a ``notifications/message``; on ``tools/call`` it first asks the client for its
roots (``roots/list``) and a sampled message (``sampling/createMessage``), and reports the
answers' shapes in the tool's text, so the test sees server → client requests work.
"""

from __future__ import annotations

import asyncio
import sys

from mcp_protocol import models as m
from mcp_protocol.server import StubHandler, main


class InteropHandler(StubHandler):
    async def logging_set_level(self, params: m.SetLevelRequestParams) -> m.EmptyResult:
        answer = await super().logging_set_level(params)
        note = m.LoggingMessageNotificationParams(
            level=params.level, data={"note": "level set"}, logger="stub"
        )
        # After the answer: a notification handler must not wait on the peer.
        asyncio.get_running_loop().call_later(
            0.05, lambda: asyncio.ensure_future(self.peer.notifications_message(note))
        )
        return answer

    async def tools_call(
        self, params: m.CallToolRequestParams
    ) -> m.CallToolResult | m.CreateTaskResult:
        roots = await self.peer.roots_list()
        sampled = await self.peer.sampling_create_message(
            m.CreateMessageRequestParams(
                messages=[
                    m.SamplingMessage(
                        role="user", content=m.TextContent(type="text", text="hi")
                    )
                ],
                max_tokens=10,
            )
        )
        text = f"roots={len(roots.roots)} model={sampled.model}"
        return m.CallToolResult(content=[m.TextContent(type="text", text=text)])


if __name__ == "__main__":
    sys.exit(main(handler_class=InteropHandler))
