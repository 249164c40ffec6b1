"""spec.toml's schema: every table, every key, its type and the values it may take.

Phase: configuration, before ``config._build`` reads the values.
Inputs: the document as ``tomllib`` parsed it.
Outputs: ``Problem`` records: the key path, whether the key or its value is wrong, and a
message that names the setting and, for a misspelt key or value, the closest known one.
Guarantees: one problem per mistake: a misspelt required key is reported as the unknown
key it is, not also as the missing one; a value that fits neither form of a union is one
problem, not one per form.  Tables for one source language (``[rust]``) are refused in a
spec of another.  pydantic (strict mode, unknown keys forbidden) does the checking, so a
new key is one line in its table's model and a new value one word in its ``Literal``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from codegen.diagnostics import closest, did_you_mean
from codegen.spec.rust_wrappers import WRAPPER_FORMS, is_wrapper_form

__all__ = [
    "FRAMINGS",
    "LANGUAGES",
    "LANGUAGE_TABLES",
    "TRANSPORT_KINDS",
    "Problem",
    "SpecToml",
    "ToolCodegen",
    "check",
    "check_tool",
]

Language = Literal["typescript", "rust", "go", "prose"]
# [transport] kind: the message envelope.
# "event-envelope": a request/response/event envelope (the Debug Adapter Protocol's
# shape), its keys named by [transport.fields].
TransportKind = Literal["jsonrpc-2.0", "http-post-envelope", "event-envelope"]
# [transport] framings: how messages travel.
Framing = Literal["ndjson-stdio", "content-length-stdio", "websocket", "http-post"]

LANGUAGES: tuple[str, ...] = get_args(Language)
TRANSPORT_KINDS: tuple[str, ...] = get_args(TransportKind)
FRAMINGS: tuple[str, ...] = get_args(Framing)


def _error_code(key: str) -> str:
    try:
        int(key)
    except ValueError:
        raise PydanticCustomError(
            "error_code", "'{key}' is not an integer error code", {"key": key}
        ) from None
    return key


ErrorCode = Annotated[str, AfterValidator(_error_code)]


def _wrapper_form(form: str) -> str:
    if not is_wrapper_form(form):
        raise PydanticCustomError(
            "literal_error",
            "Input should be {expected}, or a Rust type",
            {"expected": ", ".join(repr(f) for f in WRAPPER_FORMS)},
        )
    return form


WrapperForm = Annotated[str, AfterValidator(_wrapper_form)]
# A type name, or several (a union of them); "" or [] for none.
TypeNames = str | list[str]


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SpecTable(_Table):
    id: str | None = None
    title: str | None = None
    version: str | None = None
    language: Language
    sources: Annotated[list[str], Field(min_length=1)]
    roles: Annotated[list[str], Field(min_length=2, max_length=2)] = [
        "client",
        "server",
    ]
    extra_keys: Literal["allow", "forbid"] = "allow"
    docs: str = ""
    types: list[str] = []


class EnvelopeFieldsTable(_Table):
    """``[transport.fields]`` of an ``event-envelope``: the key of each part of the
    envelope (defaults as the Debug Adapter Protocol spells them)."""

    seq: str = "seq"
    type: str = "type"
    command: str = "command"
    arguments: str = "arguments"
    body: str = "body"
    success: str = "success"
    message: str = "message"
    event: str = "event"
    request_seq: str = "request_seq"


class TransportTable(_Table):
    kind: TransportKind = "jsonrpc-2.0"
    framings: list[Framing] = []
    fields: EnvelopeFieldsTable | None = None


class PythonTable(_Table):
    package: str | None = None
    distribution: str | None = None


class ExternalEntry(_Table):
    module: str = ""
    reason: str = ""


class MethodEntry(_Table):
    kind: Literal["request", "notification"] | None = None
    direction: str | None = None
    params: TypeNames | None = None
    params_optional: bool | None = None
    result: TypeNames | None = None
    docs: str | None = None
    method: bool = True  # false: what the sources evidence as this method is not one


class MethodsTable(_Table):
    """``[methods."<wire name>"]``, and the older ``[methods.overrides."<wire name>"]``."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)
    __pydantic_extra__: dict[str, MethodEntry] = Field(init=False)
    overrides: dict[str, MethodEntry] = {}


class UnionEntry(_Table):
    open: bool = False


class ExamplesTable(_Table):
    contradicts_spec: dict[str, str] = {}


class RustTable(_Table):
    features: list[str] = []
    default_features: bool = True
    wrappers: dict[str, WrapperForm] = {}


