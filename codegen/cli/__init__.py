"""The ``codegen`` command line.

``commands`` holds the typer application and the glue of every command (options, exit
codes); ``options`` the options they share, ``output`` what they print on stderr (colour,
verbosity, exit codes).  The commands that are more than glue keep their logic beside
it and are imported only when run, so ``codegen generate`` never loads the others:
``generate`` (generate, check, watch), ``scaffold`` (``codegen init``), ``serve`` (start
a generated stub server), ``validate`` (check wire messages through the bindings) and
``vendor`` (copy a generated package into another project, audit such a copy).  The
project's settings (``[tool.codegen]``) are read by ``codegen.project``.
"""

from codegen.cli.commands import app, main

__all__ = ["app", "main"]
