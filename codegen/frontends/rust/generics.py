"""Generic structs, enums and type aliases, instantiated at each use with its type arguments.

Phase: frontend (called by ``rust.type_exprs`` when a type names a generic declaration of
the crate; the declarations it makes are added by ``rust.reader``).
Inputs: the generic item (its ``type_parameters``: type parameters with their defaults;
lifetimes and const parameters carry no wire form), the IR types of the arguments at the use
(already converted in the using module) and their Rust text.
Outputs: the IR name of the instance (``OneOf<bool, Options>`` → ``OneOfBoolOptions``, its own
untagged union with those member types); the instance's declarations, built by the same
``DeclBuilder`` as any item, with the parameters bound to the arguments.  Names: the generic's
name, then each argument's word — a crate type's IR name, else the PascalCase words of its
Rust text (``Vec<String>`` → ``VecString``); a name already taken by something else gets the
smallest free number suffix.  One instance per (declaration, argument types): a recursive
instance (``Tree<T> { children: Vec<Tree<T>> }``) refers to itself by name.
Guarantees: never raises; wrong argument counts, a parameter without argument or default,
a generic without a serde derive, and instantiations nested deeper than ``MAX_TYPE_NESTING``
(``A<T> { a: Option<A<Vec<T>>> }`` makes a new type at every level) are SYN003 and read as any
JSON.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.common.syntax import MAX_TYPE_NESTING, node_text, span_of
from codegen.frontends.rust.crate import Item
from codegen.frontends.rust.decls import DeclBuilder
from codegen.frontends.rust.type_exprs import CrateNames, TypeConverter

Builder = Callable[[Item, TypeConverter], DeclBuilder]


@dataclass
class Instantiator:
    items: dict[str, Item]  # full path → generic item
    crate: CrateNames
    wrappers: dict[str, str]
    diags: Diagnostics
    builder: Builder
    decls: list[ir.Decl] = field(default_factory=list)
    memo: dict[
        tuple[str, tuple[ir.TypeExpr, ...], tuple[tuple[str, str], ...]], str
    ] = field(default_factory=dict)
    depth: int = 0

    def __call__(
        self, full: str, args: list[ir.TypeExpr], texts: list[str], span: ir.Span
    ) -> str | None:
        item = self.items.get(full)
        if item is None:
            return None
        name = node_text(item.node.child_by_field_name("name"))
        if item.node.type != "type_item" and not (
            {"Serialize", "Deserialize"} & item.attrs.derives
        ):
            self._fail(
                f"`{name}` is defined at {span_of(item.source, item.node)} but derives "
                "neither Serialize nor Deserialize, so its wire form is not declared; "
                f'declare it in [rust.wrappers] (`{name} = "transparent"` or another '
                "form)",
                span,
            )
            return None
        converter = TypeConverter(
            item.source, self.diags, item.module, self.crate, self.wrappers
        )
        bindings = self._bind(item, name, args, texts, converter, span)
        if bindings is None:
            return None
        # a placeholder for a non-wire argument is that argument, by its path
        key = (
            full,
            tuple(bindings.values()),
            tuple(sorted(converter.binding_paths.items())),
        )
        if key in self.memo:
            return self.memo[key]
        if self.depth >= MAX_TYPE_NESTING:
            self._fail(
                f"{name}: generic instances nested more than {MAX_TYPE_NESTING} levels "
                "deep (each level a new type)",
                span,
            )
            return None
        instance = self._name(name, args, texts)
        self.memo[key] = instance
        converter.bindings = bindings
        self.depth += 1
        try:
            self.decls.extend(self.builder(item, converter).item(item, instance))
        finally:
            self.depth -= 1
        return instance

    def _bind(
        self,
        item: Item,
        name: str,
        args: list[ir.TypeExpr],
        texts: list[str],
        converter: TypeConverter,
        span: ir.Span,
    ) -> dict[str, ir.TypeExpr] | None:
        params_node = item.node.child_by_field_name("type_parameters")
        params = [
            p
            for p in (params_node.named_children if params_node is not None else [])
            if p.type == "type_parameter"
        ]
        if len(args) > len(params):
            self._fail(
                f"{name} takes {len(params)} type argument(s), {len(args)} given", span
            )
            return None
        bindings: dict[str, ir.TypeExpr] = {}
        for index, param in enumerate(params):
            pname = node_text(param.child_by_field_name("name"))
            if index < len(args):
                bindings[pname] = args[index]
                text = texts[index] if index < len(texts) else ""
                if text in self.crate.others:
                    # a crate type with no serde form: an error only where it is used
                    converter.binding_paths[pname] = text
                    converter.not_wire.add(pname)
                elif isinstance(args[index], ir.Ref):
                    owner = args[index].name  # type: ignore[union-attr]
                    for path, ir_name in self.crate.names.items():
                        if ir_name == owner:
                            converter.binding_paths[pname] = path
                continue
            default = param.child_by_field_name("default_type")
            if default is None:
                self._fail(f"{name}: no type argument for {pname}", span)
                return None
            converter.bindings = dict(bindings)
            bindings[pname] = converter.convert(default)
        return bindings

    def _name(self, base: str, args: list[ir.TypeExpr], texts: list[str]) -> str:
        words = [
            arg.name if isinstance(arg, ir.Ref) else _words(text)
            for arg, text in zip(args, texts)
        ]
        name = base + "".join(words)
        taken = set(self.crate.names.values()) | set(self.memo.values())
        chosen, number = name, 2
        while chosen in taken:
            chosen, number = f"{name}{number}", number + 1
        return chosen

    def _fail(self, message: str, span: ir.Span) -> None:
        self.diags.report("SYN003", f"{message}; read as any JSON value", span)


def _words(text: str) -> str:
    local = re.sub(
        r"[A-Za-z_][0-9A-Za-z_]*::", "", text
    )  # std::string::String → String
    words = re.split(r"[^0-9A-Za-z]+", re.sub(r"'[A-Za-z_]+", "", local))
    return "".join(w[:1].upper() + w[1:] for w in words if w) or "T"
