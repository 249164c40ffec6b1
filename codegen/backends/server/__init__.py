"""Stub server and typed client backend: a normalized ``ir.Protocol`` → ``server.py``,
``client.py``, ``stub_data.py`` and the verbatim copy of the JSON-RPC runtime.

Public entry: ``render(protocol, package) -> {path: text}`` (``modules``); canned stub
results come from ``stub_values``.
"""

from codegen.backends.server.modules import render

__all__ = ["render"]