class GoTable(_Table):
    """``[go]``: ``wrappers`` maps a type name to its wire form: ``"any"``, ``"string"``,
    a Go type, or a list of Go types tried in order (the Go frontend checks the types).
    """

    wrappers: dict[str, str | list[str]] = {}


class SpecToml(_Table):
    spec: SpecTable
    transport: TransportTable = TransportTable()
    python: PythonTable = PythonTable()
    external: dict[str, ExternalEntry] = {}
    methods: MethodsTable = MethodsTable()
    errors: dict[ErrorCode, str] = {}
    examples: ExamplesTable = ExamplesTable()
    unions: dict[str, UnionEntry] = {}
    rust: RustTable | None = None
    go: GoTable | None = None


class ToolSpecEntry(_Table):
    """``[tool.codegen.spec.<id>]`` in pyproject.toml."""

    package: str | None = None
    distribution: str | None = None
    strict: bool | None = None


class ToolCodegen(_Table):
    """``[tool.codegen]`` in pyproject.toml."""

    specs: str | list[str] = ["specs"]
    output: Annotated[str, Field(min_length=1)] = "generated"
    templates: str | None = None
    formatter: Literal["ruff", "none"] = "ruff"
    strict: bool = False
    spec: dict[str, ToolSpecEntry] = {}


def check_tool(table: Mapping[str, Any]) -> list[Problem]:
    """Every problem with a ``[tool.codegen]`` table (paths below the table)."""
    try:
        ToolCodegen.model_validate(table)
    except ValidationError as exc:
        return _problems(table, exc.errors(include_url=False), ToolCodegen)
    return []


# Tables that only one source language reads: table → that language.
LANGUAGE_TABLES: Mapping[str, str] = {"rust": "rust", "go": "go"}


@dataclass(frozen=True, slots=True)
class Problem:
    """One mistake: at ``path``'s key (``at_key``) or its value."""

    path: tuple[str | int, ...]
    message: str
    at_key: bool = False


def check(data: Mapping[str, Any]) -> list[Problem]:
    """Every problem with a parsed spec.toml, in document order of their paths."""
    try:
        SpecToml.model_validate(data)
        problems: list[Problem] = []
    except ValidationError as exc:
        problems = _problems(data, exc.errors(include_url=False), SpecToml)
    language = (
        data.get("spec", {}).get("language") if _is_table(data.get("spec")) else None
    )
    problems += _transport_problems(data.get("transport"))
    for table, owner in LANGUAGE_TABLES.items():
        if table in data and isinstance(language, str) and language != owner:
            problems.append(
                Problem(
                    (table,),
                    f"[{table}] applies only to specs with language = {owner!r}; "
                    f"this spec's language is {language!r}",
                    at_key=True,
                )
            )
    return problems


# The framings an event envelope travels over (its stub and client speak stdio).
ENVELOPE_FRAMINGS: tuple[str, ...] = ("ndjson-stdio", "content-length-stdio")


def _transport_problems(transport: Any) -> list[Problem]:
    """What only the kind and framings together say: [transport.fields] belongs to an
    ``event-envelope``, which travels over stdio only."""
    if not _is_table(transport):
        return []
    kind = transport.get("kind", "jsonrpc-2.0")
    if kind != "event-envelope":
        if "fields" in transport and kind in TRANSPORT_KINDS:
            return [
                Problem(
                    ("transport", "fields"),
                    "[transport.fields] names the keys of an event envelope; "
                    f"this spec's kind is {kind!r} "
                    '(kind = "event-envelope"?)',
                    at_key=True,
                )
            ]
        return []
    problems: list[Problem] = []
    fields = transport.get("fields", {})
    if _is_table(
        fields
    ):  # two parts of the envelope under one key cannot be told apart
        taken: dict[str, str] = {
            value: key
            for key, value in reversed(EnvelopeFieldsTable().model_dump().items())
            if key not in fields
        }
        for key, value in fields.items():
            if isinstance(value, str) and value in taken and taken[value] != key:
                problems.append(
                    Problem(
                        ("transport", "fields", key),
                        f"transport.fields.{key} is {value!r}, the key of "
                        f"{taken[value]} too; each part of the envelope needs its own",
                    )
                )
            elif isinstance(value, str):
                taken[value] = key
    framings = transport.get("framings", [])
    if not isinstance(framings, list):
        return problems
    return problems + [
        Problem(
            ("transport", "framings", index),
            f"an event-envelope travels over {' or '.join(ENVELOPE_FRAMINGS)}, "
            f"not {framing}",
        )
        for index, framing in enumerate(framings)
        if framing in FRAMINGS and framing not in ENVELOPE_FRAMINGS
    ]


