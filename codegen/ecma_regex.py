"""ECMA-262 regular expressions (JSON Schema's ``pattern`` dialect, and what JSDoc
``@pattern``, schemars and JSON Schema authors write) spelled for the engines the generated
Python runs them on.

Phase: shared by the pattern check pass and the Python backend.
Inputs: a pattern as the spec states it (ECMA-262 syntax, no flags: JSON Schema has none).
Outputs: ``spell(pattern, RUST)``: the same language for pydantic-core's Rust ``regex``
engine (fast, no look-around or back-references); ``spell(pattern, PYTHON)``: for Python's
``re`` (look-around and back-references too); ``Unspellable`` with the reason when a dialect
cannot say it.
Guarantees: what the spelled pattern matches is what ECMA-262 matches, where the engines
differ: ``\\d``, ``\\w`` and ``\\b`` are ASCII in ECMA-262 and Unicode in both engines (so
``\\d`` accepted ``"٣"``); ``\\s`` is ECMA's own list of spaces; ``.`` leaves out all four
line terminators; ``$`` is the end of the text (Python's also matched before a final
newline); ``\\cX``, ``[^]``, ``{`` that is no quantifier, ``(?<name>``/``\\k<name>`` are
ECMA's meanings.  Never raises anything but ``Unspellable``.
"""

from __future__ import annotations

import enum
import functools
import re

__all__ = ["PYTHON", "RUST", "Dialect", "Unspellable", "for_pydantic", "spell"]


class Dialect(enum.Enum):
    RUST = "rust"  # pydantic-core's default engine (the Rust regex crate)
    PYTHON = "python"  # Python's re, through a compiled pattern


RUST = Dialect.RUST
PYTHON = Dialect.PYTHON


class Unspellable(ValueError):
    """The dialect has no way to say this pattern (the message says why)."""


_DIGIT = "0-9"
_WORD = "A-Za-z0-9_"
# ECMA-262's WhiteSpace and LineTerminator code points (what its \s matches).
_SPACE = (
    "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f"
    "\\u3000\\ufeff"
)
_CLASSES = {"d": _DIGIT, "w": _WORD, "s": _SPACE}
_QUANTIFIER = re.compile(r"\{\d+(?:,\d*)?\}")
_GROUP_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# Characters that stand for themselves in ECMA-262 but are syntax in a class of the Rust
# engine (nested classes, set operations) or anywhere in either engine.
_CLASS_SPECIAL = set("[&~-^\\]")


def spell(pattern: str, dialect: Dialect) -> str:
    """``pattern`` (ECMA-262) in ``dialect``; ``Unspellable`` when it has no way."""
    return _Speller(pattern, dialect).run()


