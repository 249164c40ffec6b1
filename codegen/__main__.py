"""``python -m codegen``: the same command line as the ``codegen`` script."""

from codegen.cli import main

main()