def _is_table(value: Any) -> bool:
    return isinstance(value, dict)


def _problems(
    data: Mapping[str, Any], errors: list[ErrorDetails], root: type[BaseModel]
) -> list[Problem]:
    found: list[tuple[tuple[str | int, ...], ErrorDetails]] = []
    unions: dict[
        tuple[str | int, ...], list[tuple[str, tuple[str | int, ...], ErrorDetails]]
    ]
    unions = {}
    for error in errors:
        path, branch, at = _data_path(data, error["loc"])
        if branch:
            unions.setdefault(at, []).append((branch, path, error))
        else:
            found.append((path, error))
    for at, tried in unions.items():
        # The branch of the value's own shape speaks for it (a list: the list form);
        # a value of no branch's shape is one problem naming every form.
        value = _get(data, at)
        shape = (
            "list"
            if isinstance(value, list)
            else "dict" if isinstance(value, dict) else ""
        )
        kept = [(p, e) for branch, p, e in tried if shape and branch.startswith(shape)]
        if not kept and not shape:
            scalar = [(p, e) for branch, p, e in tried if "[" not in branch]
            kept = scalar if len(scalar) == 1 and _fits(value, scalar[0][1]) else []
        if kept:
            found.extend(kept)
        else:
            found.append((at, _union_error(tried)))
    unknown: dict[tuple[str | int, ...], set[str]] = {}  # table → suggested keys
    out: list[Problem] = []
    seen: set[tuple[str | int, ...]] = set()
    for path, error in found:
        if path in seen:
            continue
        seen.add(path)
        out.append(_problem(data, path, error, root))
        if error["type"] == "extra_forbidden":
            suggestion = _suggest_key(data, path, root)
            if suggestion:
                unknown.setdefault(path[:-1], set()).add(suggestion)
    # A misspelt required key is one mistake: the unknown key, with its suggestion.
    return [
        p
        for p in out
        if not (
            " must set " in p.message and p.path[-1] in unknown.get(p.path[:-1], set())
        )
    ]


def _fits(value: Any, error: ErrorDetails) -> bool:
    """Whether a scalar branch's error is about this value's own kind (a literal that
    is a string, but not one of the words): then that branch speaks for it."""
    return error["type"] == "literal_error" and isinstance(value, str)


def _union_error(
    tried: list[tuple[str, tuple[str | int, ...], ErrorDetails]],
) -> ErrorDetails:
    kinds = sorted({_expected(e) for _, _, e in tried})
    first = tried[0][2]
    return ErrorDetails(
        type="union_type",
        loc=first["loc"],
        msg=" or ".join(kinds),
        input=first["input"],
    )


def _data_path(
    data: Mapping[str, Any], loc: tuple[str | int, ...]
) -> tuple[tuple[str | int, ...], str, tuple[str | int, ...]]:
    """pydantic's error location as a path in the document; the first union branch
    (``str``, ``list[str]``, ...) it passed through, and the path of that union."""
    path: list[str | int] = []
    branch = ""
    root: tuple[str | int, ...] = ()
    value: Any = data
    for part in loc:
        if part == "[key]":
            continue
        present, child = _child(value, part)
        if present:
            value = child
            path.append(part)
        elif isinstance(value, dict) and isinstance(part, str) and not _is_branch(part):
            path.append(part)  # a missing key
        elif not branch:
            branch, root = str(part), tuple(path)
    return tuple(path), branch, root


def _child(value: Any, part: str | int) -> tuple[bool, Any]:
    if isinstance(value, dict) and part in value:
        return True, value[part]
    if isinstance(value, list) and isinstance(part, int) and part < len(value):
        return True, value[part]
    return False, None


def _is_branch(part: str) -> bool:
    return (
        "[" in part
        or part in ("str", "int", "bool", "float", "none")
        or part.startswith("literal")
        or part.endswith(("Table", "Entry"))
    )


def _expected(error: ErrorDetails) -> str:
    return {
        "string_type": "a string",
        "list_type": "a list",
        "bool_type": "true or false",
        "int_type": "an integer",
        "float_type": "a number",
        "dict_type": "a table",
        "model_type": "a table",
        "model_attributes_type": "a table",
    }.get(error["type"], "something else")


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"


