"""``codegen validate``: envelopes matched to methods, pointers and declaring lines, exit codes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from codegen import ir
from codegen.cli.validate import _declaring_span
from codegen.ir.index import Index
from codegen.passes.infer_discriminators import select_variant
from tests.cli_support import run_codegen

REPO = Path(__file__).resolve().parent.parent.parent


def _validate(*args: str) -> subprocess.CompletedProcess[str]:
    return run_codegen(REPO, "validate", *args)


def _write(path: Path, *messages: object) -> Path:
    path.write_text("".join(json.dumps(m) + "\n" for m in messages), encoding="utf-8")
    return path


def test_a_valid_transcript_passes(tmp_path: Path) -> None:
    transcript = _write(
        tmp_path / "ok.jsonl",
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": 1, "clientId": "c"},
        },
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"protocolVersion": 1, "serverSeq": 0, "snapshots": []},
        },
        {
            "jsonrpc": "2.0",
            "method": "unsubscribe",
            "params": {"resource": "copilot:/x"},
        },
        {
            "jsonrpc": "2.0",
            "id": 1,
            "error": {"code": -32005, "message": "unsupported"},
        },
    )
    result = _validate("ahp", str(transcript))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 message(s), 0 invalid" in result.stderr


def test_errors_name_pointer_and_declaring_line(tmp_path: Path) -> None:
    transcript = _write(
        tmp_path / "bad.jsonl",
        {
            "jsonrpc": "2.0",
            "id": "a",
            "method": "initialize",
            "params": {"protocolVersion": "1", "clientId": "c"},
        },
        {
            "jsonrpc": "2.0",
            "id": "a",
            "result": {
                "protocolVersion": 1,
                "serverSeq": 0,
                "snapshots": [{"resource": "x", "state": {"summary": 3}, "fromSeq": 1}],
            },
        },
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "unsubscribe",
            "params": {"resource": "x"},
        },
        {"jsonrpc": "2.0", "id": 9, "method": "nope"},
    )
    result = _validate("ahp", str(transcript))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(
        "bad.jsonl:1: /params/protocolVersion:" in ln and "commands.ts:29" in ln
        for ln in lines
    )
    assert any(
        "bad.jsonl:2: /result/snapshots/0/state/summary:" in ln and "state.ts:" in ln
        for ln in lines
    )
    assert any("bad.jsonl:3: /id: unsubscribe is a notification" in ln for ln in lines)
    assert any("bad.jsonl:4: /method: unknown method 'nope'" in ln for ln in lines)


def test_bare_part_with_method_and_part(tmp_path: Path) -> None:
    good = tmp_path / "p.json"
    good.write_text('{"resource": "copilot:/x"}')
    assert (
        _validate(
            "ahp", str(good), "--method", "subscribe", "--part", "params"
        ).returncode
        == 0
    )
    bad = tmp_path / "q.json"
    bad.write_text('{"resource": 3}')
    result = _validate("ahp", str(bad), "--method", "subscribe", "--part", "params")
    assert result.returncode == 1 and "/resource" in result.stdout


def test_unmatched_response_and_bad_json(tmp_path: Path) -> None:
    lone = _write(tmp_path / "lone.json", {"jsonrpc": "2.0", "id": 5, "result": {}})
    result = _validate("ahp", str(lone))
    assert result.returncode == 1 and "--method and --part" in result.stdout
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"a": 1}\n{nope\n')
    result = _validate("ahp", str(broken))
    assert result.returncode == 1
    assert "broken.jsonl:1: /: neither a request nor a response" in result.stdout
    assert "broken.jsonl:2: /: not JSON: Expecting property name" in result.stdout


def test_usage_errors() -> None:
    assert _validate("ahp", "missing.json").returncode == 2
    assert _validate("ahp", "README.md", "--method", "x").returncode == 2


def _union_protocol(union: ir.UnionDecl) -> Index:
    text = ir.Primitive(ir.PrimitiveKind.STRING)
    structs = tuple(
        ir.StructDecl(
            name,
            tuple(
                ir.Field(key, key, text, span=ir.Span("spec.ts", line, 1))
                for key in keys
            ),
        )
        for name, keys, line in (("Cat", ("kind", "meow"), 3), ("Dog", ("bark",), 7))
    )
    return Index(
        ir.Protocol(
            "p", "P", "1", ir.Transport("jsonrpc-2.0", ()), (), (*structs, union), ()
        )
    )


def _variants(*tags: tuple[str | int | bool, ...]) -> tuple[ir.Variant, ...]:
    return tuple(
        ir.Variant(name, ir.Ref(name), tag)
        for name, tag in zip(("Cat", "Dog"), tags, strict=True)
    )


def test_a_union_member_is_found_by_its_tag_or_its_keys() -> None:
    tagged = ir.UnionDecl(
        "Pet", _variants(("cat",), ()), ir.UnionRepr.INTERNALLY_TAGGED, tag_key="kind"
    )
    index = _union_protocol(tagged)
    cat = select_variant(tagged, {"kind": "cat"}, index)
    assert cat is not None and cat.name == "Cat"
    # No tag_values: the variant name is the tag (serde's default).
    dog = select_variant(tagged, {"kind": "Dog"}, index)
    assert dog is not None and dog.name == "Dog"
    # Untagged: the first object variant whose required keys are all present.
    keyed = ir.UnionDecl("Pet", _variants((), ()), ir.UnionRepr.UNTAGGED)
    index = _union_protocol(keyed)
    dog = select_variant(keyed, {"bark": "w", "meow": "m"}, index)
    assert dog is not None and dog.name == "Dog"
    cat = select_variant(keyed, {"kind": "k", "meow": "m", "bark": "w"}, index)
    assert cat is not None and cat.name == "Cat"  # declared first
    path: list[str | int] = ["meow"]
    value = {"kind": "k", "meow": 1}
    assert _declaring_span(index, ir.Ref("Pet"), value, path) == "spec.ts:3"


def test_a_value_no_union_member_claims_has_no_variant() -> None:
    tagged = ir.UnionDecl(
        "Pet", _variants(("cat",), ("dog",)), ir.UnionRepr.INTERNALLY_TAGGED, "kind"
    )
    index = _union_protocol(tagged)
    assert select_variant(tagged, {"kind": "cow"}, index) is None
    assert select_variant(tagged, ["not", "an", "object"], index) is None
    keyed = ir.UnionDecl("Pet", _variants((), ()), ir.UnionRepr.UNTAGGED)
    index = _union_protocol(keyed)
    assert select_variant(keyed, {"purr": "p"}, index) is None
    path: list[str | int] = ["meow"]
    assert _declaring_span(index, ir.Ref("Pet"), {"purr": 1}, path) == ""
