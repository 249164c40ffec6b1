"""A typed call's two ends, the same on every transport: the params written as JSON, and
the answer read back (an error raised as ``RpcError``, the result through its validator).

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: a method's ``MethodInfo``, typed params, the answer message.
Outputs: ``params_json`` (None: the message carries no ``params``), ``typed_result``.
Guarantees: an ill-typed result is ``InvalidResult`` with each problem's JSON pointer,
never pydantic's own ``ValidationError``.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from .errors import InvalidResult, JsonObject, RpcError
from .pointers import validation_details
from .registry import MethodInfo


def params_json(info: MethodInfo, params: Any) -> Any | None:
    """The ``params`` value to send; None when the key is left out (optional params
    given as None: JSON-RPC has no ``"params": null``)."""
    if info.params is None or params is None:
        return None
    return info.params.serializer.to_python(params, mode="json", by_alias=True)


def typed_result(info: MethodInfo, method: str, answer: JsonObject) -> Any:
    """The answer's result, validated; its error raised as ``RpcError``."""
    if "error" in answer:
        raise RpcError.from_json(answer["error"])
    if info.result is None:
        return None
    result = answer.get("result")
    try:
        return info.result.validator.validate_python(result, by_name=False)
    except ValidationError as error:
        raise InvalidResult(method, validation_details(error, result), result) from None
