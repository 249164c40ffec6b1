"""Go frontend: a pkg.go.dev listing page or plain ``.go`` files → IR.

Public entry: ``read_spec(sources, config, diags) -> FrontendResult``.  The modules behind
it: ``reader`` (type and const declarations), ``page`` (code blocks and prose of a listing),
``type_exprs`` (Go types and ``json:`` tags), ``consts`` (typed constants as enums) and
``methods`` (the ``Method*`` constant table).
"""

from codegen.frontends.go.reader import read_spec

__all__ = ["read_spec"]
