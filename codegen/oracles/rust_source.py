"""The Rust oracle's source: a spec's serde declarations as one compilable module.

Phase: verification (``make oracle``), for ``language = "rust"`` specs.
Inputs: the spec's Rust sources (one file such as ``specs/acp/schema.rs``, or a crate root
whose ``mod x;`` declarations are followed to ``x.rs`` / ``x/mod.rs``) and the enabled Cargo
features.
Outputs: ``extract(paths, features)``: a ``RustModule``: the text of every struct, enum and
type alias with its serde attributes (``derive`` narrowed to serde's and std's derives,
every other attribute dropped), the functions and methods that serde attributes name
(``default = "..."``, ``skip_serializing_if = "Type::method"``, ``with = "module"``), the
crate's own ``impl Serialize`` / ``impl Deserialize`` / ``impl Visitor`` / ``impl Default``
/ ``impl From`` blocks; ``types`` (the declarations a case may name, with whether they are
generic); ``notes`` (what could not be carried over).
Guarantees: ``#[cfg(...)]`` and ``#[cfg_attr(...)]`` are honoured with the spec's features
(``test`` and ``docsrs`` are off); module paths of the crate's own items (``crate::``,
``super::``, ``v1::``) are flattened, since all declarations land in one module;
serde_with's ``#[serde_as]`` field attributes (``DefaultOnError``, ``VecSkipError<_>``,
``Option<_>`` and their compositions) become ``#[serde(deserialize_with = ...)]`` calls
into small shims with the same semantics, and ``#[skip_serializing_none]`` adds ``skip_serializing_if =
"Option::is_none"`` to each ``Option`` field, because Debian packages no serde_with; an
enum with ``#[serde(untagged)]`` variants (which Debian's serde predates) becomes the two
enums serde's derive amounts to (``emulate_untagged_variants``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import tree_sitter_rust
from tree_sitter import Language, Node, Parser

from codegen.frontends.common.syntax import node_text

# The target the machine's cargo builds for (``unix``, ``target_os = "linux"``, ...): the
# facts a plain build sets besides features, the same ones the frontend reads with.
from codegen.frontends.rust.cfg import TARGET_FLAGS, TARGET_VALUES

_LANGUAGE = Language(tree_sitter_rust.language())
# A variant's ``#[serde(untagged)]`` (serde writes it alone in the attribute).
_UNTAGGED_VARIANT = re.compile(r"#\[serde\(\s*untagged\s*\)\]")
# Debug is not kept: a crate may implement it by hand for a member type, and the oracle
# never prints a value.
KEPT_DERIVES = frozenset(
    [
        "Serialize",
        "Deserialize",
        "Clone",
        "Copy",
        "Default",
        "PartialEq",
        "Eq",
        "Hash",
        "PartialOrd",
        "Ord",
    ]
)
KEPT_ATTRIBUTES = frozenset({"serde", "derive", "default", "non_exhaustive", "repr"})
_STD_PREDICATES = re.compile(
    r"^(Option|Vec|String|HashMap|BTreeMap|HashSet|BTreeSet|IndexMap|str|bool|Value|"
    r"serde_json::Value|std::\w+(::\w+)*|Default)::"
)
_SERDE_PATH_KEYS = (
    "default",
    "skip_serializing_if",
    "serialize_with",
    "deserialize_with",
    "with",
)
_SERDE_TYPE_KEYS = ("from", "into", "try_from")
# (Iterator: a field's type may be an associated type through it, ``T::Item``)
KEPT_IMPL_TRAITS = frozenset(
    {"Serialize", "Deserialize", "Visitor", "Default", "From", "TryFrom", "Iterator"}
)
# serde_with adapters the shims emulate (``__shim`` in the oracle crate), composable as in
# serde_with: ``_`` is the field's own serde.
SERDE_AS_NAMES = frozenset({"DefaultOnError", "VecSkipError", "Option", "Same"})


@dataclass
class RustType:
    name: str
    kind: str  # struct / enum / type
    generic: bool
    # generic in lifetimes only (``Str<'a>``): one wire form, read borrowing from the text
    borrowed: bool = False


@dataclass
class RustModule:
    items: list[str] = field(default_factory=list)
    # per item, the type it declares or implements ("" for a free function or module)
    owners: list[str] = field(default_factory=list)
    types: list[RustType] = field(default_factory=list)
    modules: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    # names serde attributes refer to: free functions, Type::method, modules, From types
    wanted_functions: set[str] = field(default_factory=set)
    wanted_methods: set[tuple[str, str]] = field(default_factory=set)
    wanted_modules: set[str] = field(default_factory=set)
    # types named by serde(from / into / try_from): their From / TryFrom impls are needed
    conversions: set[str] = field(default_factory=set)
    # the crate's own ``use std::...`` imports: name → path (``ParseIntError`` named in a
    # TryFrom impl)
    imports: dict[str, str] = field(default_factory=dict)
    # (module path, name) → the name a type declared in two modules takes
    renames: dict[tuple[tuple[str, ...], str], str] = field(default_factory=dict)


# ------------------------------------------------------------------ cfg predicates


def _tokens(text: str) -> list[str]:
    return re.findall(r'"(?:[^"\\]|\\.)*"|[A-Za-z_][\w]*|[(),=]', text)


def cfg_true(predicate: str, features: set[str]) -> bool:
    """Evaluate a ``cfg(...)`` predicate (the text inside the parentheses)."""
    tokens = _tokens(predicate)
    position = 0

    def parse() -> bool:
        nonlocal position
        name = tokens[position]
        position += 1
        if position < len(tokens) and tokens[position] == "(":
            position += 1
            values: list[bool] = []
            while tokens[position] != ")":
                values.append(parse())
                if tokens[position] == ",":
                    position += 1
            position += 1
            if name == "not":
                return not values[0]
            if name == "all":
                return all(values)
            if name == "any":
                return any(values)
            return False
        if position < len(tokens) and tokens[position] == "=":
            value = tokens[position + 1].strip('"')
            position += 2
            if name == "feature":
                return value in features
            return value in TARGET_VALUES.get(name, set())
        return name in TARGET_FLAGS

    try:
        return parse()
    except IndexError:
        return False


def _split_top(text: str) -> list[str]:
    """Split ``a, b(c, d), e`` at top-level commas."""
    parts: list[str] = []
    depth = 0
    current = ""
    in_string = False
    for index, char in enumerate(text):
        if char == '"' and (index == 0 or text[index - 1] != "\\"):
            in_string = not in_string
        if not in_string:
            if char in "([{<":
                depth += 1
            elif char in ")]}>":
                depth -= 1
            elif char == "," and depth == 0:
                parts.append(current.strip())
                current = ""
                continue
        current += char
    if current.strip():
        parts.append(current.strip())
    return parts


# ------------------------------------------------------------------ attributes


@dataclass
class _Context:
    features: set[str]
    module: RustModule


def _attribute_body(text: str) -> tuple[str, str]:
    """``#[name(args)]`` → (name, args)."""
    inner = text.strip()
    inner = inner[2:-1] if inner.startswith("#[") else inner
    match = re.match(r"\s*([\w:]+)\s*(\((.*)\))?\s*$", inner, re.DOTALL)
    if match is None:
        return inner, ""
    return match.group(1), match.group(3) or ""


