"""What the command line prints on stderr: messages, diagnostics, progress; and exit codes.

Phase: entry point helper (every command prints through one ``Output``).
Inputs: the verbosity a command was given (``--quiet``: errors only; default: warnings
and errors in full, a count of notes, summaries; ``--verbose``: notes too, and details).
Outputs: text on stderr, coloured by rich when stderr is a terminal, plain when it is
piped or redirected, or when ``NO_COLOR`` is set (rich reads it; ``FORCE_COLOR`` forces
colour).  Diagnostics keep their plain layout (``path:line:col: severity[CODE]: message``,
the source line, a caret); colour only marks severity, code, path and caret.
Guarantees: nothing user-supplied is read as rich markup; paths and diagnostics are never
wrapped at the terminal width; stdout is left to the commands' results (diffs, IR dumps,
validation findings, reports).
"""

from __future__ import annotations

import enum
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

import typer
from rich.console import Console
from rich.text import Text

__all__ = ["EXIT_FINDINGS", "EXIT_OK", "EXIT_USAGE", "Output", "Verbosity"]

# The documented exit codes of every command.
EXIT_OK = 0  # done; nothing found
EXIT_FINDINGS = 1  # spec errors, stale output, invalid messages, breaking changes, ...
EXIT_USAGE = 2  # the command line cannot be followed: bad option, unknown spec, ...

_STYLES = {"error": "bold red", "warning": "bold yellow", "note": "bold cyan"}
_HEADLINE = re.compile(
    r"(?m)^(?P<path>\S[^\n]*?:\d+:\d+): (?P<severity>error|warning|note)"
    r"(?P<code>\[\w+\])"
)
# The source echo under a headline: `   |`, `12 | text`, `   |    ^`.
_GUTTER = re.compile(r"(?m)^(?P<gutter> *\d* \|)(?: *(?P<caret>\^)$)?")


class Verbosity(enum.IntEnum):
    QUIET = 0
    NORMAL = 1
    VERBOSE = 2


class Output:
    """The stderr of one command run."""

    def __init__(self, quiet: bool = False, verbose: bool = False) -> None:
        if quiet and verbose:
            raise typer.BadParameter("--quiet and --verbose exclude each other")
        self.verbosity = (
            Verbosity.QUIET
            if quiet
            else Verbosity.VERBOSE if verbose else Verbosity.NORMAL
        )
        # soft_wrap: diagnostics and paths must not be broken at the terminal width.
        # NO_COLOR (no-color.org): plain text, no bold either; rich alone drops only colour.
        plain = bool(os.environ.get("NO_COLOR"))
        self.console = (
            Console(stderr=True, highlight=False, soft_wrap=True, color_system=None)
            if plain
            else Console(stderr=True, highlight=False, soft_wrap=True)
        )

    @property
    def quiet(self) -> bool:
        return self.verbosity is Verbosity.QUIET

    @property
    def verbose(self) -> bool:
        return self.verbosity is Verbosity.VERBOSE

    def error(self, message: str) -> None:
        """Always shown: ``error: message``."""
        text = Text("error", style=_STYLES["error"])
        text.append(f": {message}")
        self.console.print(text)

    def problem(self, exc: Exception) -> None:
        """An error from the project's settings: as diagnostics (at its place in the
        file, with the line and a caret) when it has them, else ``error: message``."""
        rendered = getattr(exc, "rendered", None)
        if isinstance(rendered, str) and rendered:
            self.diagnostics(rendered)
        else:
            self.error(str(exc))

    def warning(self, message: str) -> None:
        if not self.quiet:
            text = Text("warning", style=_STYLES["warning"])
            text.append(f": {message}")
            self.console.print(text)

    def info(self, message: str) -> None:
        """Summaries and hints; not with ``--quiet``."""
        if not self.quiet:
            self.console.print(Text(message))

    def detail(self, message: str) -> None:
        """Only with ``--verbose``."""
        if self.verbose:
            self.console.print(Text(message, style="dim"))

    def diagnostics(self, rendered: str) -> None:
        """Rendered diagnostics (plain text), with severities and carets coloured."""
        if not rendered:
            return
        text = Text(rendered)
        for match in _HEADLINE.finditer(rendered):
            text.stylize("bold", match.start("path"), match.end("path"))
            severity = match.group("severity")
            text.stylize(_STYLES[severity], match.start("severity"), match.end("code"))
        for match in _GUTTER.finditer(rendered):
            text.stylize("blue", match.start("gutter"), match.end("gutter"))
            if match.group("caret"):
                text.stylize("bold green", match.start("caret"), match.end("caret"))
        self.console.print(text)

    def exit(self, code: int, message: str | None = None) -> typer.Exit:
        """Print ``message`` as an error and return the Exit to raise."""
        if message is not None:
            self.error(message)
        return typer.Exit(code)

    @contextmanager
    def status(self, message: str) -> Iterator[None]:
        """A spinner on a terminal (never in quiet mode, never when piped)."""
        show = not self.quiet and self.console.is_terminal
        with self.console.status(message) if show else nullcontext():
            yield
