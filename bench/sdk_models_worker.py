"""One side of ``bench_sdk_models.py``: messages read, validated and written by one set of models.

Phase: measurement (``make bench``), never a timed test.
Inputs: argv ``SIDE`` — ``ours:<package>`` (the generated ``<package>.models``, found on
``PYTHONPATH``), ``straight:<package>`` (the same models, each class's validator and
serializer called without the methods around them: what ours would cost with entry points
that cost nothing), ``mcp-sdk`` (the official MCP SDK's ``mcp.types``), ``acp-sdk`` (the
official ACP SDK's ``acp.schema``), ``shells:<package>`` (models of the same wire keys
that check nothing, ``_shells``) or ``floor`` (no models: pydantic-core's JSON parser and
writer alone), all run by the interop venv, which has no codegen: so this file
imports nothing of the project.  Commands on stdin, one JSON object a line: ``names``
(the model classes the module defines), ``mark`` (calls ``getppid``: the marker
``bench_sdk_instructions.py`` has callgrind dump its counts before), ``load``
(``items``: ``[type, JSON text]`` pairs; answers which of them this side reads and
writes without error), ``keep`` (``indices``: the items both sides accept; answers the
share written back exactly), ``pass`` (one timed pass over the kept items, in the order
``seed`` shuffles them to, or as kept without one; answers its seconds), ``times`` (each
kept item's own seconds, for ``--profile``), ``version`` (pydantic's and
pydantic-core's), ``quit``.
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
import os
import random
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


def _straight(package: str) -> tuple[Any, Work]:
    module = importlib.import_module(f"{package}.models")
    readers: dict[type[BaseModel], Any] = {}
    writers: dict[type[BaseModel], Any] = {}

    def work(model: type[BaseModel], data: bytes) -> Any:
        read = readers.get(model)
        if read is None:
            read = readers[model] = model.__pydantic_validator__.validate_json
            writers[model] = model.__pydantic_serializer__.to_json
        return writers[model](read(data)).decode()

    return module, work


def _wire_key(name: str, info: Any) -> str:
    alias = info.validation_alias
    return alias if isinstance(alias, str) else name


def _shells(package: str) -> tuple[Any, Work]:
    """Per model of ours, a pydantic model of the same wire keys that checks nothing:
    each field ``Any`` (a nested object stays a dict, a union is not chosen), unknown
    keys kept, absent ones left out, read and written by pydantic-core straight.  What
    a binding built on pydantic model classes costs at the least: building the object
    and writing it back, with none of the checks a spec asks for."""
    from types import SimpleNamespace

    from pydantic import MISSING, ConfigDict, Field, create_model

    module = importlib.import_module(f"{package}.models")
    config = ConfigDict(extra="allow", validate_by_alias=True, serialize_by_alias=True)
    shells = {}
    for name, value in vars(module).items():
        if not (inspect.isclass(value) and issubclass(value, BaseModel)):
            continue
        fields = {
            f"f{i}": (Any, Field(default=MISSING, alias=_wire_key(key, info)))
            for i, (key, info) in enumerate(value.model_fields.items())
        }
        shells[name] = create_model(name, __config__=config, **fields)

    def work(model: type[BaseModel], data: bytes) -> Any:
        value = model.__pydantic_validator__.validate_json(data)
        return model.__pydantic_serializer__.to_json(value).decode()

    return SimpleNamespace(**shells), work


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


def _floor() -> tuple[Any, Work]:
    """No models: pydantic-core parses the JSON into Python values and writes them back.
    The least any binding built on pydantic does with a message (it parses and writes,
    then builds and checks objects besides), so floor / SDK bounds ours / SDK."""
    from pydantic_core import from_json, to_json

    def work(model: type[BaseModel], data: bytes) -> Any:
        return to_json(from_json(data))

    return None, work


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
    elif side.startswith("straight:"):
        module, work = _straight(side.split(":", 1)[1])
    elif side == "mcp-sdk":
        module, work = _mcp_sdk()
    elif side == "acp-sdk":
        module, work = _acp_sdk()
    elif side == "floor":
        module, work = _floor()
    elif side.startswith("shells:"):
        module, work = _shells(side.split(":", 1)[1])
    else:
        raise SystemExit(f"unknown side {side!r}")
    items: list[tuple[type[BaseModel], bytes]] = []
    answer: Any
    for line in sys.stdin:
        command = json.loads(line)
        op = command["op"]
        if op == "names" and module is None:
            answer = None  # any name
        elif op == "names":
            answer = sorted(
                name
                for name, value in vars(module).items()
                if inspect.isclass(value) and issubclass(value, BaseModel)
            )
        elif op == "load":
            items = [
                (getattr(module, n) if module else BaseModel, t.encode())
                for n, t in command["items"]
            ]
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
            order = items
            if command.get("seed") is not None:
                # A mixed stream, as a connection sees one: the same order on both
                # sides (same seed), another each round.
                order = list(items)
                random.Random(command["seed"]).shuffle(order)
            start = time.thread_time()
            for model, data in order:
                work(model, data)
            answer = time.thread_time() - start
        elif op == "mark":
            os.getppid()
            answer = None
        elif op == "version":
            import pydantic
            import pydantic_core

            answer = [pydantic.VERSION, pydantic_core.__version__]
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