def process_attribute(
    text: str, ctx: _Context, field_type: str = ""
) -> list[str] | None:
    """The attributes to keep for ``text``; None when a ``cfg`` removes the item."""
    name, args = _attribute_body(text)
    short = name.rsplit("::", 1)[-1]
    if short == "cfg":
        return [] if cfg_true(args, ctx.features) else None
    if short == "cfg_attr":
        parts = _split_top(args)
        if not parts or not cfg_true(parts[0], ctx.features):
            return []
        out: list[str] = []
        for part in parts[1:]:
            kept = process_attribute(f"#[{part}]", ctx, field_type)
            if kept is None:
                return None
            out.extend(kept)
        return out
    if short == "derive":
        derives = [d.rsplit("::", 1)[-1] for d in _split_top(args)]
        kept = [d for d in derives if d in KEPT_DERIVES]
        return [f"#[derive({', '.join(kept)})]"] if kept else []
    if short == "serde" and name in ("serde", "serde::serde"):
        _note_serde_paths(args, ctx.module)
        return [f"#[serde({_flatten_paths_in_strings(args, ctx.module)})]"]
    if short == "serde_as":
        return _serde_as(args, ctx, field_type)
    if short in KEPT_ATTRIBUTES:
        return [text.strip()]
    return []


def shim_type(text: str) -> str | None:
    """A serde_with ``as`` type in the shims' terms: ``_`` → ``Same``; an inspector
    parameter (``VecSkipError<_, SkipListener>``) dropped; None when it uses an adapter
    the shims do not have."""
    text = re.sub(r"\b_\b", "Same", text.replace(" ", ""))
    text = re.sub(
        r"VecSkipError<(Same|[^<>,]+(?:<[^<>]*>)?),[^<>]+>", r"VecSkipError<\1>", text
    )
    names = set(re.findall(r"[A-Za-z_]\w*", text))
    return text if names <= SERDE_AS_NAMES else None


