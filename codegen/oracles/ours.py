"""Our side of every case: the generated bindings' and the generated JSON Schema's verdicts.

Phase: verification (``make oracle``).
Inputs: a ``Subject`` (the spec's IR, its generated package, its schema bundle) and cases.
Outputs: ``OurVerdict`` per case: the bindings' ``Answer`` (accept or reject; what they write
back, by ``TypeAdapter(T).dump_json``, after the runtime's own serializer call with
``warnings="error"``: a value read but refused by the writer is ``write_refused``), the same output without the keys the bindings kept as
unknown (what serde and encoding/json write, since they drop unknown keys), and whether the
JSON Schema accepts the value.
Guarantees: the bindings are used as a user would (``TypeAdapter(models.T)``, no extra
arguments), so laxness or attribute-name reading in the generated code shows up here; a
declared index signature's entries (``__pydantic_extra__`` annotated on the model) are
declared keys, not unknown ones.
"""

from __future__ import annotations

import ast
import inspect
import json
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

import jsonschema
from pydantic import BaseModel, RootModel, TypeAdapter, ValidationError

from codegen import ir, naming
from codegen.oracles.case import Answer, Case
from codegen.oracles.subject import Subject


@dataclass(frozen=True, slots=True)
class OurVerdict:
    bindings: Answer
    output_known_keys: (
        str | None
    )  # the output without unknown keys kept by the bindings
    schema_accepts: bool
    schema_detail: str = ""
    # JSON pointers of the objects in the output that are models (structs); the others
    # are maps or any-JSON values
    struct_paths: frozenset[str] = frozenset()
    # JSON pointers of the fields typed as numbers that may be floats, or as any JSON
    float_paths: frozenset[str] = frozenset()
    # The bindings read the value but the runtime's writer refused it (its own serializer
    # call, ``warnings="error"``): always a failure, whatever the oracle says.
    write_refused: str = ""


class Ours:
    def __init__(self, subject: Subject) -> None:
        self.subject = subject
        self._adapters: dict[str, TypeAdapter[Any]] = {}
        self._validators: dict[str, Any] = {}
        # a declaration's class is named by the documented rule: a name the module
        # reserves (``Flag``, imported from enum) or another declaration holds gets a
        # suffix (``Flag_2``)
        self._classes = class_names(subject.protocol, subject.package.models)

    def class_of(self, name: str) -> Any:
        # None where the rule finds no class the module defines: a name it imports
        # (``enum.Flag``) is not the declaration's class.
        found = self._classes.get(name)
        return None if found is None else getattr(self.subject.package.models, found)

    def has_type(self, name: str) -> bool:
        return self.class_of(name) is not None and name in self.subject.defs

    def adapter(self, name: str) -> TypeAdapter[Any]:
        if name not in self._adapters:
            self._adapters[name] = TypeAdapter(self.class_of(name))
        return self._adapters[name]

    def validator(self, name: str) -> Any:
        if name not in self._validators:
            self._validators[name] = jsonschema.Draft202012Validator(
                {"$ref": f"#/$defs/{name}", "$defs": self.subject.defs}
            )
        return self._validators[name]

    def judge(self, case: Case) -> OurVerdict:
        adapter = self.adapter(case.type_name)
        refused = ""
        try:
            value = adapter.validate_json(case.text)
        except ValidationError as exc:
            answer = Answer(False, None, _first_error(exc))
            known: str | None = None
            structs: frozenset[str] = frozenset()
            floats: frozenset[str] = frozenset()
        else:
            found: list[str] = []
            float_found: list[str] = []
            _struct_paths(value, "", found, float_found)
            if not isinstance(value, BaseModel) and _loose_numbers(
                self.class_of(case.type_name)
            ):
                float_found.append("")  # a named any-JSON type: the value itself
            structs, floats = frozenset(found), frozenset(float_found)
            try:
                # What the runtime does with a value it sends (dispatch, connection):
                # a writer that warns refuses.
                adapter.serializer.to_python(
                    value, mode="json", by_alias=True, warnings="error"
                )
                output = adapter.dump_json(value, warnings="error").decode()
            except Exception as exc:  # noqa: BLE001 - a writer failure is a verdict too
                refused = f"{type(exc).__name__}: {exc}"
                answer = Answer(False, None, f"dump failed: {refused}")
                known = None
                structs = floats = frozenset()
            else:
                answer = Answer(True, output, "")
                known = adapter.dump_json(_without_unknown_keys(value)).decode()
        schema_error = self._schema_error(case)
        return OurVerdict(
            answer,
            known,
            schema_error is None,
            schema_error or "",
            structs,
            floats,
            refused,
        )

    def _schema_error(self, case: Case) -> str | None:
        try:
            instance = json.loads(case.text)
        except ValueError as exc:
            return f"not JSON: {exc}"
        error = jsonschema.exceptions.best_match(
            self.validator(case.type_name).iter_errors(instance)
        )
        if error is None:
            return None
        where = "/" + "/".join(str(p) for p in error.absolute_path)
        return f"{where}: {error.message[:200]}"


