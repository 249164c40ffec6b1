"""The Go method table: every Method* constant, paired types, direction/kind rules, overrides."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.frontends.go.methods import MethodCounts, build_methods
from codegen.frontends.go.reader import read_go
from codegen.pipeline import load_protocol
from codegen.spec.config import load_config
from codegen.spec.source import SourceText

REPO = Path(__file__).resolve().parent.parent.parent
PIGLET = REPO / "specs/piglet"


def _table(spec_dir: Path) -> tuple[list[ir.Method], MethodCounts, Diagnostics]:
    diags = Diagnostics()
    config = load_config(spec_dir, diags, spec_dir)
    assert config is not None
    sources = [SourceText.read(p, config.rel(p)) for p in config.source_paths()]
    read = read_go(sources, diags)
    counts = MethodCounts()
    methods, _ = build_methods(
        read.consts, read.decls, read.pages, config, diags, counts
    )
    return methods, counts, diags


def test_every_method_constant_is_a_method() -> None:
    text = (PIGLET / "external.godoc.txt").read_text(encoding="utf-8")
    constants = re.findall(r'^\tMethod\w+\s*=\s*"([^"]+)"', text, re.MULTILINE)
    methods, counts, diags = _table(PIGLET)
    assert not diags.has_errors(), [d.headline() for d in diags.errors()]
    assert [m.wire_name for m in methods] == constants
    assert len(methods) == 88
    assert sum(counts.direction.values()) == sum(counts.kind.values()) == 88
    assert counts.direction == {"text": 42, "wire name": 23, "override": 23}
    assert counts.kind == {"text": 48, "wire name": 21, "listing": 19}


def _method(name: str) -> ir.Method:
    methods, _, _ = _table(PIGLET)
    return next(m for m in methods if m.wire_name == name)


@pytest.mark.parametrize(
    ("wire", "arrow", "kind", "params", "result"),
    [
        (
            "initialize",
            "host → extension",
            "request",
            "InitializeParams",
            "InitializeResult",
        ),
        ("shutdown", "host → extension", "notification", "ShutdownParams", None),
        ("$/cancelRequest", "host → extension", "notification", "CancelParams", None),
        (
            "tool/execute",
            "host → extension",
            "request",
            "ToolExecuteParams",
            "ToolExecuteResult",
        ),
        (
            "eventBus/event",
            "host → extension",
            "notification",
            "EventBusEventParams",
            None,
        ),
        (
            "inputTransformer/transform",
            "host → extension",
            "request",
            "InputTransformParams",
            "InputTransformResult",
        ),
        (
            "host/chat",
            "extension → host",
            "request",
            "HostChatParams",
            "HostChatResult",
        ),
        (
            "register/tool",
            "extension → host",
            "notification",
            "RegisterToolParams",
            None,
        ),
        (
            "messageHook/onMessage",
            "host → extension",
            "request",
            "MessageHookParams",
            "MessageHookResult",
        ),
    ],
)
def test_known_methods(
    wire: str, arrow: str, kind: str, params: str, result: str | None
) -> None:
    method = _method(wire)
    assert method.direction.arrow() == arrow
    assert method.kind.value == kind
    assert isinstance(method.params, ir.Ref) and method.params.name == params
    if result is None:
        assert method.result is None
    else:
        assert isinstance(method.result, ir.Ref) and method.result.name == result


def test_missing_types_read_as_any_json_with_a_note() -> None:
    method = _method("host/llmSnapshot")
    assert method.params == ir.AnyJson() and method.result == ir.AnyJson()
    _, _, diags = _table(PIGLET)
    assert any(
        d.code == "MTH004" and "host/llmSnapshot" in d.message for d in diags.items
    )


def test_constants_kept() -> None:
    protocol = load_protocol(PIGLET, REPO).protocol
    assert protocol is not None
    constants = {c.name: c.value for c in protocol.constants}
    assert constants["ProtocolVersion"] == "5"
    assert constants["FilterAll"] == "all"
    assert constants["FilterBackgroundSafe"] == "background_safe"


def _spec(tmp_path: Path, listing: str, overrides: str) -> Path:
    (tmp_path / "spec.toml").write_text(
        '[spec]\nid = "t"\nlanguage = "go"\nsources = ["x.godoc.txt"]\n'
        'roles = ["host", "extension"]\n' + overrides,
        encoding="utf-8",
    )
    (tmp_path / "x.godoc.txt").write_text(listing, encoding="utf-8")
    return tmp_path


LISTING = """x

const (
\tMethodPing = "ping"
\tMethodHostPong = "host/pong"
)

type PingParams struct{}

PingParams is a notification.
"""


def test_missing_direction_is_an_error(tmp_path: Path) -> None:
    _, _, diags = _table(_spec(tmp_path, LISTING, ""))
    errors = [d for d in diags.items if d.code == "MTH006"]
    assert len(errors) == 1 and "ping" in errors[0].message
    assert errors[0].span.file == "x.godoc.txt" and errors[0].span.line == 4


def test_stale_and_unknown_overrides_are_errors(tmp_path: Path) -> None:
    overrides = (
        '[methods.overrides."ping"]\ndirection = "extension → host"\n'
        'kind = "notification"\n'
        '[methods.overrides."host/pong"]\ndirection = "extension → host"\n'
        '[methods.overrides."gone"]\ndirection = "host → extension"\n'
    )
    methods, counts, diags = _table(_spec(tmp_path, LISTING, overrides))
    stale = sorted(d.message for d in diags.items if d.code == "MTH005")
    assert len(stale) == 3, stale
    assert any("'gone'" in m for m in stale)
    # The shared [methods] table (codegen/methods/table.py) words them.
    assert any(
        "'ping'" in m and "kind is not needed" in m for m in stale
    )  # the text already says notification
    assert any(
        "'host/pong'" in m and "direction is not needed" in m for m in stale
    )  # the wire name says it
    assert all(
        d.span.file == "spec.toml" and d.span.line > 1
        for d in diags.items
        if d.code == "MTH005"
    )
    assert counts.direction["override"] == 1
    assert methods[0].direction.arrow() == "extension → host"


def test_contradicting_text_is_an_error(tmp_path: Path) -> None:
    listing = LISTING.replace(
        "PingParams is a notification.",
        "PingParams is a host → extension notification sent by the extension.",
    )
    _, _, diags = _table(_spec(tmp_path, listing, ""))
    assert any(d.code == "MTH006" and "contradicts" in d.message for d in diags.items)