def _serde_as(args: str, ctx: _Context, field_type: str) -> list[str]:
    if not args:
        return []  # the container attribute: its fields are translated one by one
    out: list[str] = []
    for part in _split_top(args):
        key, _, value = part.partition("=")
        key, value = key.strip(), value.strip().strip('"')
        shim = shim_type(value)
        if shim is None or key not in ("as", "deserialize_as", "serialize_as"):
            ctx.module.notes.append(f"serde_as({part}) has no shim; left out")
            continue
        # These adapters write what the field's own Serialize writes: only reading changes.
        if key in ("as", "deserialize_as"):
            qualified = re.sub(
                r"\b(DefaultOnError|VecSkipError|Same)\b", r"__shim::\1", shim
            )
            out.append(
                f'#[serde(deserialize_with = "__shim::de_as::<{qualified}, _, _>")]'
            )
        if (
            key == "as"
            and value.startswith("Option<")
            and field_type.startswith("Option")
        ):
            out.append("#[serde(default)]")  # serde_as adds it for Option fields
    return out


def _note_serde_paths(args: str, module: RustModule) -> None:
    for part in _split_top(args):
        key, _, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not value.startswith('"'):
            continue
        path = _flatten_path(value.strip('"'), module)
        if key in _SERDE_TYPE_KEYS:
            module.conversions.add(re.sub(r"<.*", "", path).rsplit("::", 1)[-1])
        if key in _SERDE_PATH_KEYS and not _STD_PREDICATES.match(path):
            if key == "with":
                module.wanted_modules.add(path.rsplit("::", 1)[-1])
            elif "::" in path:
                owner, method = path.rsplit("::", 1)
                module.wanted_methods.add((owner.rsplit("::", 1)[-1], method))
            else:
                module.wanted_functions.add(path)


def _flatten_path(path: str, module: RustModule) -> str:
    parts = path.split("::")
    inner = [p for p in parts if p not in ("crate", "super", "self")]
    renamed = module.renames.get((tuple(inner[:-1]), inner[-1])) if inner else None
    if renamed is not None:
        return renamed
    while len(parts) > 1 and (
        parts[0] in ("crate", "super", "self") or parts[0] in module.modules
    ):
        parts = parts[1:]
    return "::".join(parts)


def _flatten_paths_in_strings(args: str, module: RustModule) -> str:
    return re.sub(
        r'"([\w:<>]+)"',
        lambda m: f'"{_flatten_path(m.group(1), module)}"',
        args,
    )


# ------------------------------------------------------------------ items


