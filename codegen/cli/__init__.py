"""The ``codegen`` command line.

``commands`` holds the typer application and the glue of every command (option parsing, exit
codes, diagnostics on stderr); the commands that are more than glue keep their logic beside
it and are imported only when run, so ``codegen generate`` never loads them: ``serve``
(start a generated stub server), ``validate`` (check wire messages through the bindings)
and ``vendor`` (copy a generated package into another project, audit such a copy).
"""

from codegen.cli.commands import app, main

__all__ = ["app", "main"]
