"""Restore scraped spec seeds into clean source files.

Phase: one-time input restoration, run before any spec parsing.

Inputs: scraped seed text copied from source-viewer web pages:
  * TypeScript seeds: two lines of page junk, then the whole file on one line,
    each source line followed directly by its line number, with all leading
    whitespace removed.
  * Rust seeds: a few lines of page junk, then one line per source line, each
    preceded directly by its line number, indentation intact.

Outputs: clean source text (``specs/ahp/commands.ts``, ``specs/ahp/state.ts``,
``specs/acp/schema.rs`` when run as ``python -m codegen.tools.seed_restore``).

Guarantees: every restored line holds exactly the characters scraped for it;
only TypeScript indentation (tabs, plus the space before a JSDoc ``*``) is
re-created.  Input whose line numbers cannot be made consecutive from 1 raises
SeedFormatError naming the offending line.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

__all__ = [
    "SEED_JOBS",
    "SeedFormatError",
    "SeedJob",
    "ambiguous_line_numbers",
    "is_current",
    "main",
    "reindent_ts",
    "restore_rust_scraped",
    "restore_ts_scraped",
    "split_end_numbered",
    "write_atomically",
]

REPO_ROOT: Final = Path(__file__).resolve().parent.parent.parent
DEFAULT_SEEDS: Final = REPO_ROOT.parent / "shared" / "seeds"

_TS_JUNK: Final = (re.compile(r"Path: \S+"), re.compile(r"[\d,.]+[kKmM]? views?"))
_OPENERS: Final = frozenset("{([")
_CLOSERS: Final = frozenset("})]")
# Sentinel on the template stack: "inside the text part of a `...` literal".
_TEMPLATE_TEXT: Final = -1


class SeedFormatError(ValueError):
    """Seed text is not consistent with the scraped-page layout."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(message if line is None else f"line {line}: {message}")


# --------------------------------------------------------------------------
# TypeScript: numbers glued to the END of each line
# --------------------------------------------------------------------------


def restore_ts_scraped(text: str) -> str:
    """Return the TypeScript source encoded by a scraped seed."""
    return _join_ts(split_end_numbered(_ts_body(text)))


def _join_ts(lines: list[str]) -> str:
    # The viewer numbers the lines of text.split("\n"): a final newline shows
    # up as a last, empty numbered line, so joining restores it exactly.
    return "\n".join(reindent_ts(lines))


def _ts_body(text: str) -> str:
    """Drop the page-junk lines and return the single glued line."""
    lines = text.split("\n")
    for number, pattern in enumerate(_TS_JUNK, start=1):
        if not lines or not pattern.fullmatch(lines[0].strip()):
            raise SeedFormatError(
                f"expected page junk matching {pattern.pattern!r}", number
            )
        lines.pop(0)
    if lines and lines[-1] == "":
        lines.pop()  # the seed file's own final newline
    if len(lines) != 1 or not lines[0]:
        raise SeedFormatError(f"expected one glued source line, found {len(lines)}", 3)
    return lines[0]


@dataclass
class _Frame:
    """One step of the split search: line `number` starts at `start`."""

    start: int
    number: int
    cursor: int  # next position to look for str(number)
    found: int = -1  # where str(number) was taken, once chosen


def split_end_numbered(body: str) -> list[str]:
    """Split `text1` `1` `text2` `2` ... into lines, earliest split first.

    Numbers are consecutive from 1, so line k ends at some occurrence of str(k).
    Depth-first search tries occurrences left to right and backtracks when the
    rest cannot reach the end of `body` exactly; dead (start, k) states are
    memoised so the search stays linear-ish.  Iterative: files have thousands
    of lines, far beyond Python's recursion limit.
    """
    frames, dead, furthest = [_Frame(0, 1, 0)], set[tuple[int, int]](), 1
    while frames:
        top = frames[-1]
        if top.start == len(body) and top.number > 1:
            return _reject_swallowed([body[f.start : f.found] for f in frames[:-1]])
        found = _next_live_occurrence(body, top, dead)
        if found < 0:
            dead.add((top.start, top.number))
            frames.pop()
            continue
        top.found, top.cursor = found, found + 1
        end = found + len(str(top.number))
        frames.append(_Frame(end, top.number + 1, end))
        furthest = max(furthest, top.number + 1)
    raise SeedFormatError(
        "no consecutive line numbering reaches the end of the text", furthest
    )