class _Extractor:
    def __init__(
        self,
        features: set[str],
        renames: dict[tuple[tuple[str, ...], str], str] | None = None,
    ) -> None:
        self.ctx = _Context(features, RustModule())
        self.module = self.ctx.module
        # (module path, name) → the name a type declared in two modules takes here
        self.module.renames = dict(renames or {})
        self.declared: list[tuple[tuple[str, ...], str]] = []
        self.root_dir: Path | None = None
        self.modpath: tuple[str, ...] = ()
        self.seen_files: set[Path] = set()
        self.functions: dict[str, str] = {}
        self.methods: dict[tuple[str, str], str] = {}
        self.mod_bodies: dict[str, str] = {}
        self.impls: list[tuple[str, str, str]] = []  # (trait, self type, text)
        self.skip_none = False  # the item being read has #[skip_serializing_none]

    def file(self, path: Path, module_dir: Path) -> None:
        path = path.resolve()
        if path in self.seen_files or not path.is_file():
            return
        self.seen_files.add(path)
        if self.root_dir is None:
            self.root_dir = module_dir.resolve()
        data = path.read_bytes()
        root = Parser(_LANGUAGE).parse(data).root_node
        self.collect_module_names(root)
        self.items(root.named_children, module_dir)

    def collect_module_names(self, root: Node) -> None:
        for node in _walk(root):
            if node.type == "mod_item":
                name = node.child_by_field_name("name")
                if name is not None:
                    self.module.modules.add(node_text(name))

    def items(self, children: list[Node], module_dir: Path) -> None:
        pending: list[Node] = []
        for node in children:
            if node.type == "attribute_item":
                pending.append(node)
                continue
            if node.type in ("line_comment", "block_comment"):
                continue
            attributes, pending = pending, []
            self.modpath = self._modpath(module_dir)
            self.skip_none = any(
                _attribute_body(node_text(a))[0].endswith("skip_serializing_none")
                for a in attributes
            )
            kept: list[str] = []
            dropped = False
            for attribute in attributes:
                result = process_attribute(node_text(attribute), self.ctx)
                if result is None:
                    dropped = True
                    break
                kept.extend(result)
            if dropped:
                continue
            self.item(node, kept, module_dir)

    def item(self, node: Node, attributes: list[str], module_dir: Path) -> None:
        kind = node.type
        if kind == "mod_item":
            name = node_text(node.child_by_field_name("name"))
            body = node.child_by_field_name("body")
            if body is not None:
                self.mod_bodies[name] = _without_schema_functions(node, body)
                self.items(body.named_children, module_dir / name)
            else:
                for candidate in (
                    module_dir / f"{name}.rs",
                    module_dir / name / "mod.rs",
                ):
                    if candidate.is_file():
                        self.file(candidate, module_dir / name)
                        break
            return
        if kind in ("struct_item", "enum_item", "type_item", "union_item"):
            name = node_text(node.child_by_field_name("name"))
            params = node.child_by_field_name("type_parameters")
            lifetimes = params is not None and all(
                p.type in ("lifetime", "lifetime_parameter")
                for p in params.named_children
            )
            generic = params is not None and not lifetimes
            self.declared.append((self.modpath, name))
            renamed = self.module.renames.get((self.modpath, name))
            name_node = node.child_by_field_name("name")
            if renamed is not None:
                # the same name in two modules: this one under a name of its own
                self.module.notes.append(
                    f"{'::'.join(self.modpath)}::{name} is {renamed}"
                )
                name = renamed
            if name in {t.name for t in self.module.types}:
                self.module.notes.append(f"{name} is declared twice; the first is kept")
                return
            attributes, variant_rule = _take_rename_all_fields(attributes)
            extra = _variant_rules(node, variant_rule) if variant_rule else []
            if renamed is not None and name_node is not None:
                extra.append((name_node.start_byte, name_node.end_byte, renamed))
            for text in self.emulate_untagged_variants(node, name, attributes) or [
                self.rewrite(node, attributes, extra)
            ]:
                self.module.items.append(text)
                self.module.owners.append(name)
            self.module.types.append(
                RustType(
                    name,
                    kind.removesuffix("_item").replace("union", "struct"),
                    generic,
                    lifetimes,
                )
            )
            return
        if kind == "use_declaration":
            for name, path in _std_imports(node):
                self.module.imports.setdefault(name, path)
            return
        if kind == "function_item":
            self.functions[node_text(node.child_by_field_name("name"))] = self.plain(
                node
            )
            return
        if kind == "impl_item":
            self.impl(node)

    def impl(self, node: Node) -> None:
        trait = node.child_by_field_name("trait")
        self_type = node_text(node.child_by_field_name("type"))
        self_name = re.sub(r"<.*", "", self_type).rsplit("::", 1)[-1]
        if trait is None:
            body = node.child_by_field_name("body")
            for child in body.named_children if body is not None else []:
                if child.type == "function_item":
                    method = node_text(child.child_by_field_name("name"))
                    self.methods[(self_name, method)] = self.plain(child)
            return
        trait_name = re.sub(r"<.*", "", node_text(trait)).rsplit("::", 1)[-1]
        if trait_name in KEPT_IMPL_TRAITS:
            self.impls.append((trait_name, self_name, self.plain(node)))

    def emulate_untagged_variants(
        self, node: Node, name: str, attributes: list[str]
    ) -> list[str] | None:
        """An enum with ``#[serde(untagged)]`` variants (serde >= 1.0.181; Debian's is
        older) as the two enums serde's derive amounts to: the tagged variants under the
        enum's own attributes as ``<Name>__Tagged``, and ``<Name>`` itself untagged: that
        enum first, then each untagged variant in order.  serde reads the tagged part
        first and, on any error, each untagged variant in turn (its untagged variants
        must come last), which is exactly the first fit of an untagged enum; it writes an
        untagged variant bare, and so does the untagged enum.  None for other items."""
        body = node.child_by_field_name("body")
        if node.type != "enum_item" or body is None:
            return None
        tagged: list[tuple[int, int]] = []
        untagged: list[tuple[int, int]] = []
        children = body.children
        index = 0
        while index < len(children):
            start = index
            while index < len(children) and children[index].type in (
                "attribute_item",
                "line_comment",
                "block_comment",
            ):
                index += 1
            if index >= len(children) or children[index].type != "enum_variant":
                index += 1
                continue
            end = children[index].end_byte
            if index + 1 < len(children) and children[index + 1].type == ",":
                end = children[index + 1].end_byte
            marks = [node_text(children[i]) for i in range(start, index)]
            span = (children[start].start_byte, end)
            if any(_UNTAGGED_VARIANT.search(mark) for mark in marks):
                untagged.append(span)
            else:
                tagged.append(span)
            index += 1
        if not untagged:
            return None
        name_node = node.child_by_field_name("name")
        assert name_node is not None
        part = f"{name}__Tagged"
        inner = self.rewrite(
            node,
            attributes,
            [(s, e, "") for s, e in untagged]
            + [(name_node.start_byte, name_node.end_byte, part)],
        )
        outer = self.rewrite(
            node,
            [],
            [(s, e, "") for s, e in tagged]
            + [(body.start_byte + 1, body.start_byte + 1, f" __Tagged({part}), ")],
        )
        derives = [a for a in attributes if a.startswith("#[derive")]
        return [
            inner,
            "\n".join(
                [*derives, "#[serde(untagged)]", _UNTAGGED_VARIANT.sub("", outer)]
            ),
        ]

    def _modpath(self, module_dir: Path) -> tuple[str, ...]:
        if self.root_dir is None:
            return ()
        try:
            return module_dir.resolve().relative_to(self.root_dir).parts
        except ValueError:
            return ()

    def plain(self, node: Node) -> str:
        """An item's text with the crate's module paths flattened."""
        return self.rewrite(node, [])

    def rewrite(
        self,
        node: Node,
        attributes: list[str],
        extra: list[tuple[int, int, str]] | None = None,
    ) -> str:
        edits: list[tuple[int, int, str]] = list(extra or [])
        self.nested_attributes(node, edits)
        for inner in _walk(node):
            # Doc comments of members a cfg removed would document nothing: drop them all.
            if inner.type in ("line_comment", "block_comment") and inner is not node:
                edits.append((inner.start_byte, inner.end_byte, ""))
        for inner in _walk(node):
            if (
                inner.type == "type_identifier"
                and (
                    inner.parent is None
                    or inner.parent.type != "scoped_type_identifier"
                )
                and (self.modpath, node_text(inner)) in self.module.renames
            ):
                # a type of this module that took another name (declared twice)
                renamed = self.module.renames[(self.modpath, node_text(inner))]
                edits.append((inner.start_byte, inner.end_byte, renamed))
        for inner in _walk(node):
            if inner.type in ("scoped_type_identifier", "scoped_identifier"):
                text = node_text(inner)
                flat = _flatten_path(text, self.module)
                if (
                    flat != text
                    and inner.parent is not None
                    and inner.parent.type
                    not in (
                        "scoped_type_identifier",
                        "scoped_identifier",
                    )
                ):
                    edits.append((inner.start_byte, inner.end_byte, flat))
        text = _apply(node, edits)
        return "\n".join([*attributes, text])

    def nested_attributes(self, node: Node, edits: list[tuple[int, int, str]]) -> None:
        """Attributes of fields and variants: filtered, and cfg-removed members deleted."""
        for container in _walk(node):
            if container.type not in (
                "field_declaration_list",
                "ordered_field_declaration_list",
                "enum_variant_list",
            ):
                continue
            children = container.children
            index = 0
            while index < len(children):
                start = index
                while (
                    index < len(children) and children[index].type == "attribute_item"
                ):
                    index += 1
                member = children[index] if index < len(children) else None
                index += 1
                attributes = range(start, index - 1)
                if member is None:
                    continue
                end = member.end_byte
                field_type = ""
                if member.type == "field_declaration":
                    field_type = node_text(member.child_by_field_name("type"))
                elif (
                    container.type == "ordered_field_declaration_list"
                    and member.is_named
                ):
                    # a tuple field (``Io(#[from] IoError)``): [visibility] type
                    last = member
                    if member.type == "visibility_modifier" and index < len(children):
                        last = children[index]
                        index += 1
                    field_type, end = node_text(last), last.end_byte
                elif member.type != "enum_variant":
                    continue
                results = [
                    process_attribute(node_text(children[i]), self.ctx, field_type)
                    for i in attributes
                ]
                if any(r is None for r in results):
                    if index < len(children) and children[index].type == ",":
                        end = children[index].end_byte
                    edits.append((children[start].start_byte, end, ""))
                    continue
                kept = [text for result in results for text in result or []]
                if (
                    self.skip_none
                    and re.match(r"(std::option::)?Option\s*<", field_type)
                    and not any("skip_serializing_if" in text for text in kept)
                ):
                    kept.append('#[serde(skip_serializing_if = "Option::is_none")]')
                for i in attributes:
                    edits.append((children[i].start_byte, children[i].end_byte, ""))
                if kept:
                    edits.append(
                        (member.start_byte, member.start_byte, " ".join(kept) + " ")
                    )

    def finish(self) -> RustModule:
        module = self.module
        for name in sorted(module.wanted_functions):
            if name in self.functions:
                module.items.append(self.functions[name])
                module.owners.append("")
            else:
                module.notes.append(f"serde names function {name}, not found")
        by_owner: dict[str, list[str]] = {}
        for owner, method in sorted(module.wanted_methods):
            text = self.methods.get((owner, method))
            if text is None:
                module.notes.append(f"serde names {owner}::{method}, not found")
                continue
            by_owner.setdefault(owner, []).append(text)
        for owner, texts in by_owner.items():
            module.items.append(f"impl {owner} {{\n" + "\n".join(texts) + "\n}")
            module.owners.append(owner)
        for name in sorted(module.wanted_modules):
            if name in self.mod_bodies:
                module.items.append(self.mod_bodies[name])
                module.owners.append("")
        names = {t.name for t in module.types}
        for trait, self_name, text in self.impls:
            if trait in ("From", "TryFrom"):
                if self_name in module.conversions or any(
                    re.search(rf"\b{re.escape(c)}\b", text.split("{", 1)[0])
                    for c in module.conversions
                ):
                    module.items.append(text)
                    module.owners.append(self_name)
            elif self_name in names or trait == "Visitor":
                module.items.append(text)
                module.owners.append(self_name)
        return module


