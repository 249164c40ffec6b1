"""TypeScript frontend: ``.ts`` sources (interfaces, aliases, enums, method tables) → IR.

Public entry: ``read_spec(sources, config, diags) -> FrontendResult``.  The modules behind
it: ``reader`` (driving, reachability), ``symbols`` (declarations by name), ``evaluator``
(type syntax → evaluated types), ``typeops`` (``&``, ``keyof``, ``T[K]``, ``extends``,
utility types), ``materialize`` (evaluated types → IR, naming what is anonymous),
``tstypes`` (the evaluated types), ``state`` (groups and problems), ``strings`` (literals),
``enums``, ``methods`` (JSDoc method tags, merging method facts), ``method_sources``
(message interfaces and registries), ``jsdoc``, ``jsonc_examples`` (``@example`` wire
samples) and ``unflatten`` (restoring TypeScript flattened onto one line).
"""

from codegen.frontends.typescript.reader import read_spec

__all__ = ["read_spec"]