def _problem(
    data: Mapping[str, Any],
    path: tuple[str | int, ...],
    error: ErrorDetails,
    root: type[BaseModel],
) -> Problem:
    kind = error["type"]
    shown = (*_PREFIX.get(root, ()), *path)  # the path as the user writes it
    name = _show(shown)
    if kind == "extra_forbidden":
        known = _known_keys(path[:-1], root)
        hint = _suggest_key(data, path, root)
        where = f"[{_show(shown[:-1])}]" if len(shown) > 1 else "spec.toml"
        what = "table" if len(shown) == 1 else "key"
        listing = f" (known: {', '.join(known)})" if known else ""
        return Problem(
            path,
            f"unknown {what} {path[-1]!r} in {where}"
            + (f"; did you mean {hint!r}?" if hint else listing),
            at_key=True,
        )
    if kind == "missing":
        if len(path) == 1:
            return Problem(
                path, f"spec.toml must have a [{path[0]}] table", at_key=True
            )
        return Problem(
            path, f"[{_show(shown[:-1])}] must set {path[-1]!r}", at_key=True
        )
    value = _get(data, path)
    if kind in ("literal_error", "enum"):
        expected = str(error.get("ctx", {}).get("expected", ""))
        choices = [
            c.strip().strip("'") for c in expected.replace(" or ", ", ").split(",")
        ]
        hint = did_you_mean(str(value), choices) if isinstance(value, str) else ""
        return Problem(
            path, f"{name} must be one of {', '.join(choices)}, not {value!r}{hint}"
        )
    if kind in ("too_short", "too_long"):
        limits = _limits(path)
        return Problem(path, f"{name} must list {limits}, not {len(value)}")
    if kind == "union_type":
        return Problem(path, f"{name} must be {error['msg']}, not {_type_name(value)}")
    if kind == "error_code":
        return Problem(path, f"{_show(shown[:-1])}: {error['msg']}", at_key=True)
    if kind == "string_too_short":
        return Problem(path, f"{name} must not be empty")
    if kind.endswith("_type") or kind in ("model_attributes_type",):
        return Problem(
            path, f"{name} must be {_expected(error)}, not {_type_name(value)}"
        )
    return Problem(path, f"{name}: {error['msg']}")


# Where a root model's table sits in its file.
_PREFIX: dict[type[BaseModel], tuple[str, ...]] = {ToolCodegen: ("tool", "codegen")}


def _limits(path: tuple[str | int, ...]) -> str:
    if path == ("spec", "roles"):
        return "exactly two roles"
    if path == ("spec", "sources"):
        return "at least one source file"
    return "a different number of items"


def _get(data: Mapping[str, Any], path: tuple[str | int, ...]) -> Any:
    value: Any = data
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _model_at(
    path: tuple[str | int, ...], root: type[BaseModel]
) -> type[BaseModel] | None:
    """The model of the table at ``path`` (None for a map of free names)."""
    model: Any = root
    name_next = False  # the part after a map of names is a name, not a key
    for part in path:
        if name_next:
            name_next = False
            continue
        if model is MethodsTable and part != "overrides":
            model = MethodEntry
            continue
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return None
        info = model.model_fields.get(str(part))
        if info is None:
            return None
        model, name_next = _table_of(info.annotation)
        if model is None:
            return None
    if name_next:
        return None
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _table_of(annotation: Any) -> tuple[Any, bool]:
    """The model a field holds, and whether it holds a map of names to it."""
    for candidate in (annotation, *get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate, False
        if getattr(candidate, "__origin__", None) is dict:
            entry = get_args(candidate)[1]
            if isinstance(entry, type) and issubclass(entry, BaseModel):
                return entry, True
            return None, False
    return None, False


def _known_keys(table: tuple[str | int, ...], root: type[BaseModel]) -> list[str]:
    model = _model_at(table, root)
    return list(model.model_fields) if model is not None else []


def _suggest_key(
    data: Mapping[str, Any], path: tuple[str | int, ...], root: type[BaseModel]
) -> str:
    known = _known_keys(path[:-1], root)
    table = _get(data, path[:-1])
    free = [k for k in known if not (isinstance(table, dict) and k in table)]
    return closest(str(path[-1]), free) or ""


def _show(path: tuple[str | int, ...]) -> str:
    """``spec.sources[0]``, ``methods."a/b".kind``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        text = part if part.replace("_", "").replace("-", "").isalnum() else f'"{part}"'
        out += f".{text}" if out else text
    return out
