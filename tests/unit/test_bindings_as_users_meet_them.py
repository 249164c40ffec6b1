"""The generated bindings at run time, as a Python user meets them (issue 19): built in
Python they refuse unknown keywords and fill in tags; read from the wire they keep
unknown keys and demand tags; one error per bad field; clean repr; a docstring on every
class; the package's own errors; the pydantic floor.  The static half (mypy --strict and
pyright) is tests/typing."""

from __future__ import annotations

import asyncio
import inspect
import json
import socket
from enum import Enum
from pathlib import Path
from types import ModuleType

import acp_protocol
import ahp_protocol
import mcp_protocol
import openctx_protocol
import piglet_protocol
import pytest
from ahp_protocol import models as ahp
from ahp_protocol.client import AhpClient
from mcp_protocol import models as mcp
from openctx_protocol.client import OpenctxClient
from pydantic import BaseModel, TypeAdapter, ValidationError

import codegen.runtime as jsonrpc
from codegen.runtime import requirement

REPO = Path(__file__).resolve().parents[2]
PACKAGES = (acp_protocol, ahp_protocol, mcp_protocol, openctx_protocol, piglet_protocol)


def _errors(call: object) -> list[tuple[tuple[int | str, ...], str]]:
    with pytest.raises(ValidationError) as caught:
        assert callable(call)
        call()
    return [(tuple(e["loc"]), e["type"]) for e in caught.value.errors()]


def test_a_typo_is_refused_in_python_and_kept_from_the_wire() -> None:
    errors = _errors(
        lambda: ahp.InitializeParams(protocol_version=1, client_id="c", locael="en")
    )
    assert errors == [(("locael",), "extra_forbidden")]
    read = ahp.InitializeParams.model_validate_json(
        '{"protocolVersion":1,"clientId":"c","locael":"en"}'
    )
    assert read.model_extra == {"locael": "en"}
    assert (
        read.model_dump_json() == '{"protocolVersion":1,"clientId":"c","locael":"en"}'
    )


def test_python_takes_attribute_and_wire_names_and_declared_extra_keys() -> None:
    by_wire = ahp.InitializeParams(protocolVersion=1, clientId="c")
    assert by_wire == ahp.InitializeParams(protocol_version=1, client_id="c")
    # A model whose spec declares extra keys (an index signature) takes them.
    meta = mcp.RequestParamsMeta(progress_token=1, city="Paris")
    assert meta.model_dump_json() == '{"progressToken":1,"city":"Paris"}'


def test_an_object_type_of_only_an_index_signature_is_a_dict() -> None:
    # ``arguments?: { [key: string]: unknown }`` is ``Record<string, unknown>`` to
    # TypeScript: a plain dict in Python, as the SDK has it, not a class of its own.
    call = mcp.CallToolRequestParams(name="w", arguments={"city": "Paris"})
    assert call.arguments == {"city": "Paris"}
    assert call.model_dump_json() == '{"name":"w","arguments":{"city":"Paris"}}'
    assert not hasattr(mcp, "CallToolRequestParamsArguments")
    # Rejecting twins: the map's keys are strings, and its values are JSON.
    assert _errors(
        lambda: mcp.CallToolRequestParams.model_validate_json(
            '{"name":"w","arguments":[1]}'
        )
    ) == [(("arguments",), "dict_type")]
    assert _errors(lambda: mcp.CallToolRequestParams(name="w", arguments={"k": {1}}))


def test_tags_fill_themselves_in_python_but_not_from_the_wire() -> None:
    part = ahp.MarkdownResponsePart(id="p", content="x")
    assert part.kind is ahp.ResponsePartKind.MARKDOWN
    assert mcp.TextContent(text="hi").model_dump_json() == '{"type":"text","text":"hi"}'
    assert mcp.TextContent(type="text", text="hi").type == "text"
    assert _errors(lambda: mcp.TextContent(type="image", text="hi")) == [
        (("type",), "literal_error")
    ]
    assert _errors(
        lambda: ahp.MarkdownResponsePart.model_validate({"id": "p", "content": "x"})
    ) == [(("kind",), "missing")]
    assert (
        _errors(lambda: TypeAdapter(mcp.ContentBlock).validate_python({"text": "hi"}))[
            0
        ][1]
        == "union_tag_not_found"
    )


def test_one_error_per_bad_number() -> None:
    errors = _errors(
        lambda: ahp.InitializeParams.model_validate(
            {"protocolVersion": "1", "clientId": 3}
        )
    )
    assert errors == [
        (("protocolVersion",), "float_type"),
        (("clientId",), "string_type"),
    ]
    question = {"id": "q", "message": "m", "kind": "number"}
    for bad in ("1", True, None, [1]):
        errors = _errors(
            lambda bad=bad: ahp.SessionInputNumberQuestion.model_validate(
                {**question, "min": bad}
            )
        )
        assert errors == [(("min",), "float_type")], bad
    for good in (1, 1.5, -0.0):
        read = ahp.SessionInputNumberQuestion.model_validate({**question, "min": good})
        assert json.loads(read.model_dump_json())["min"] == good
        assert type(read.min) is type(good)  # 1 stays 1, never 1.0