def _reject_swallowed(lines: list[str]) -> list[str]:
    """Refuse a split in which one line holds the numbers of the next two.

    A dropped or mistyped number rarely makes the text unparseable: the search
    just lets one line run on to a later occurrence of its number, swallowing
    the lines in between, numbers and all.  Real lines almost never contain
    their two successors' numbers in order, so treat that as broken input.
    """
    for number, line in enumerate(lines, start=1):
        successor, second = str(number + 1), str(number + 2)
        after = line.find(successor)
        if after >= 0 and line.find(second, after + len(successor)) >= 0:
            raise SeedFormatError(
                f"text {line[:40]!r}... holds line numbers {successor} and {second}:"
                " a line number near here is missing or wrong",
                number,
            )
    return lines


def _next_live_occurrence(body: str, frame: _Frame, dead: set[tuple[int, int]]) -> int:
    """Next position of str(frame.number) at/after the cursor not known to fail."""
    token = str(frame.number)
    found = body.find(token, frame.cursor)
    while found >= 0 and (found + len(token), frame.number + 1) in dead:
        found = body.find(token, found + 1)
    return found


def ambiguous_line_numbers(body: str) -> list[int]:
    """Line numbers whose split point differs between valid parses.

    Valid splits are closed under pointwise min and max, so the earliest parse
    (pointwise min) and the latest parse (pointwise max, found by the same
    search run from the end) differ exactly on the ambiguous lines.
    """
    return _ambiguous(body, split_end_numbered(body))


def _ambiguous(body: str, earliest_lines: list[str]) -> list[int]:
    """``ambiguous_line_numbers`` given the earliest split, already made."""
    earliest = _ends(earliest_lines)
    latest = _latest_number_positions(body, len(earliest))
    return [k for k in range(1, len(earliest) + 1) if earliest[k - 1] != latest[k - 1]]


def _ends(lines: list[str]) -> list[int]:
    """Position of each line's number in the glued body."""
    positions, pos = [], 0
    for number, line in enumerate(lines, start=1):
        positions.append(pos + len(line))
        pos += len(line) + len(str(number))
    return positions


def _latest_number_positions(body: str, count: int) -> list[int]:
    """Number positions of the latest parse with `count` lines.

    Mirrored, the text reads number N, line N, ..., number 1, line 1, with
    only number N pinned (to the start).  Placing each later number at its
    leftmost occurrence is then always feasible if anything is, so a greedy
    scan of the reversed text is the whole search.
    """
    mirrored, positions, pos = body[::-1], [], 0
    for number in range(count, 0, -1):
        token = str(number)[::-1]
        found = mirrored.find(token, pos)
        if found < 0 or (number == count and found != 0):
            raise SeedFormatError("no consistent split from the end", number)
        positions.append(len(body) - found - len(token))
        pos = found + len(token)
    return positions[::-1]


# --------------------------------------------------------------------------
# TypeScript indentation
# --------------------------------------------------------------------------


@dataclass
class _Lexer:
    """Bracket depth tracked across lines, ignoring strings and comments."""

    depth: int = 0
    in_block_comment: bool = False
    # Template-literal nesting: _TEMPLATE_TEXT, or brace depth inside `${...}`.
    templates: list[int] = field(default_factory=list)

    def indent_for(self, line: str) -> str:
        """Leading whitespace for `line`, judged from the state before it."""
        if not line or (self.templates and self.templates[-1] == _TEMPLATE_TEXT):
            return ""  # blank, or inside template text where spaces are content
        if self.in_block_comment:
            return "\t" * self.depth + (" " if line.startswith("*") else "")
        if self.templates:
            return "\t" * self.depth  # inside `${...}`: keep the outer level
        closers = len(line) - len(line.lstrip("})]"))
        return "\t" * max(0, self.depth - closers)

    def feed(self, line: str) -> None:
        """Advance the state over one line of source."""
        i = 0
        while i < len(line):
            i = self._step(line, i)

    def _step(self, line: str, i: int) -> int:
        """Consume one token at line[i]; return the next index."""
        if self.in_block_comment:
            if line.startswith("*/", i):
                self.in_block_comment = False
                return i + 2
            return i + 1
        if self.templates and self.templates[-1] == _TEMPLATE_TEXT:
            return self._step_template_text(line, i)
        return self._step_code(line, i)

    def _step_template_text(self, line: str, i: int) -> int:
        if line[i] == "\\":
            return i + 2
        if line[i] == "`":
            self.templates.pop()
            return i + 1
        if line.startswith("${", i):
            self.templates.append(0)
            return i + 2
        return i + 1

    def _step_code(self, line: str, i: int) -> int:
        char = line[i]
        if line.startswith("//", i):
            return len(line)
        if line.startswith("/*", i):
            self.in_block_comment = True
            return i + 2
        if char in "'\"":
            return _skip_quoted(line, i)
        if char == "`":
            self.templates.append(_TEMPLATE_TEXT)
        elif self.templates:
            self._step_substitution(char)
        elif char in _OPENERS:
            self.depth += 1
        elif char in _CLOSERS:
            # Clamp: a stray closer must not push later lines left of column 0.
            self.depth = max(0, self.depth - 1)
        return i + 1

    def _step_substitution(self, char: str) -> None:
        """Braces inside `${...}` only matter for finding its closing brace."""
        if char == "{":
            self.templates[-1] += 1
        elif char == "}" and self.templates[-1] == 0:
            self.templates[-1] = _TEMPLATE_TEXT  # back to the template text
        elif char == "}":
            self.templates[-1] -= 1