def _without_schema_functions(node: Node, body: Node) -> str:
    """A ``with`` module's text without the functions that name ``schemars``: they build a
    schema (``#[schemars(schema_with = "m::json_schema")]``), serde never calls them, and
    the oracle crate does not link schemars, so one would make the module fail to build.
    """
    edits = [
        (child.start_byte, child.end_byte, "")
        for child in body.named_children
        if child.type == "function_item" and "schemars" in node_text(child)
    ]
    return _apply(node, edits)


_STD_USE = re.compile(
    r"^(?:pub\s+)?use\s+(?:::)?((?:std|core|alloc)::[\w:]*?)"
    r"(\w+(?:\s+as\s+\w+)?|\{[\w\s,]*\})\s*;$"
)


def _std_imports(node: Node) -> list[tuple[str, str]]:
    """A ``use std::...;`` of named items as (name, path) pairs (``use std::num::{A, B}``
    gives two; ``Result as StdResult`` is named ``StdResult``); nothing for globs,
    ``self`` or other crates: the crate's own items
    are flattened into one module, and serde's names come with the oracle's prelude."""
    text = " ".join(node_text(node).split())
    found = _STD_USE.match(text)
    if found is None:
        return []
    prefix, names = found.group(1), found.group(2).strip("{}")
    out = []
    for name in (" ".join(n.split()) for n in names.split(",")):
        original, _, alias = name.partition(" as ")
        if alias and alias != "_":  # ``use std::result::Result as StdResult;``
            out.append((alias, f"{prefix}{original} as {alias}"))
        elif name and name != "self" and not alias:
            out.append((name, f"{prefix}{name}"))
    return out


