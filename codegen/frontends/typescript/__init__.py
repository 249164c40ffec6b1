"""TypeScript frontend: ``.ts`` sources (interfaces, aliases, enums, JSDoc method tags) → IR.

Public entry: ``read_spec(sources, config, diags) -> FrontendResult``.  The modules behind
it: ``reader`` (statements and declarations), ``type_exprs`` (type expressions),
``enums``, ``methods`` (the JSDoc method table), ``jsdoc``, ``jsonc_examples`` (``@example``
wire samples) and ``unflatten`` (restoring TypeScript flattened onto one line).
"""

from codegen.frontends.typescript.reader import read_spec

__all__ = ["read_spec"]
