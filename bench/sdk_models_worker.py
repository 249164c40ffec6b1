"""One side of ``bench_sdk_models.py``: messages read, validated and written by one set of models.

Phase: measurement (``make bench``), never a timed test.
Inputs: argv ``SIDE`` — ``ours:<package>`` (the generated ``<package>.models``, run by this
checkout's venv), ``mcp-sdk`` (the official MCP SDK's ``mcp.types``) or ``acp-sdk`` (the
official ACP SDK's ``acp.schema``), both run by the interop venv, which has no codegen: so
this file imports nothing of the project.  Commands on stdin, one JSON object a line:
``names`` (the model classes the module defines), ``load`` (``items``: ``[type, JSON text]``
pairs; answers which of them this side reads and writes without error), ``keep``
(``indices``: the items both sides accept; answers the share written back exactly),
``pass`` (one timed pass over the kept items; answers its seconds), ``times`` (each kept
item's own seconds, for ``--profile``), ``quit``.
Outputs: one JSON object a line on stdout per command.
Guarantees: each side does what its own documentation and transport do with a message:
ours ``Model.model_validate_json(data)`` and ``model.model_dump_json()`` (the models write
wire names by themselves); the MCP SDK the same calls with ``by_alias=True,
exclude_none=True``, as its stdio transport (``mcp/server/stdio.py``) does; the ACP SDK
``json.loads`` then ``Model.model_validate``, and ``model_dump(mode="json", by_alias=True,
exclude_none=True, exclude_unset=True)`` then ``json.dumps``, as its connection
(``acp/connection.py``, ``acp/_transport.py``) does.
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

Work = Callable[[type[BaseModel], bytes], Any]


def _ours(package: str) -> tuple[Any, Work]:
    module = importlib.import_module(f"{package}.models")

    def work(model: type[BaseModel], data: bytes) -> Any:
        return model.model_validate_json(data).model_dump_json()

    return module, work


def _mcp_sdk() -> tuple[Any, Work]:
    module = importlib.import_module("mcp.types")

    def work(model: type[BaseModel], data: bytes) -> Any:
        value = model.model_validate_json(data)
        return value.model_dump_json(by_alias=True, exclude_none=True)

    return module, work


def _acp_sdk() -> tuple[Any, Work]:
    module = importlib.import_module("acp.schema")
    dumps = json.dumps
    loads = json.loads

    def work(model: type[BaseModel], data: bytes) -> Any:
        value = model.model_validate(loads(data))
        written = value.model_dump(
            mode="json", by_alias=True, exclude_none=True, exclude_unset=True
        )
        return dumps(written, separators=(",", ":"))

    return module, work


def _strict_equal(left: Any, right: Any) -> bool:
    """JSON equality that tells ``1`` from ``1.0`` and ``true`` from ``1``."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(
            _strict_equal(left[k], right[k]) for k in left
        )
    if isinstance(left, list):
        return len(left) == len(right) and all(map(_strict_equal, left, right))
    return bool(left == right)


def main() -> int:
    side = sys.argv[1]
    if side.startswith("ours:"):
        module, work = _ours(side.split(":", 1)[1])
    elif side == "mcp-sdk":
        module, work = _mcp_sdk()
    elif side == "acp-sdk":
        module, work = _acp_sdk()
    else:
        raise SystemExit(f"unknown side {side!r}")
    items: list[tuple[type[BaseModel], bytes]] = []
    for line in sys.stdin:
        command = json.loads(line)
        op = command["op"]
        if op == "names":
            answer: Any = sorted(
                name
                for name, value in vars(module).items()
                if inspect.isclass(value) and issubclass(value, BaseModel)
            )
        elif op == "load":
            items = [(getattr(module, n), t.encode()) for n, t in command["items"]]
            answer = []
            for model, data in items:
                try:
                    work(model, data)
                except ValueError:  # pydantic's errors: a message this side rejects
                    answer.append(False)
                else:
                    answer.append(True)
        elif op == "keep":
            items = [items[i] for i in command["indices"]]
            exact = sum(
                _strict_equal(json.loads(work(m, d)), json.loads(d)) for m, d in items
            )
            answer = exact / max(1, len(items))
        elif op == "pass":  # CPU time: a pass the scheduler interrupts is not longer
            start = time.thread_time()
            for model, data in items:
                work(model, data)
            answer = time.thread_time() - start
        elif op == "times":  # per message: the best of 3 timings of ``rounds`` runs
            rounds = int(command["rounds"])
            answer = []
            for model, data in items:
                best = float("inf")
                for _ in range(3):
                    start = time.thread_time()
                    for _ in range(rounds):
                        work(model, data)
                    best = min(best, time.thread_time() - start)
                answer.append(best / rounds)
        elif op == "quit":
            return 0
        else:
            raise SystemExit(f"unknown command {op!r}")
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