def class_names(protocol: ir.Protocol, models: ModuleType) -> dict[str, str]:
    """Declaration name → its name in the generated models module, found as a user
    finds it: the rule of ``codegen.naming.assign_names`` (a declaration whose name is
    its identifier wins it; the others, and every one whose identifier the module
    reserves, take ``_2``, ``_3``... in sorted order) over the names the module itself
    defines (a reserved name is imported, or not there at all).  Read from the module's
    text, not from the generator, so the oracle judges what was generated."""
    defined = _defined_names(models)
    groups: dict[str, list[str]] = {}
    for decl in protocol.decls:
        groups.setdefault(naming.class_name(decl.name), []).append(decl.name)
    ordered = [
        (base, sorted(set(names), key=lambda name: (name != base, name)))
        for base, names in sorted(groups.items())
    ]
    out: dict[str, str] = {}
    used: set[str] = set()
    for base, names in ordered:
        if base in defined:
            out[names[0]] = base
            used.add(base)
    for base, names in ordered:
        counter = 2
        for name in names:
            if name in out:
                continue
            while counter < 1000:
                candidate = f"{base.rstrip('_')}_{counter}"
                counter += 1
                if candidate in defined and candidate not in used | set(groups):
                    out[name] = candidate
                    used.add(candidate)
                    break
    return out


def _defined_names(module: ModuleType) -> set[str]:
    """The names a module's own top-level statements bind (not its imports)."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return set(vars(module))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return str(exc)[:200]
    first = errors[0]
    where = "/" + "/".join(str(p) for p in first.get("loc", ()))
    more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first.get('msg', '')}{more}"[:300]


@cache
def _declares_extra(cls: type[BaseModel]) -> bool:
    return any(
        "__pydantic_extra__" in getattr(base, "__annotations__", {})
        for base in cls.__mro__
        if base is not BaseModel
    )


def _struct_paths(value: Any, path: str, structs: list[str], floats: list[str]) -> None:
    """Collect the JSON pointers, in the written output, of every object that is a model
    and of every field whose numbers may be floats (``int | float``, any JSON)."""
    if isinstance(value, RootModel):
        # A named type over a JSON value (an any-JSON wrapper, a union): its root is the
        # value itself, at the same pointer, and it is no object of its own.
        info = type(value).model_fields["root"]
        if _loose_numbers(info.annotation):
            floats.append(path)
        _struct_paths(value.root, path, structs, floats)
    elif isinstance(value, BaseModel):
        structs.append(path)
        for name, info in type(value).model_fields.items():
            key = info.serialization_alias or info.alias or name
            inner = f"{path}/{_escape(key)}"
            if _loose_numbers(info.annotation):
                floats.append(inner)
            _struct_paths(getattr(value, name, None), inner, structs, floats)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _struct_paths(item, f"{path}/{index}", structs, floats)
    elif isinstance(value, dict):
        for key, item in value.items():
            _struct_paths(item, f"{path}/{_escape(str(key))}", structs, floats)


def _loose_numbers(annotation: Any) -> bool:
    text = repr(annotation)
    return "float" in text or "JsonValue" in text or "Any" in text


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _without_unknown_keys(value: Any) -> Any:
    """A deep copy of a parsed value with every model's unknown keys removed."""
    if isinstance(value, BaseModel):
        copy = value.model_copy()
        for name in type(value).model_fields:
            item = getattr(value, name, None)
            object.__setattr__(copy, name, _without_unknown_keys(item))
        if copy.__pydantic_extra__ is not None:
            if _declares_extra(type(value)):
                object.__setattr__(
                    copy,
                    "__pydantic_extra__",
                    {
                        k: _without_unknown_keys(v)
                        for k, v in copy.__pydantic_extra__.items()
                    },
                )
            else:
                object.__setattr__(copy, "__pydantic_extra__", {})
        return copy
    if isinstance(value, list):
        return [_without_unknown_keys(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_without_unknown_keys(item) for item in value)
    if isinstance(value, dict):
        return {k: _without_unknown_keys(v) for k, v in value.items()}
    return value
