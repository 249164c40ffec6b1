"""The generated stdio client against peers that misbehave (tests/hostile/peers.py): a
silent peer, wrong ids and garbage, an ill-typed result, a peer that never reads, a huge
error text.  Every call ends within its time limit with the package's own error.

Reproductions of issue 33: "a call to a peer that is silent, answers garbage, or answers
with the wrong id waits forever (stdio)"; "ill-typed results raise raw
``pydantic_core.ValidationError``"; "``RpcError`` text is not capped".
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import mcp_protocol
import piglet_protocol
import pytest
from mcp_protocol.client import McpClient
from mcp_protocol.models import RequestParams
from piglet_protocol.client import PigletClient
from piglet_protocol.models import InitializeParams

from tests.hostile.peers import recorded, stdio_peer

# A loaded machine may run the child late: bounds are generous, limits small.
LIMIT = 0.5
WITHIN = 10.0


def test_a_silent_peer_fails_the_call_in_time_and_the_request_is_cancelled(
    tmp_path: Path,
) -> None:
    record = tmp_path / "read.jsonl"

    async def scenario() -> tuple[BaseException, float]:
        async with McpClient.stdio(stdio_peer("silent", record), timeout=LIMIT) as c:
            started = time.monotonic()
            with pytest.raises(mcp_protocol.TransportTimeout) as caught:
                await c.ping()
            elapsed = time.monotonic() - started
            await asyncio.sleep(0.3)  # the cancel notification reaches the peer
            return caught.value, elapsed

    error, elapsed = asyncio.run(asyncio.wait_for(scenario(), WITHIN * 2))
    assert LIMIT <= elapsed < WITHIN
    assert isinstance(error, TimeoutError) and isinstance(
        error, mcp_protocol.TransportError
    )
    assert "ping" in str(error) and "0.5 s" in str(error)
    sent = [json.loads(line) for line in recorded(record)]
    assert sent[0]["method"] == "ping" and sent[0]["id"] == 1
    # MCP cancels with notifications/cancelled {requestId}
    assert sent[1] == {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": 1},
    }


def test_lsp_style_cancel_names_the_id_key_of_the_protocol(tmp_path: Path) -> None:
    record = tmp_path / "read.jsonl"

    async def scenario() -> None:
        command = stdio_peer("silent", record)
        async with PigletClient.stdio(command, timeout=LIMIT) as client:
            with pytest.raises(piglet_protocol.TransportTimeout):
                await client.initialize(InitializeParams.model_validate({}))
            await asyncio.sleep(0.3)

    asyncio.run(asyncio.wait_for(scenario(), WITHIN * 2))
    sent = [json.loads(line) for line in recorded(record)]
    assert sent[1]["method"] == "$/cancelRequest"
    assert sent[1]["params"] == {"id": sent[0]["id"]}


def test_a_call_answered_in_time_is_not_cancelled(tmp_path: Path) -> None:
    # The twin: the stub answers; nothing times out, nothing is cancelled.
    async def scenario() -> object:
        async with McpClient.stdio(timeout=WITHIN) as client:
            result = await client.ping()
            assert client.session.strays == 0  # type: ignore[attr-defined]
            return result

    assert asyncio.run(scenario()) is not None


def test_a_call_says_its_own_limit(tmp_path: Path) -> None:
    record = tmp_path / "read.jsonl"

    async def scenario() -> str:
        async with McpClient.stdio(stdio_peer("silent", record), timeout=None) as c:
            with pytest.raises(mcp_protocol.TransportTimeout) as caught:
                await c.ping(timeout=0.25)
            return str(caught.value)

    text = asyncio.run(asyncio.wait_for(scenario(), WITHIN * 2))
    assert "ping: no answer within 0.25 s" in text


def test_wrong_ids_and_garbage_are_counted_and_never_hang_a_call(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "read.jsonl"

    async def scenario() -> int:
        async with McpClient.stdio(stdio_peer("wrong", record), timeout=LIMIT) as c:
            with pytest.raises(mcp_protocol.TransportTimeout):
                await c.ping()
            strays: int = c.session.strays  # type: ignore[attr-defined]
            return strays

    assert asyncio.run(asyncio.wait_for(scenario(), WITHIN * 2)) == 2
    logged = capfd.readouterr().err
    assert "not JSON from pid" in logged and "response to no pending request" in logged


def test_an_ill_typed_result_raises_the_packages_error_with_details(
    tmp_path: Path,
) -> None:
    record = tmp_path / "read.jsonl"

    async def scenario() -> BaseException:
        async with McpClient.stdio(
            stdio_peer("bad-result", record), timeout=WITHIN
        ) as c:
            with pytest.raises(mcp_protocol.InvalidResult) as caught:
                await c.ping()
            return caught.value

    error = asyncio.run(asyncio.wait_for(scenario(), WITHIN * 2))
    assert isinstance(error, mcp_protocol.RpcError)
    assert error.code == mcp_protocol.INTERNAL_ERROR
    assert error.result == {"_meta": 5}  # type: ignore[attr-defined]
    assert error.data["count"] >= 1 and error.data["errors"][0]["path"] == "/_meta"
    assert "invalid result of ping" in str(error)


def test_a_peer_that_never_reads_cannot_block_a_call(tmp_path: Path) -> None:
    record = tmp_path / "read.jsonl"
    big = "x" * (4 * 1024 * 1024)  # over any pipe's buffer: the write must wait

    async def scenario() -> float:
        async with McpClient.stdio(stdio_peer("deaf", record), timeout=LIMIT) as c:
            started = time.monotonic()
            with pytest.raises(mcp_protocol.TransportTimeout):
                await c.ping(RequestParams.model_validate({"_meta": {"big": big}}))
            return time.monotonic() - started

    assert asyncio.run(asyncio.wait_for(scenario(), WITHIN * 3)) < WITHIN


def test_a_huge_error_text_is_capped_and_its_escapes_are_shown_as_text(
    tmp_path: Path,
) -> None:
    record = tmp_path / "read.jsonl"

    async def scenario() -> BaseException:
        async with McpClient.stdio(
            stdio_peer("huge-error", record), timeout=WITHIN
        ) as c:
            with pytest.raises(mcp_protocol.RpcError) as caught:
                await c.ping()
            return caught.value

    error = asyncio.run(asyncio.wait_for(scenario(), WITHIN * 2))
    text = str(error)
    assert len(text) < 2100 and "\x1b" not in text and "\x07" not in text
    assert text.startswith("-1: \\x1b[2J")
    assert isinstance(error, mcp_protocol.RpcError) and len(error.message) > 100000
