"""Python bindings backend: a normalized ``ir.Protocol`` → the pydantic package.

Public entry: ``render(protocol, package) -> {path: text}`` (``bindings``).  The modules
behind it: ``annotations`` (IR type expressions as Python annotations), ``decls`` (models and
enums), ``unions`` (tagged and untagged unions), ``names`` (Python names of declarations and
fields), ``methods`` (the ``METHODS`` registry and request helpers), ``views`` (what the
templates read), ``imports`` and ``text`` (import blocks, docstrings), ``package``
(``_provenance.py``, ``pyproject.toml``, ``README.md`` of a generated package).
"""

from codegen.backends.python.bindings import render

__all__ = ["render"]
