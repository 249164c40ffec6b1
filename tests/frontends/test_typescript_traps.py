"""Each TypeScript trap of DESIGN.md §4 asserted directly (the goldens pin the full IR)."""

from __future__ import annotations

from pathlib import Path

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.typescript.reader import read_typescript
from codegen.spec.source import SourceText
from tests.frontends.ts_support import load_ts


def _decl(outcome_protocol: ir.Protocol | None, name: str) -> ir.Decl:
    assert outcome_protocol is not None
    decl = outcome_protocol.decl(name)
    assert decl is not None, name
    return decl


def test_bit_flag_enum_from_shifts_and_ors(tmp_path: Path) -> None:
    out = load_ts(
        tmp_path, "export const enum S { A = 1, B = 1 << 3, C = (1 << 3) | (1 << 4) }"
    )
    enum = _decl(out.protocol, "S")
    assert isinstance(enum, ir.EnumDecl) and enum.flags
    assert [m.value for m in enum.members] == [1, 8, 24]


def test_plain_integer_enum_is_not_flags(tmp_path: Path) -> None:
    enum = _decl(
        load_ts(tmp_path, "export const enum P { A = 1, B = 2 }").protocol, "P"
    )
    assert (
        isinstance(enum, ir.EnumDecl)
        and not enum.flags
        and enum.base is ir.EnumBase.INTEGER
    )


def test_string_const_enum(tmp_path: Path) -> None:
    enum = _decl(
        load_ts(tmp_path, "export const enum E { A = 'a', B = 'b-c' }").protocol, "E"
    )
    assert isinstance(enum, ir.EnumDecl) and enum.base is ir.EnumBase.STRING
    assert [m.value for m in enum.members] == ["a", "b-c"]


def test_enum_member_discriminants_make_a_tagged_union_with_two_values(
    tmp_path: Path,
) -> None:
    out = load_ts(
        tmp_path,
        """export const enum K { T = 't', N = 'n', I = 'i' }
        export interface A { kind: K.T; }
        export interface B { kind: K.N | K.I; x?: number }
        export type U = A | B;""",
    )
    union = _decl(out.protocol, "U")
    assert isinstance(union, ir.UnionDecl)
    assert union.repr is ir.UnionRepr.INTERNALLY_TAGGED and union.tag_key == "kind"
    assert [v.tag_values for v in union.variants] == [("t",), ("n", "i")]


def test_duplicate_tag_values_do_not_become_a_tagged_union(tmp_path: Path) -> None:
    out = load_ts(
        tmp_path,
        """export const enum K { T = 't' }
        export interface A { kind: K.T; }
        export interface B { kind: K.T; }
        export type U = A | B;""",
    )
    union = _decl(out.protocol, "U")
    assert isinstance(union, ir.UnionDecl) and union.repr is ir.UnionRepr.UNTAGGED
    # Legal TypeScript: read as the member that fits, noted, never an error.
    assert [d.code for d in out.diags.items if d.code.startswith("UNI")] == ["UNI003"]
    assert not out.diags.has_errors()


def test_extends_three_bases_including_unexported(tmp_path: Path) -> None:
    out = load_ts(
        tmp_path,
        """interface H { h: string } export interface N { n: string } interface T { t: number }
        export interface E extends H, N, T { e?: boolean }""",
    )
    struct = _decl(out.protocol, "E")
    assert isinstance(struct, ir.StructDecl)
    assert [b.name for b in struct.bases] == ["H", "N", "T"]
    hidden = _decl(out.protocol, "H")
    assert isinstance(hidden, ir.StructDecl) and not hidden.exported