class _Speller:
    def __init__(self, pattern: str, dialect: Dialect) -> None:
        self.src = pattern
        self.dialect = dialect
        self.at = 0
        self.out: list[str] = []

    def run(self) -> str:
        src = self.src
        while self.at < len(src):
            char = src[self.at]
            if char == "\\":
                self._escape(in_class=False)
            elif char == "[":
                self._class()
            elif char == ".":
                self.out.append("[^\\n\\r\\u2028\\u2029]")
                self.at += 1
            elif char == "$":
                self.out.append("\\z" if self.dialect is RUST else "\\Z")
                self.at += 1
            elif char == "(":
                self._group()
            elif char == "{":
                quantifier = _QUANTIFIER.match(src, self.at)
                text = quantifier.group() if quantifier else "\\{"
                self.out.append(text)
                self.at += len(quantifier.group()) if quantifier else 1
            elif char == "}":
                self.out.append("\\}")
                self.at += 1
            else:
                self.out.append(char)
                self.at += 1
        return "".join(self.out)

    # ---------------------------------------------------------------- groups

    def _group(self) -> None:
        src = self.src
        rest = src[self.at : self.at + 4]
        if rest.startswith(("(?=", "(?!", "(?<=", "(?<!")):
            if self.dialect is RUST:
                raise Unspellable("look-around")
            kind = 4 if rest.startswith(("(?<=", "(?<!")) else 3
            self.out.append(src[self.at : self.at + kind])
            self.at += kind
            return
        if rest.startswith("(?<"):
            name = _GROUP_NAME.match(src, self.at + 3)
            if name is None or src[name.end() : name.end() + 1] != ">":
                raise Unspellable("a group name that is not an identifier")
            self.out.append(f"(?P<{_group_name(name.group())}>")
            self.at = name.end() + 1
            return
        if rest.startswith("(?:") or not rest.startswith("(?"):
            width = 3 if rest.startswith("(?:") else 1
            self.out.append(src[self.at : self.at + width])
            self.at += width
            return
        raise Unspellable(f"'{rest[:3]}' is not ECMA-262 syntax")

    # ---------------------------------------------------------------- escapes

    def _escape(self, in_class: bool) -> None:
        src = self.src
        if self.at + 1 >= len(src):
            raise Unspellable("a pattern ending in a lone backslash")
        char = src[self.at + 1]
        self.at += 2
        lower = char.lower()
        if lower in _CLASSES:
            self.out.append(self._shorthand(_CLASSES[lower], char.isupper(), in_class))
        elif char in "bB" and not in_class:
            if self.dialect is RUST:
                self.out.append(f"(?-u:\\{char})")
            else:
                self.out.append(f"(?a:\\{char})")
        elif char == "b":  # in a class: backspace
            self.out.append("\\x08")
        elif char == "c" and self.at < len(src) and src[self.at].isascii():
            letter = src[self.at]
            if not letter.isalpha():
                raise Unspellable("\\c without a control letter")
            self.out.append(f"\\x{ord(letter) % 32:02x}")
            self.at += 1
        elif char == "k" and src.startswith("<", self.at):
            name = _GROUP_NAME.match(src, self.at + 1)
            if self.dialect is RUST:
                raise Unspellable("a back-reference")
            if name is None or src[name.end() : name.end() + 1] != ">":
                raise Unspellable(
                    "a back-reference to a name that is not an identifier"
                )
            self.out.append(f"(?P={_group_name(name.group())})")
            self.at = name.end() + 1
        elif char.isdigit() and char != "0":
            if in_class:
                raise Unspellable("an octal escape in a class")
            if self.dialect is RUST:
                raise Unspellable("a back-reference")
            digits = re.match(r"\d*", src[self.at :])
            number = char + (digits.group() if digits else "")
            self.at += len(number) - 1
            self.out.append(f"(?:\\{number})")
        elif char == "0":
            self.out.append("\\x00")
        elif char in "xu":
            self._code_point(char)
        elif char in "tnrfv":
            self.out.append({"v": "\\x0b", "f": "\\x0c"}.get(char, f"\\{char}"))
        elif char.isascii() and char.isalnum():
            self.out.append(char)  # an identity escape (Annex B): the letter itself
        else:
            self.out.append(_literal(char))

    def _code_point(self, kind: str) -> None:
        src = self.src
        if kind == "u" and src.startswith("{", self.at):
            end = src.find("}", self.at)
            digits = src[self.at + 1 : end] if end > 0 else ""
            if (
                not re.fullmatch(r"[0-9A-Fa-f]{1,6}", digits)
                or int(digits, 16) > 0x10FFFF
            ):
                raise Unspellable("a \\u{...} escape that is no code point")
            self.at = end + 1
            self.out.append(_literal(chr(int(digits, 16))))
            return
        width = 4 if kind == "u" else 2
        digits = src[self.at : self.at + width]
        if re.fullmatch(rf"[0-9A-Fa-f]{{{width}}}", digits):
            self.at += width
            self.out.append(_literal(chr(int(digits, 16))))
        else:
            self.out.append(kind)  # \x or \u without its digits is the letter (Annex B)

    def _shorthand(self, members: str, negated: bool, in_class: bool) -> str:
        if not in_class:
            return f"[^{members}]" if negated else f"[{members}]"
        if not negated:
            return members
        if self.dialect is PYTHON:
            raise Unspellable("a negated class escape inside a class")
        return f"[^{members}]"  # the Rust engine nests classes

    # ---------------------------------------------------------------- classes

    def _class(self) -> None:
        src = self.src
        self.at += 1
        negated = src.startswith("^", self.at)
        if negated:
            self.at += 1
        if src.startswith("]", self.at):  # [] matches nothing, [^] any code unit
            self.at += 1
            if negated:
                self.out.append("(?s:.)")
            elif self.dialect is RUST:
                raise Unspellable("an empty class")
            else:
                self.out.append("(?!)")
            return
        self.out.append("[^" if negated else "[")
        while self.at < len(src) and src[self.at] != "]":
            char = src[self.at]
            if char == "\\":
                self._escape(in_class=True)
            elif char == "-" and self._is_range_dash():
                self.out.append("-")
                self.at += 1
            else:
                self.out.append(_class_literal(char))
                self.at += 1
        if self.at >= len(src):
            raise Unspellable("a class that is never closed")
        self.out.append("]")
        self.at += 1

    def _is_range_dash(self) -> bool:
        """Whether the ``-`` at ``at`` joins two class members (``a-z``), not a literal
        ``-`` at either end of the class."""
        before = self.src[self.at - 1]
        after = self.src[self.at + 1 : self.at + 2]
        return before not in "[^" and after not in ("", "]")


def _group_name(name: str) -> str:
    """ECMA allows ``$`` in group names; neither engine does."""
    return name.replace("$", "_S_")


_META = set(".^$*+?()[]{}|\\")


def _literal(char: str) -> str:
    """``char`` as a literal outside a class, in both engines (escaping only their common
    syntax: the Rust engine refuses some escapes Python's ``re.escape`` writes)."""
    return f"\\{char}" if char in _META else char


def _class_literal(char: str) -> str:
    return f"\\{char}" if char in _CLASS_SPECIAL else char


@functools.lru_cache(maxsize=4096)
def for_pydantic(pattern: str) -> tuple[Dialect, str]:
    """The spelling the generated bindings give pydantic: the Rust engine's where it can
    say the pattern (and compiles it), else Python's ``re``; ``Unspellable`` naming why
    neither can."""
    reasons = []
    for dialect in (RUST, PYTHON):
        try:
            text = spell(pattern, dialect)
            _compiles(text, dialect)
        except Unspellable as error:
            reasons.append(f"{dialect.value}: {error}")
            continue
        return dialect, text
    raise Unspellable("; ".join(reasons))


def _compiles(text: str, dialect: Dialect) -> None:
    if dialect is PYTHON:
        try:
            re.compile(text)
        except (re.error, OverflowError, RecursionError) as error:
            raise Unspellable(str(error)) from None
        return
    # pydantic-core builds its Rust regex when a validator is made.
    from pydantic_core import SchemaError, SchemaValidator, core_schema

    try:
        SchemaValidator(core_schema.str_schema(pattern=text))
    except SchemaError as error:
        raise Unspellable(str(error).splitlines()[-1].strip()) from None
