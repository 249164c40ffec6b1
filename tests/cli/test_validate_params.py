"""``codegen validate`` reads a message's params as the server does: one function of the
runtime (``read_params``) for both.  Checked on every method of every built-in spec,
without params and with params, against the generated package's own ``Dispatcher``: the
validator accepts exactly what the server accepts."""

from __future__ import annotations

import asyncio
import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

from codegen.cli.validate import Record, Validator
from codegen.project import load_project

REPO = Path(__file__).resolve().parent.parent.parent
SPECS = sorted(
    p.name for p in (REPO / "specs").iterdir() if (p / "spec.toml").is_file()
)


class _Called(Exception):
    """The handler was reached: the params were accepted."""


def _server_accepts(package: str, method: str, message: dict[str, Any]) -> bool:
    rpc = importlib.import_module(f"{package}._rpc")
    methods = importlib.import_module(f"{package}.methods").METHODS

    async def handler(_params: Any) -> Any:
        raise _Called

    dispatcher = rpc.Dispatcher(
        {method: handler}, rpc.MessageLog("test", quiet=True), methods
    )
    try:
        asyncio.run(dispatcher.call(method, "params" in message, message.get("params")))
    except rpc.RpcError as error:
        return bool(error.code != rpc.INVALID_PARAMS)
    return True


def _message(
    validator: Validator, method: str, info: Any, params: Any
) -> dict[str, Any]:
    message: dict[str, Any] = {"method": method}
    if validator.jsonrpc:
        message["jsonrpc"] = "2.0"
        if info.kind == "request":
            message["id"] = 1
    if params is not _ABSENT:
        message["params"] = params
    return message


_ABSENT = object()


@pytest.mark.parametrize("spec", SPECS)
def test_validate_and_the_server_agree_on_every_method(spec: str) -> None:
    project = load_project(REPO)
    validator = Validator(project, REPO / "specs" / spec)
    package = validator.package.__name__
    sys.path.insert(0, str(REPO / "generated" / spec / "python"))
    try:
        verdicts = {True: 0, False: 0}
        for method, info in validator.package.METHODS.items():
            for params in (_ABSENT, {}, {"certainly-not-a-field": [1]}, 7):
                message = _message(validator, method, info, params)
                findings, count = validator.validate([Record(1, message)])
                accepted = not findings
                assert count == 1
                assert accepted == _server_accepts(package, method, message), (
                    method,
                    params,
                    findings,
                )
                verdicts[accepted] += 1
        # both verdicts occur: the comparison is not vacuous
        assert verdicts[True] and verdicts[False], verdicts
    finally:
        sys.path.remove(str(REPO / "generated" / spec / "python"))


def test_an_mcp_ping_without_params_is_valid(tmp_path: Path) -> None:
    validator = Validator(load_project(REPO), REPO / "specs" / "mcp")
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert validator.validate([Record(1, ping)]) == ([], 1)
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call"}
    findings, _count = validator.validate([Record(1, call)])
    assert [f.pointer for f in findings] == ["/params/name"]
    assert findings[0].error.startswith("params are required")
