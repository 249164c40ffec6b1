"""Rejecting twin of scripts/mcp_user.py (see ahp_rejects.py)."""

from __future__ import annotations

from mcp_protocol import CallToolResult, ImageContent, Implementation, TextContent

ok = TextContent(text="hi")
a = TextContent(type="image", text="hi")  # error
b = TextContent(text=1)  # error
c = ImageContent(data="x")  # error
d = Implementation(name="n", version="1", websiteUrl="https://x.y")  # error
e = Implementation(name="n", version="1", website="https://x.y")  # error
result = CallToolResult.model_validate_json('{"content":[]}')
f: bool = result.is_error  # error
