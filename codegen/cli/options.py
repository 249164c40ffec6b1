"""Options shared by the commands, and the typer classes that show them plainly.

Phase: entry point helper.
Inputs: none (declarations).
Outputs: ``Annotated`` option types (``--quiet``/``--verbose`` on every command,
``--config``, ``--strict``, ``--output``, ``--templates``, ``--formatter``) and the
``Command``/``Group`` classes every command and the app are built with.
Guarantees: choices are real choices (``Literal``: listed in ``--help``, checked by the
parser, exit 2 otherwise); flags show no value placeholder in ``--help`` (typer 0.29 shows
``<bool>`` for every flag, as if it took a value).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from typer.core import TyperCommand, TyperGroup

__all__ = [
    "Command",
    "ConfigOpt",
    "FormatterOpt",
    "Group",
    "OutputOpt",
    "QuietOpt",
    "SpecArgs",
    "StrictOpt",
    "TemplatesOpt",
    "VerboseOpt",
]


def _no_placeholder(ctx: Any) -> None:  # typer calls it with ctx=...
    return None


def _plain_help(params: list[Any]) -> list[Any]:
    """Flags and named arguments show no type placeholder (``<bool>``, ``<list[str]>``):
    typer offers no hook per parameter, so the placeholder is cleared on the instance.
    """
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        elif param.param_type_name == "argument" and param.metavar:
            param.display_type_rich = _no_placeholder
    return params


class Command(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_help(super().get_params(ctx))

    def get_short_help_str(self, limit: int = 45) -> str:
        """The summary in ``codegen -h``: the help's first sentence whole (click would
        cut it at the terminal width with "..."; the help formatter wraps it instead).
        """
        text = " ".join((self.short_help or self.help or "").split())
        first = text.split(". ", 1)[0].split("; ", 1)[0].rstrip(".")
        return first


class Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_help(super().get_params(ctx))


QuietOpt = Annotated[
    bool,
    typer.Option("--quiet", "-q", help="Print errors only (and a command's results)."),
]
VerboseOpt = Annotated[
    bool,
    typer.Option("--verbose", "-v", help="Also print notes and details."),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="A pyproject.toml with [tool.codegen] to use; default: the nearest one "
        "from the current directory up.",
        dir_okay=False,
    ),
]
StrictOpt = Annotated[
    bool,
    typer.Option("--strict", help="Treat warnings (e.g. external types) as errors."),
]
OutputOpt = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        help="The output folder: <DIR>/<id>/ per spec (overrides [tool.codegen] output).",
        file_okay=False,
    ),
]
TemplatesOpt = Annotated[
    Path | None,
    typer.Option(
        "--templates",
        help="A folder of templates replacing built-in ones of the same name "
        "(overrides [tool.codegen] templates).",
        file_okay=False,
    ),
]
FormatterOpt = Annotated[
    Literal["ruff", "none"] | None,
    typer.Option(
        "--formatter",
        help="Format the emitted Python with ruff, or leave it as the templates lay "
        "it out (default: [tool.codegen] formatter, else ruff).",
    ),
]
SpecArgs = Annotated[
    list[str] | None,
    typer.Argument(
        help="Spec ids, spec folders, or folders of specs; default: every spec of the "
        "project ([tool.codegen] specs).",
        metavar="SPEC",
        show_default=False,
    ),
]
