"""The ``METHODS`` registry view of the Python bindings (also the stub server's calls).

Phase: backend (Python bindings and stub server), after ``annotations`` (annotations).
Inputs: a ``TypeAnnotator`` of a normalized ``ir.Protocol``.
Outputs: one ``MethodView`` per method, in spec order: wire name, kind, direction,
the helper function name, params / result annotations and their ``TypeAdapter``
names, and a docstring block.
Guarantees: function names are unique snake_case identifiers; a request without a
result type is answered with ``None``; a notification has no result.
"""

from __future__ import annotations

import json

from codegen import ir, naming
from codegen.backends.python.annotations import TypeAnnotator
from codegen.backends.python.text import docstring, lifecycle_text
from codegen.backends.python.views import MethodView

__all__ = ["method_doc", "method_views"]


def method_doc(method: ir.Method) -> str:
    """The documentation of a method (docstring text, not yet indented)."""
    optional = " Its params may be left out (None)." if method.params_optional else ""
    return lifecycle_text(
        method.lifecycle.docs,
        method.lifecycle,
        f"`{method.wire_name}` ({method.kind.value}, {method.direction.arrow()})."
        + optional,
    )


def method_views(types: TypeAnnotator) -> list[MethodView]:
    """The view of every method of ``types.protocol``, in spec order."""
    functions = naming.assign_names(
        [m.wire_name for m in types.protocol.methods], naming.snake_case
    )
    jsonrpc = types.protocol.transport.kind == "jsonrpc-2.0"
    views: list[MethodView] = []
    for method in types.protocol.methods:
        function = functions[method.wire_name]
        request = method.kind is ir.MethodKind.REQUEST
        # Each as the signatures spell it, and as the adapters do (writer markers).
        params: str | None = None
        params_type: str | None = None
        if method.params is not None:
            params, params_type = _annotations(types, method.params)
            if method.params_optional:  # None: the message has no params key
                params, params_type = f"{params} | None", f"{params_type} | None"
        result: str | None = None
        result_type: str | None = None
        if request:
            result = result_type = "None"
            if method.result is not None:
                result, result_type = _annotations(types, method.result)
        constant = function.upper().strip("_")
        views.append(
            MethodView(
                wire=json.dumps(method.wire_name),
                name=method.wire_name,
                kind=json.dumps(method.kind.value),
                is_request=request,
                sender=json.dumps(method.direction.sender),
                receiver=json.dumps(method.direction.receiver),
                both_ways="True" if method.direction.both_ways else "False",
                function=function,
                params=params,
                result=result,
                params_adapter=f"_{constant}_PARAMS" if params else None,
                result_adapter=f"_{constant}_RESULT" if result else None,
                params_config=method.params is not None
                and types.index.struct_of(method.params) is None,
                result_config=method.result is None
                or types.index.struct_of(method.result) is None,
                doc=docstring(method_doc(method), "    "),
                jsonrpc=jsonrpc,
                params_optional=params is not None and method.params_optional,
                params_type=params_type,
                result_type=result_type,
            )
        )
    return views


def _annotations(types: TypeAnnotator, expr: ir.TypeExpr) -> tuple[str, str]:
    """``expr`` as signatures spell it (no writer markers) and as adapters do."""
    return types.annotation(expr, markers=False), types.annotation(expr)