def test_undefined_union_means_optional_and_null_means_nullable(tmp_path: Path) -> None:
    out = load_ts(
        tmp_path,
        "export interface X { a: string | undefined; b: string | null; c: string }",
    )
    struct = _decl(out.protocol, "X")
    assert isinstance(struct, ir.StructDecl)
    a, b, c = struct.fields
    assert (a.presence, a.nullable) == (ir.Presence.OPTIONAL, False)
    assert (b.presence, b.nullable) == (ir.Presence.REQUIRED, True)
    assert (c.presence, c.nullable) == (ir.Presence.REQUIRED, False)


def test_record_and_index_signature(tmp_path: Path) -> None:
    out = load_ts(
        tmp_path,
        "export interface X { r: Record<string, number>; [k: string]: unknown }",
    )
    struct = _decl(out.protocol, "X")
    assert isinstance(struct, ir.StructDecl)
    assert struct.fields[0].type == ir.MapOf(ir.Primitive(ir.PrimitiveKind.NUMBER))
    assert struct.index_value == ir.AnyJson()


def test_inline_object_is_lifted_with_a_derived_name(tmp_path: Path) -> None:
    out = load_ts(tmp_path, "export interface FileEdit { before: { uri: string } }")
    lifted = _decl(out.protocol, "FileEditBefore")
    assert (
        isinstance(lifted, ir.StructDecl) and lifted.derived_from == "FileEdit.before"
    )


def test_string_literal_union_stays_inline(tmp_path: Path) -> None:
    out = load_ts(tmp_path, "export interface D { type: 'file' | 'directory' }")
    struct = _decl(out.protocol, "D")
    assert isinstance(struct, ir.StructDecl)
    assert struct.fields[0].type == ir.InlineUnion(
        (ir.Literal("file"), ir.Literal("directory"))
    )


def test_number_unknown_object(tmp_path: Path) -> None:
    out = load_ts(tmp_path, "export interface B { n: number; u: unknown; o: object }")
    struct = _decl(out.protocol, "B")
    assert isinstance(struct, ir.StructDecl)
    assert [f.type for f in struct.fields] == [
        ir.Primitive(ir.PrimitiveKind.NUMBER),
        ir.AnyJson(),
        ir.AnyJson(structured=True),
    ]


def test_untagged_union_of_interfaces_is_read_by_best_fit(tmp_path: Path) -> None:
    out = load_ts(
        tmp_path,
        """export interface R { agents: string[] } export interface S { summary: string }
        export interface Snap { state: R | S }""",
    )
    union = _decl(out.protocol, "SnapState")
    assert isinstance(union, ir.UnionDecl) and union.repr is ir.UnionRepr.UNTAGGED
    assert not union.first_fit  # TypeScript: any member that fits, not the first
    notes = [d.message for d in out.diags.items if d.code == "UNI003"]
    assert len(notes) == 1 and "R, S" in notes[0]


def test_meta_field_keeps_its_wire_name(tmp_path: Path) -> None:
    out = load_ts(tmp_path, "export interface T { _meta?: Record<string, unknown> }")
    struct = _decl(out.protocol, "T")
    assert isinstance(struct, ir.StructDecl) and struct.fields[0].wire_name == "_meta"


def test_external_import_is_a_warning_and_strict_makes_it_an_error(
    tmp_path: Path,
) -> None:
    toml = '[external.Ext]\nmodule = "./x.js"\nreason = "elsewhere"\n'
    out = load_ts(
        tmp_path,
        "import type { Ext } from './x.js';\nexport interface A { e: Ext }",
        toml,
    )
    assert out.ok() and not out.ok(strict=True)
    alias = _decl(out.protocol, "Ext")
    assert isinstance(alias, ir.AliasDecl) and alias.kind is ir.AliasKind.EXTERNAL


def test_undeclared_import_is_an_error_where_it_is_needed(tmp_path: Path) -> None:
    source = "import type { Ext } from './x.js';\nexport interface A { e: Ext }"
    out = load_ts(tmp_path, source, 'types = ["A"]\n')
    assert not out.ok()
    assert [d.code for d in out.diags.items if d.severity.value == "error"] == [
        "REF001"
    ]