def test_repr_leaves_absent_fields_out() -> None:
    params = ahp.InitializeParams(protocol_version=1, client_id="c1")
    assert repr(params) == "InitializeParams(protocol_version=1, client_id='c1')"
    assert "MISSING" not in repr(
        mcp.Implementation.model_validate_json('{"name":"n","version":"1","x":2}')
    )


def _classes(package: ModuleType) -> list[type]:
    module = package.models
    return [
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and value.__module__ == module.__name__
        and not value.__name__.startswith("_")
        and issubclass(value, (BaseModel, Enum))
    ]


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_every_class_has_its_own_docstring(package: ModuleType) -> None:
    classes = _classes(package)
    assert len(classes) > 5
    bare = [c.__name__ for c in classes if not (vars(c).get("__doc__") or "").strip()]
    assert bare == []


def test_jsdoc_links_are_rendered() -> None:
    for path in sorted((REPO / "generated").glob("*/python/*/*.py")):
        assert "{@link" not in path.read_text(encoding="utf-8"), path
    from codegen.backends.python.text import docstring

    assert docstring("See {@link Foo.bar} and {@link /a/b | Auth}.", "") == (
        '"""See `Foo.bar` and Auth (`/a/b`)."""'
    )


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.__name__)
def test_errors_are_public(package: ModuleType) -> None:
    assert package.RpcError is package._rpc.RpcError
    assert package.PARSE_ERROR == -32700 and package.INVALID_PARAMS == -32602
    assert issubclass(package.TransportError, ConnectionError)
    assert {"RpcError", "TransportError", "METHOD_NOT_FOUND"} <= set(package.__all__)


def test_protocol_error_codes_are_named() -> None:
    assert ahp_protocol.UNSUPPORTED_PROTOCOL_VERSION == -32005
    assert mcp_protocol.RESOURCE_NOT_FOUND == -32002
    # A code the protocol names as JSON-RPC does is not repeated under another name.
    assert not hasattr(ahp_protocol.errors, "INVALID_PARAMS_2")


def test_rpc_error_text_includes_data() -> None:
    error = jsonrpc.RpcError(-32602, "invalid params", {"errors": [{"path": "/x"}]})
    assert str(error) == '-32602: invalid params (data: {"errors": [{"path": "/x"}]})'
    assert str(jsonrpc.RpcError(-1, "plain")) == "-1: plain"
    circular: list[object] = []
    circular.append(circular)
    assert "data:" in str(jsonrpc.RpcError(-1, "c", circular))


@pytest.mark.parametrize("version", ["2.13.4", "2.0", "1.10.21", "3.0.0"])
def test_an_unfit_pydantic_is_named(version: str) -> None:
    with pytest.raises(ImportError, match=r"needs pydantic>=2\.14,<3, found pydantic"):
        requirement._check_pydantic(version)


@pytest.mark.parametrize("version", ["2.14.0", "2.14.0b1", "2.15.1", "2.99"])
def test_a_fit_pydantic_passes(version: str) -> None:
    requirement._check_pydantic(version)


def test_every_generated_pyproject_and_readme_states_the_floor() -> None:
    for python in sorted((REPO / "generated").glob("*/python")):
        assert '"pydantic>=2.14,<3"' in (python / "pyproject.toml").read_text("utf-8")
        assert 'readme = "README.md"' in (python / "pyproject.toml").read_text("utf-8")
        assert "pydantic >=2.14,<3" in (python / "README.md").read_text("utf-8")


def _refused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_connection_failures_are_the_package_s_own_errors() -> None:
    port = _refused_port()

    async def websocket() -> None:
        async with AhpClient.websocket(f"ws://127.0.0.1:{port}/"):
            raise AssertionError("connected to a closed port")

    async def awaited() -> None:
        await AhpClient.websocket(f"ws://127.0.0.1:{port}/")

    async def stdio() -> None:
        async with AhpClient.stdio(["/nonexistent/codegen-test-command"]):
            raise AssertionError("started a missing command")

    async def http() -> None:
        async with OpenctxClient.http(f"http://127.0.0.1:{port}/") as client:
            await client.meta(openctx_protocol.models.MetaParams())

    for attempt, package in (
        (websocket, ahp_protocol),
        (awaited, ahp_protocol),
        (stdio, ahp_protocol),
        (http, openctx_protocol),  # each package's own (its own copy of _rpc)
    ):
        with pytest.raises(package.TransportError) as caught:
            asyncio.run(attempt())
        assert caught.value.__cause__ is not None, attempt.__name__


def test_the_client_closes_on_leaving_async_with() -> None:
    closed: list[bool] = []

    class Fake:
        async def close(self) -> None:
            closed.append(True)

    async def connect() -> Fake:
        return Fake()

    async def use() -> None:
        async with jsonrpc.Connecting(connect) as client:
            assert isinstance(client, Fake)
        assert closed == [True]
        other = await jsonrpc.Connecting(connect)
        assert isinstance(other, Fake) and closed == [True]

    asyncio.run(use())
