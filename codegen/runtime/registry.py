"""A protocol's methods as the runtime sees them: wire name, direction, payload adapters.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: the package's ``methods.METHODS`` (generated), or a registry passed in.
Outputs: ``MethodInfo``, the ``Methods`` mapping type, the ``Handler`` type (validated
params in, a typed result out) and ``package_methods`` (the registry of the package this
copy lives in).
Guarantees: ``package_methods`` imports ``methods`` on first use only (``methods``
imports ``MethodInfo`` from here), and says what to pass when there is none.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Literal

from pydantic import TypeAdapter

Handler = Callable[[Any], Awaitable[Any]]
"""An inbound method: validated params in, a typed result (or None) out."""


@dataclass(frozen=True)
class MethodInfo:
    """One method of the protocol: who sends it and how to validate its payloads.

    ``params`` is None when the message carries no ``params`` key (an adapter that
    accepts None: the key is optional, and a None value is sent without it);
    ``result`` is None for a notification (a request without a declared result
    validates ``null``).
    """

    wire_name: str
    kind: Literal["request", "notification"]
    sender: str
    receiver: str
    both_ways: bool
    params: TypeAdapter[Any] | None
    result: TypeAdapter[Any] | None


Methods = Mapping[str, MethodInfo]
"""A method registry: wire name → ``MethodInfo`` (the package's ``methods.METHODS``)."""


def package_methods() -> Methods:
    """The registry of the generated package this copy lives in (``.methods.METHODS``).

    What a caller gets when it passes no registry; the generated modules always pass
    theirs.  Imported on first use, since ``methods`` imports ``MethodInfo`` from here.
    """
    package = (__package__ or "").rpartition(".")[0]  # ``<pkg>`` of ``<pkg>._rpc``
    if not package:
        raise LookupError("no method registry: pass methods=")
    try:
        registry: Methods = import_module(".methods", package).METHODS
    except (ImportError, AttributeError):
        raise LookupError(f"{package} has no methods.METHODS: pass methods=") from None
    return registry