def test_undeclared_import_nothing_needs_is_left_out(tmp_path: Path) -> None:
    out = load_ts(
        tmp_path, "import type { Ext } from './x.js';\nexport interface A { e: Ext }"
    )
    assert out.ok() and out.protocol is not None
    assert [d.code for d in out.diags.items if d.code == "SYN006"] == ["SYN006"] * 2
    assert out.protocol.decl("A") is None and out.protocol.decl("Ext") is None


def test_method_table_from_jsdoc(tmp_path: Path) -> None:
    out = load_ts(
        tmp_path,
        """/**
 * @method doIt
 * @direction Server → Client
 * @messageType Request
 * @throws `Nope` (`-32001`) never.
 */
export interface DoItParams { a: string }
export interface DoItResult { b: string }
/**
 * @method told
 * @direction Client → Server
 * @messageType Notification
 */
export interface ToldParams { c: string }
""",
    )
    assert out.protocol is not None
    do_it, told = out.protocol.methods
    assert do_it.kind is ir.MethodKind.REQUEST
    assert (do_it.direction.sender, do_it.direction.receiver) == ("server", "client")
    assert do_it.params == ir.Ref(
        "DoItParams", do_it.params.span if do_it.params else ir.NO_SPAN
    )
    assert [e.code for e in do_it.errors] == [-32001]
    assert told.kind is ir.MethodKind.NOTIFICATION and told.result is None


def test_example_with_placeholder_is_kept_as_skipped(tmp_path: Path) -> None:
    out = load_ts(
        tmp_path,
        """/**
 * @method m
 * @direction Client → Server
 * @messageType Request
 * @example
 * ```jsonc
 * // ok
 * { "jsonrpc": "2.0", "id": 1, "method": "m", "params": { "a": "x..." } }
 * // not ok
 * { "jsonrpc": "2.0", "id": 1, "result": { ... } }
 * ```
 */
export interface MParams { a: string }
""",
    )
    assert out.protocol is not None
    first, second = out.protocol.examples
    assert first.skipped_reason is None and first.note == "ok"
    assert second.skipped_reason is not None and "placeholder" in second.skipped_reason
    assert any(d.code == "EXM001" for d in out.diags.items)


def test_syntax_errors_are_diagnostics_not_crashes(tmp_path: Path) -> None:
    out = load_ts(tmp_path, "export interface X { a: string\nexport interface Y {")
    assert any(d.code == "SYN001" for d in out.diags.items)


def test_an_imported_external_is_not_reported_unused(tmp_path: Path) -> None:
    toml = '[external.Ext]\nmodule = "./x.js"\nreason = "elsewhere"\n'
    out = load_ts(
        tmp_path,
        "import type { Ext } from './x.js';\nexport interface A { e: Ext }",
        toml,
    )
    assert "CFG004" not in [d.code for d in out.diags.items]


def test_an_external_never_imported_is_reported_unused(tmp_path: Path) -> None:
    toml = '[external.Ext]\nmodule = "./x.js"\nreason = "elsewhere"\n'
    out = load_ts(tmp_path, "export interface A { e: string }", toml)
    assert [d.code for d in out.diags.items] == ["CFG004", "MTH008"]


def test_imports_between_spec_files_are_local_including_d_ts() -> None:
    diags = Diagnostics()
    read_typescript(
        [
            SourceText("types.d.ts", "export interface X { x: string }"),
            SourceText("a.ts", "import type { X } from './types.js';\n"),
        ],
        ("client", "server"),
        {},
        diags,
    )
    assert diags.items == []


def test_imports_from_outside_the_spec_are_not_local() -> None:
    diags = Diagnostics()
    read_typescript(
        [SourceText("a.ts", "import type { X } from './types.js';\n")],
        ("client", "server"),
        {},
        diags,
    )
    assert [d.code for d in diags.items] == ["REF001"]