def _take_rename_all_fields(attributes: list[str]) -> tuple[list[str], str | None]:
    """An enum's ``rename_all_fields = ...`` (serde >= 1.0.185; Debian's is older) taken
    out of its container attributes, to be given to each struct variant as the
    ``rename_all`` it amounts to; the attributes without it and its argument text."""
    out: list[str] = []
    rule: str | None = None
    for text in attributes:
        name, args = _attribute_body(text)
        if name not in ("serde", "serde::serde") or "rename_all_fields" not in args:
            out.append(text)
            continue
        parts = _split_top(args)
        rest = []
        for part in parts:
            if part.startswith("rename_all_fields"):
                rule = "rename_all" + part[len("rename_all_fields") :]
            else:
                rest.append(part)
        if rest:
            out.append(f"#[serde({', '.join(rest)})]")
    return out, rule


def _variant_rules(node: Node, rule: str) -> list[tuple[int, int, str]]:
    """``#[serde(rule)]`` inserted before each struct variant without a ``rename_all`` of
    its own (serde's ``rename_all_fields`` applies to struct variants' fields only)."""
    body = node.child_by_field_name("body")
    edits: list[tuple[int, int, str]] = []
    previous: list[Node] = []
    for child in body.children if body is not None else []:
        if child.type == "attribute_item":
            previous.append(child)
            continue
        if child.type == "enum_variant":
            own = any(
                "rename_all" in node_text(a) and "serde" in node_text(a)
                for a in previous
            )
            fields = child.child_by_field_name("body")
            if (
                not own
                and fields is not None
                and fields.type == "field_declaration_list"
            ):
                edits.append((child.start_byte, child.start_byte, f"#[serde({rule})] "))
        if child.type not in ("line_comment", "block_comment"):
            previous = []
    return edits


