"""An MCP server written with the official Python SDK (FastMCP), for the interop tests.

``python tests/interop/mcp_sdk_server.py`` serves over stdio: one tool (``add``, which
logs, reports progress, asks the client for its roots and for a sampled message), one
resource, one prompt, completions for the prompt's argument, and logging levels.  Every
message our generated client sends is read by the SDK's own types.
"""

from __future__ import annotations

from mcp import types
from mcp.server.fastmcp import Context, FastMCP

server = FastMCP("sdk-server")
levels: list[str] = []


@server.tool()
async def add(a: int, b: int, ctx: Context) -> str:  # type: ignore[type-arg]
    """Add two integers."""
    await ctx.info(f"adding {a} and {b}")
    await ctx.report_progress(1, 2, "half way")
    roots = await ctx.session.list_roots()
    sampled = await ctx.session.create_message(
        messages=[
            types.SamplingMessage(
                role="user", content=types.TextContent(type="text", text="hi")
            )
        ],
        max_tokens=5,
    )
    return f"{a + b} roots={len(roots.roots)} model={sampled.model}"


@server.resource("file:///greeting.txt", mime_type="text/plain")
def greeting() -> str:
    """A greeting."""
    return "hello from the SDK"


@server.prompt()
def review(code: str, language: str = "python") -> str:
    """Review a piece of code."""
    return f"Please review this {language} code: {code}"


@server.completion()
async def complete(
    ref: types.PromptReference | types.ResourceTemplateReference,
    argument: types.CompletionArgument,
    context: types.CompletionContext | None,
) -> types.Completion | None:
    if argument.name == "language":
        options = ["python", "pytorch", "rust"]
        return types.Completion(
            values=[o for o in options if o.startswith(argument.value)]
        )
    return None


@server._mcp_server.set_logging_level()  # FastMCP has no decorator of its own for it
async def set_level(level: types.LoggingLevel) -> None:
    levels.append(level)
    await server._mcp_server.request_context.session.send_log_message(
        level="notice", data=f"level is now {level}", logger="sdk"
    )


if __name__ == "__main__":
    server.run("stdio")