def _skip_quoted(line: str, i: int) -> int:
    """Index just past the '...' or "..." string starting at line[i]."""
    quote, j = line[i], i + 1
    while j < len(line) and line[j] != quote:
        j += 2 if line[j] == "\\" else 1
    return j + 1


def reindent_ts(lines: list[str]) -> list[str]:
    """Re-create tab indentation from bracket nesting (see _Lexer)."""
    lexer, out = _Lexer(), []
    for line in lines:
        out.append(lexer.indent_for(line) + line)
        lexer.feed(line)
    return out


# --------------------------------------------------------------------------
# Rust: numbers glued to the START of each line
# --------------------------------------------------------------------------


def restore_rust_scraped(text: str) -> str:
    """Return the Rust source encoded by a scraped seed."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the seed file's own final newline
    start = _first_numbered_line(lines)
    body = [
        _strip_number(line, number)
        for number, line in enumerate(lines[start:], start=1)
    ]
    # The viewer shows no line for the final newline; source files end with one.
    return "\n".join(body) + "\n"


def _first_numbered_line(lines: list[str]) -> int:
    """Index of line "1...": page junk comes before it, numbered lines after."""
    for index, line in enumerate(lines):
        follows = index + 1 == len(lines) or lines[index + 1].startswith("2")
        if line.startswith("1") and follows:
            return index
    raise SeedFormatError("no line starting with line number 1 followed by line 2")


def _strip_number(line: str, number: int) -> str:
    """Remove exactly the expected number: "12345" on line 12 is text "345"."""
    token = str(number)
    if not line.startswith(token):
        raise SeedFormatError(
            f"expected to start with {token!r}, got {line[:20]!r}", number
        )
    return line[len(token) :]


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class SeedJob:
    """One seed file and where its restored source goes under --out."""

    seed: str
    target: str
    kind: Literal["ts", "rust"]

    def restore(self, text: str) -> tuple[str, list[int]]:
        """The restored source, and the lines whose split was a choice (only TS seeds
        can have any), from one split of the seed."""
        if self.kind == "rust":
            return restore_rust_scraped(text), []
        body = _ts_body(text)
        lines = split_end_numbered(body)
        return _join_ts(lines), _ambiguous(body, lines)


SEED_JOBS: Final = (
    SeedJob("ahp-commands.ts.scraped.txt", "ahp/commands.ts", "ts"),
    SeedJob("ahp-state.ts.scraped.txt", "ahp/state.ts", "ts"),
    SeedJob("acp-schema.rs.scraped.txt", "acp/schema.rs", "rust"),
)


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m codegen.tools.seed_restore", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--seeds",
        type=Path,
        default=DEFAULT_SEEDS,
        help="directory of *.scraped.txt seeds",
    )
    parser.add_argument(
        "--out", type=Path, default=REPO_ROOT / "specs", help="specs directory to write"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if files on disk differ; write nothing",
    )
    return parser.parse_args(argv)


def write_atomically(path: Path, content: str) -> None:
    """Temp file in the same directory + os.replace: readers never see halves."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(content)
        # mkstemp makes the file 0600; specs are ordinary repo files.
        os.chmod(temp, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise


def is_current(path: Path, content: str) -> bool:
    return path.is_file() and path.read_bytes() == content.encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    """Restore every seed; with --check, report stale files instead."""
    args = _parse_args(argv)
    stale = 0
    for job in SEED_JOBS:
        seed_path: Path = args.seeds / job.seed
        try:
            content, ambiguities = job.restore(seed_path.read_text(encoding="utf-8"))
        except (OSError, SeedFormatError) as error:
            print(f"{seed_path}: {error}", file=sys.stderr)
            return 2
        for number in ambiguities:
            # Worth a human glance: the earliest split was taken, by design.
            print(
                f"{seed_path}: line {number}: ambiguous split, took the earliest",
                file=sys.stderr,
            )
        target: Path = args.out / job.target
        if args.check:
            if not is_current(target, content):
                print(f"{target}: differs from restored {job.seed}", file=sys.stderr)
                stale += 1
            continue
        write_atomically(target, content)
        print(f"{target}: {content.count(chr(10))} lines")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
