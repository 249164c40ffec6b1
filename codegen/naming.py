"""Python naming: spec names and wire names to safe, deterministic Python identifiers.

Phase: between the normalized IR and the Python backend (or anything that emits Python).
Inputs: names as they appear in a spec (``camelCase``, ``PascalCase``, ``kebab-case``,
``$/cancel``, ``_meta``, ``URLPath``, ``2d``).
Outputs: identifiers: ``snake_case`` attributes and functions, ``PascalCase`` classes,
``CONSTANT_CASE`` enum members, and per-scope name tables where names that map to the
same identifier get deterministic ``_2``, ``_3`` suffixes.
Guarantees: pure functions of their arguments; the result is always a valid identifier
that is not a keyword or soft keyword and, for attributes, neither shadows a builtin or
a pydantic ``BaseModel`` member nor starts with an underscore (pydantic treats those as
private).  A collision table does not depend on the order its names are given in.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Callable, Iterable

__all__ = [
    "BASEMODEL_MEMBERS",
    "RESERVED_ATTRIBUTES",
    "assign_names",
    "attribute_name",
    "class_name",
    "constant_case",
    "function_name",
    "pascal_case",
    "snake_case",
    "split_words",
]

# Words of a name; digits stay attached to the word before them (``base64Data`` →
# ``base64``, ``data``).
_WORD = re.compile(
    r"[A-Z]+(?=[A-Z][a-z])"  # an acronym before a capitalized word: URL|Path
    r"|[A-Z]?[a-z]+[0-9]*"  # a (capitalized) lowercase word, digits attached: Base64
    r"|[A-Z]+[0-9]*"  # an acronym at the end: HTTP2
    r"|[0-9]+[a-z]*"  # a leading number with its unit: 2d
)
_FALLBACK = "unnamed"

# Public members of pydantic's BaseModel (v2, including the deprecated v1 names): a
# field with one of these names shadows the method and pydantic warns or breaks.
BASEMODEL_MEMBERS = frozenset(
    {
        "construct",
        "copy",
        "dict",
        "from_orm",
        "json",
        "model_computed_fields",
        "model_config",
        "model_construct",
        "model_copy",
        "model_dump",
        "model_dump_json",
        "model_extra",
        "model_fields",
        "model_fields_set",
        "model_json_schema",
        "model_parametrized_name",
        "model_post_init",
        "model_rebuild",
        "model_validate",
        "model_validate_json",
        "model_validate_strings",
        "parse_file",
        "parse_obj",
        "parse_raw",
        "schema",
        "schema_json",
        "update_forward_refs",
        "validate",
    }
)

# Names a module-level function must not take: keywords, soft keywords, builtins and
# BaseModel members.
RESERVED_NAMES = frozenset(
    set(keyword.kwlist)
    | set(keyword.softkwlist)
    | {name for name in dir(builtins) if not name.startswith("_")}
    | BASEMODEL_MEMBERS
)

# The builtins a generated class body names in its annotations: a field called ``list``
# or ``str`` would shadow the builtin there (pydantic, mypy and pyright resolve a class
# body's annotations in the class namespace first).
ANNOTATION_BUILTINS = frozenset(
    {"bool", "bytes", "dict", "float", "frozenset", "int", "list", "object", "set"}
    | {"str", "tuple"}
)

# Names an attribute must not take: keywords, the builtins of annotations, and
# BaseModel members.  Other builtins (``id``, ``type``, ``filter``, ``input``) are fine
# attribute names, as in any Python class: ``id_`` would only make users guess.
RESERVED_ATTRIBUTES = frozenset(
    set(keyword.kwlist) | {"_"} | ANNOTATION_BUILTINS | BASEMODEL_MEMBERS
)


def split_words(name: str) -> list[str]:
    """The words of ``name``: ``"URLPath"`` → ``["URL", "Path"]``, ``"$/cancel"`` →
    ``["cancel"]``.
    """
    words: list[str] = []
    for chunk in re.split(r"[^A-Za-z0-9]+", name):
        words.extend(_WORD.findall(chunk))
    return words


def snake_case(name: str) -> str:
    """``sessionAdded`` → ``session_added``; ``URLPath`` → ``url_path``; ``2d`` →
    ``n_2d``.

    Always a valid identifier that is not a keyword (builtins are left to
    ``attribute_name``).
    """
    words = [word.lower() for word in split_words(name)]
    text = "_".join(words) or _FALLBACK
    if text[0].isdigit():
        text = f"n_{text}"
    return _not_keyword(text)


def pascal_case(name: str) -> str:
    """``session/added`` → ``SessionAdded``; ``URLPath`` stays ``URLPath``; ``MAX_SIZE``
    → ``MaxSize``.
    """
    words = split_words(name)
    shouting = not any(char.islower() for char in name)
    parts = [
        word.capitalize() if shouting else word[0].upper() + word[1:] for word in words
    ]
    text = "".join(parts) or _FALLBACK.capitalize()
    if text[0].isdigit():
        text = f"N{text}"
    return _not_keyword(text)


def constant_case(name: str) -> str:
    """Enum member names: ``InProgress`` → ``IN_PROGRESS``; ``text`` → ``TEXT``; ``1`` →
    ``N_1``.
    """
    text = "_".join(word.upper() for word in split_words(name)) or _FALLBACK.upper()
    if text[0].isdigit():
        text = f"N_{text}"
    return _not_keyword(text)


def attribute_name(wire_name: str) -> str:
    """A model attribute for a JSON key: snake_case, never reserved, never private.

    ``_meta`` → ``meta``; ``type`` → ``type``; ``class`` → ``class_``; ``json`` →
    ``json_``; ``str`` → ``str_``.
    """
    text = snake_case(wire_name)
    return f"{text}_" if text in RESERVED_ATTRIBUTES or _is_protected(text) else text


def function_name(wire_name: str) -> str:
    """A module-level function name for a wire name (never a keyword or builtin)."""
    text = snake_case(wire_name)
    return f"{text}_" if text in RESERVED_NAMES else text


def class_name(name: str) -> str:
    """A class or type alias name: the spec name when it is a public identifier."""
    if name.isidentifier() and name.isascii() and name[0].isupper():
        return _not_keyword(name)
    return pascal_case(name)


def assign_names(
    names: Iterable[str],
    convert: Callable[[str], str],
    taken: Iterable[str] = (),
) -> dict[str, str]:
    """Map each source name to a unique identifier within one scope.

    ``convert`` gives each name its preferred identifier.  When several names want the
    same one, the name that already *is* that identifier wins, then the others in sorted
    order; the losers get ``_2``, ``_3``... (skipping anything already used or in
    ``taken``).  The result does not depend on the order of ``names``.
    """
    unique = sorted(set(names))
    used = set(taken)
    wanted = {name: convert(name) for name in unique}
    groups: dict[str, list[str]] = {}
    for name in unique:
        groups.setdefault(wanted[name], []).append(name)
    result: dict[str, str] = {}
    # Uncontested and winning names first, so a suffixed name never steals a preferred
    # one.
    winners: list[tuple[str, str]] = []
    losers: list[tuple[str, str]] = []
    for base in sorted(groups):
        members = sorted(groups[base], key=lambda name: (name != base, name))
        if base in used:
            losers.extend((base, name) for name in members)
            continue
        winners.append((base, members[0]))
        losers.extend((base, name) for name in members[1:])
    for base, name in winners:
        result[name] = base
        used.add(base)
    all_bases = set(groups)
    for base, name in losers:
        counter = 2
        while (candidate := _suffixed(base, counter)) in used or candidate in all_bases:
            counter += 1
        result[name] = candidate
        used.add(candidate)
    return result


def _suffixed(base: str, counter: int) -> str:
    return f"{base.rstrip('_')}_{counter}"


def _is_protected(text: str) -> bool:
    return text.startswith(("model_validate", "model_dump"))


def _not_keyword(text: str) -> str:
    if keyword.iskeyword(text) or keyword.issoftkeyword(text):
        return f"{text}_"
    return text
