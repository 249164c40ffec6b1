"""Import computation for generated Python modules (bindings and stub server).

Phase: backend (Python bindings and stub server), at template rendering.
Inputs: a template name, its context, and the names the generated package itself
defines (importable from ``.models``).
Outputs: the rendered module text with exactly the imports it uses; isort's name
order; the names generated modules reserve at module level (``RESERVED_GLOBALS``).
Guarantees: nothing unused is imported and nothing used is missing (imports are
computed from the identifiers of a first rendering, not guessed); the grouping and
order are what ``ruff check`` (isort) wants, so the output needs no fixing.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from typing import Any

from codegen.backends.python.text import LINE_LENGTH
from codegen.backends.render import environment_now, render_template

__all__ = [
    "RESERVED_GLOBALS",
    "import_order",
    "names_in",
    "render_with_imports",
    "used_names",
]

# Where each name a generated module may use comes from (imports are computed from the
# names the rendered text actually uses, so nothing unused is imported).
_IMPORT_SOURCES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("collections.abc", ("Callable", "Hashable", "Iterator")),
    ("dataclasses", ("dataclass",)),
    ("enum", ("STRICT", "Enum", "Flag", "IntEnum", "IntFlag", "StrEnum")),
    ("functools", ("partial",)),
    ("inspect", ("get_annotations",)),
    ("operator", ("eq",)),
    (
        "typing",
        (
            *("Annotated", "Any", "ClassVar", "Final", "Literal", "NamedTuple"),
            *("NewType", "Self", "TypeAlias", "cast", "get_args", "get_origin"),
            "TYPE_CHECKING",
        ),
    ),
    # A pydantic dependency; ``typing.TypeAliasType`` needs Python 3.12.
    ("typing_extensions", ("TypeAliasType",)),
    (
        "pydantic",
        (
            *("MISSING", "AliasChoices", "BaseModel", "BeforeValidator", "ConfigDict"),
            *("Discriminator", "Field", "GetCoreSchemaHandler", "JsonValue", "Strict"),
            *("Tag", "TypeAdapter", "AfterValidator", "ValidationError"),
            *("ValidatorFunctionWrapHandler", "WrapValidator", "model_validator"),
            *("SerializerFunctionWrapHandler", "model_serializer"),
            *("GetJsonSchemaHandler", "GetPydanticSchema", "PlainSerializer"),
        ),
    ),
    ("pydantic.config", ("ExtraValues",)),
    ("pydantic.json_schema", ("JsonSchemaValue",)),
    (
        "pydantic_core",
        (
            *("CoreSchema", "InitErrorDetails", "PydanticCustomError", "core_schema"),
            *("PydanticUseDefault", "to_json", "to_jsonable_python"),
        ),
    ),
)
_MODULE_IMPORTS = {"re": "pattern=re.compile("}
_STDLIB = frozenset(
    {"collections.abc", "dataclasses", "enum", "functools", "inspect", "operator"}
    | {"typing"}
)
# Names the generated modules import or define at module level; spec types never take
# them.
RESERVED_GLOBALS = frozenset(
    {name for _, names in _IMPORT_SOURCES for name in names}
    | {"METHODS", "MethodInfo", "RpcError", "TransportError"}
    | {"TransportTimeout", "InvalidResult"}
    | set(_MODULE_IMPORTS)
)


def render_with_imports(
    template: str, context: dict[str, object], local: set[str] | tuple[()]
) -> str:
    """Render once to see which names the text uses, then put exactly those imports in.

    The first rendering has marks where the imports go (a comment line for the groups,
    a name for the package's own imports: neither is a name the text uses); the imports
    block of the templates' ``imports`` macro with the marks is then replaced by the
    block with the imports: the text a second rendering would give (the templates use
    the imports nowhere else), without rendering a large module twice.  Where the
    marked block is not found exactly once (a user's template laying imports out its
    own way), the template is rendered again.
    """
    draft = render_template(
        template, import_groups=[[_MARK_LINE]], local_imports=[_MARK_NAME], **context
    )
    used = used_names(draft)
    used.discard(_MARK_NAME)
    groups: list[list[str]] = [[], []]
    # Modules used by their own name: ``import re`` comes first in its section, as
    # isort orders it.  Looked for as the call the annotations write, not as a name (a
    # field may be called ``re``).
    groups[0].extend(
        f"import {module}" for module, call in _MODULE_IMPORTS.items() if call in draft
    )
    for module, names in _IMPORT_SOURCES:
        wanted = [name for name in names if name in used]
        if wanted:
            line = _import_line(module, import_order(wanted))
            groups[0 if module in _STDLIB else 1].append(line)
    import_groups = [group for group in groups if group]
    local_names = import_order([name for name in local if name in used])
    macros: Any = environment_now().get_template("_macros.j2").module
    macro = macros.imports
    found = _LOCAL_MARK.search(draft)
    calls = [(found.group(1), [_MARK_NAME])] if found else []
    for module, mark_names in [*calls, ("", [])]:
        marked = str(macro([[_MARK_LINE]], module, mark_names)).strip()
        if draft.count(marked) == 1:
            block = macro(import_groups, module, local_names if mark_names else [])
            return draft.replace(marked, str(block).strip())
    return render_template(
        template,
        import_groups=import_groups,
        local_imports=local_names,
        **context,
    )


# The marks of ``render_with_imports``' first rendering.
_MARK_LINE = "# codegen: the imports go here"
_MARK_NAME = "codegen_local_imports_go_here"
_LOCAL_MARK = re.compile(r"from (\S+) import \(\n    " + _MARK_NAME + r",\n\)")


def names_in(text: str) -> list[str]:
    """The identifiers a piece of Python uses, in order of first appearance (strings,
    comments and docstrings are not identifiers, so a ``Literal["Field"]`` imports
    nothing).

    One regular-expression scan, not ``tokenize`` (five times slower on a large module):
    the same verdicts as the tokenizer on any code Python accepts, which a test checks on
    every generated module.
    """
    names: dict[str, None] = {}
    after_dot = False  # ``typing.Self`` uses the module, not a bare ``Self``
    # The last four significant tokens, t1 the latest (plain variables: this loop runs
    # once per token of every generated module).
    t4 = t3 = t2 = t1 = ""
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "skip":
            continue
        token = match.group(kind)  # type: ignore[arg-type]  # a token group matched
        if kind == "name":
            if not after_dot:
                names.setdefault(token)
        elif kind == "string" and t1 == "," and t3 == "(" and t4 == "TypeAliasType":
            # ``TypeAliasType("Name", "<value>")``: the value is code, evaluated lazily.
            for name in names_in(ast.literal_eval(token)):
                names.setdefault(name)
        after_dot = token == "."
        t4, t3, t2, t1 = t3, t2, t1, token
    return list(names)


def used_names(text: str) -> set[str]:
    """``set(names_in(text))`` from one ``findall`` of the regular-expression engine,
    with no Python code per token (``names_in``' loop was the largest part of the
    bindings' time on a large spec; this takes about half as long).  Text that names
    ``TypeAliasType`` (whose value strings are code) goes through ``names_in``."""
    if "TypeAliasType" in text:
        return set(names_in(text))
    found = set(_CODE_NAMES.findall(text))
    found.discard("")  # what was not a name
    return found


# Python's tokens as far as ``names_in`` needs them: strings (any prefix, triple-quoted or
# not) and comments hide what they contain, numbers are no names (``1e5``), ``...`` is not
# a dot; whitespace and line breaks are skipped.
_STRING = (
    r"(?:[rRbBuUfF]{1,2})?(?:"
    r"'{3}(?:[^\\]|\\[\s\S])*?'{3}"
    r'|"{3}(?:[^\\]|\\[\s\S])*?"{3}'
    r"|'(?:[^'\\\r\n]|\\[\s\S])*'"
    r'|"(?:[^"\\\r\n]|\\[\s\S])*")'
)
_TOKEN = re.compile(
    # Whitespace and comments are skipped within the match of the token after them
    # (possessive: no backtracking).
    r"(?:[ \t\f\r\n\\]|#[^\r\n]*+)*+"
    f"(?:(?P<string>{_STRING})"
    r"|(?P<number>\d\w*(?:\.\d*(?:[eE][+-]?\d+)?\w*)?|\.\d\w*)"
    r"|(?P<name>[^\W\d]\w*)"
    r"|(?P<op>\.\.\.|[^\s\w])"
    r"|(?P<skip>))"  # only what is skipped: a trailing comment, the end of the text
)
# ``used_names``: a run of what starts no token but an operator or space, then at each
# token start the alternatives ``_TOKEN`` tries, in its order; only a name is captured,
# not a string, a comment, a number, ``...``, or a name after a dot (with what may
# stand between them).
_CODE_NAMES = re.compile(
    r"[^\w\"'#.]++"
    f"|{_STRING}"
    r"|#[^\r\n]*+"
    r"|\d\w*(?:\.\d*(?:[eE][+-]?\d+)?\w*)?|\.\d\w*"
    r"|\.\.\."
    r"|\.(?:[ \t\f\r\n\\]|#[^\r\n]*+)*+[^\W\d]\w*"
    r"|([^\W\d]\w*)"
)


def import_order(names: Iterable[str]) -> list[str]:
    """isort's order (as ``ruff check`` wants it for imports and ``__all__``):
    CONSTANTS, then Classes, then everything else, each in natural order (``X2``
    before ``X10``).
    """

    def key(name: str) -> tuple[int, list[tuple[int, str]]]:
        if len(name) > 1 and name.isupper():
            group = 0
        elif name[:1].isupper():
            group = 1
        else:
            group = 2
        parts = [
            (int(part), "") if part.isdigit() else (0, part)
            for part in re.split(r"(\d+)", name)
        ]
        return group, parts

    return sorted(set(names), key=key)


def _import_line(module: str, names: list[str]) -> str:
    line = f"from {module} import {', '.join(names)}"
    if len(line) <= LINE_LENGTH:
        return line
    return "\n".join([f"from {module} import (", *(f"    {n}," for n in names), ")"])
