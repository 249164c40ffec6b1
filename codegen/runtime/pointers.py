"""Where in a message a validation problem is: pydantic error locations as JSON pointers.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: a pydantic ``ValidationError`` and the value it was raised on.
Outputs: ``json_pointer`` (RFC 6901) and ``validation_details``, the ``data`` of an
invalid-params error: each problem with its pointer, message and type.
Guarantees: pointers name only what is in the input (union member names pydantic adds to
locations are skipped); at most ``MAX_REPORTED_ERRORS`` problems, with the total count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from pydantic import ValidationError

from .errors import JsonObject

MAX_REPORTED_ERRORS: Final = 20


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def json_pointer(loc: Sequence[int | str], value: Any, *, missing: bool) -> str:
    """The JSON pointer (RFC 6901) into ``value`` of a pydantic error location.

    Locations name wire keys (aliases) and list indexes, but also union members
    (``RootState``, ``int``); those are not in the input and are skipped.  A missing
    key is kept at the end, where it should have been.
    """
    tokens: list[str] = []
    current = value
    last = len(loc) - 1
    for position, item in enumerate(loc):
        if isinstance(current, dict) and isinstance(item, str) and item in current:
            tokens.append(_escape(item))
            current = current[item]
        elif (
            isinstance(current, list)
            and isinstance(item, int)
            and 0 <= item < len(current)
        ):
            tokens.append(str(item))
            current = current[item]
        elif missing and position == last and isinstance(current, dict):
            tokens.append(_escape(str(item)))
    return "".join(f"/{token}" for token in tokens)


def validation_details(error: ValidationError, value: Any) -> JsonObject:
    """The ``data`` of an invalid-params error: each problem with its JSON pointer."""
    problems: list[JsonObject] = []
    seen: set[tuple[str, str]] = set()
    for item in error.errors(include_url=False, include_input=False):
        path = json_pointer(item["loc"], value, missing=item["type"] == "missing")
        key = (path, item["type"])
        if key in seen:
            continue
        seen.add(key)
        problems.append({"path": path, "message": item["msg"], "type": item["type"]})
    return {
        "errors": problems[:MAX_REPORTED_ERRORS],
        "count": error.error_count(),
    }