def _apply(node: Node, edits: list[tuple[int, int, str]]) -> str:
    data = node.text or b""
    base = node.start_byte
    # Outer edits first would be overwritten by inner ones: drop edits inside a deletion.
    edits = sorted(set(edits), key=lambda e: (e[0], -e[1]))
    kept: list[tuple[int, int, str]] = []
    for edit in edits:
        if kept and edit[0] < kept[-1][1]:
            continue
        kept.append(edit)
    for start, end, replacement in reversed(kept):
        data = data[: start - base] + replacement.encode() + data[end - base :]
    return data.decode("utf-8", errors="replace")


def _walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def extract(paths: list[Path], features: set[str]) -> RustModule:
    """Read twice when two modules declare one name: the first read finds them, the second
    gives each later one a name of its own (``b__Config``) and its paths that name."""
    paths = crate_roots(paths)
    extractor = _Extractor(features)
    for path in paths:
        extractor.file(path, path.parent)
    first: dict[str, tuple[str, ...]] = {}
    renames: dict[tuple[tuple[str, ...], str], str] = {}
    for modpath, name in extractor.declared:
        if first.setdefault(name, modpath) != modpath:
            renames[(modpath, name)] = "__".join([*modpath, name])
    if not renames:
        return extractor.finish()
    again = _Extractor(features, renames)
    for path in paths:
        again.file(path, path.parent)
    return again.finish()


def crate_roots(paths: list[Path]) -> list[Path]:
    """The Rust files no ``mod x;`` of another names (``src/lib.rs``, a binary's
    ``main.rs``, a lone schema file), as the frontend finds them: the others are read
    through their ``mod`` declarations, under their ``cfg``, as rustc reads them (a
    ``windows.rs`` behind ``#[cfg(target_os = "windows")] mod windows;`` is not
    compiled here); ``Cargo.toml`` is not Rust."""
    rust = [p for p in paths if p.suffix == ".rs"]
    named: set[Path] = set()
    for path in rust:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        root = Parser(_LANGUAGE).parse(data).root_node
        base = (
            path.parent
            if path.name in ("lib.rs", "main.rs", "mod.rs")
            else path.parent / path.stem
        )
        _named_modules(root, base, named)
    return [p for p in rust if p.resolve() not in named]


def _named_modules(node: Node, base: Path, named: set[Path]) -> None:
    for child in node.named_children:
        if child.type != "mod_item":
            continue
        name = node_text(child.child_by_field_name("name"))
        body = child.child_by_field_name("body")
        if body is not None:
            _named_modules(body, base / name, named)
            continue
        for candidate in (base / f"{name}.rs", base / name / "mod.rs"):
            named.add(candidate.resolve())
