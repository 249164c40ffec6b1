"""spec.toml is read against one schema: a typo anywhere is one error at its own line and
column, with the closest known key or value; a table for another language is refused.
Every rejecting case has an accepting twin (the same file, spelt right)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codegen.diagnostics import Diagnostics, render
from codegen.spec.config import load_config

HEAD = '[spec]\nlanguage = "typescript"\nsources = ["protocol.ts"]\n'


def _load(tmp_path: Path, toml: str, files: tuple[str, ...] = ("protocol.ts",)):
    (tmp_path / "pyproject.toml").write_text("")
    folder = tmp_path / "specs/x"
    folder.mkdir(parents=True, exist_ok=True)
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("export interface A { x: string }\n")
    (folder / "spec.toml").write_text(toml, encoding="utf-8")
    diags = Diagnostics()
    config = load_config(folder, diags, tmp_path)
    return config, diags


def _one(tmp_path: Path, toml: str, **kw: tuple[str, ...]) -> tuple[str, int, int]:
    config, diags = _load(tmp_path, toml, **kw)
    assert config is None
    assert len(diags.items) == 1, [d.message for d in diags.items]
    item = diags.items[0]
    return item.message, item.span.line, item.span.col


# (spec.toml with the mistake, the same spelt right, message, line, column)
CASES = [
    (
        HEAD + '[transport]\nkind = "jsonrpc"\n',
        HEAD + '[transport]\nkind = "jsonrpc-2.0"\n',
        (
            "transport.kind must be one of jsonrpc-2.0, http-post-envelope, "
            "event-envelope, not 'jsonrpc'; did you mean 'jsonrpc-2.0'?"
        ),
        5,
        8,
    ),
    (
        HEAD + '[transport]\nframing = ["websocket"]\n',
        HEAD + '[transport]\nframings = ["websocket"]\n',
        "unknown key 'framing' in [transport]; did you mean 'framings'?",
        5,
        1,
    ),
    (
        HEAD + '[transport]\nframings = ["ndjson-stdio", "websockets"]\n',
        HEAD + '[transport]\nframings = ["ndjson-stdio", "websocket"]\n',
        (
            "transport.framings[1] must be one of ndjson-stdio, content-length-stdio, "
            "websocket, http-post, "
            "not 'websockets'; did you mean 'websocket'?"
        ),
        5,
        29,
    ),
    (
        HEAD + '\n[python]\n  pakage = "x"\n',
        HEAD + '\n[python]\n  package = "x"\n',
        "unknown key 'pakage' in [python]; did you mean 'package'?",
        6,
        3,
    ),
    (
        '[spec]\nlanguage = "typescript"\nsorces = ["protocol.ts"]\n',
        '[spec]\nlanguage = "typescript"\nsources = ["protocol.ts"]\n',
        "unknown key 'sorces' in [spec]; did you mean 'sources'?",
        3,
        1,
    ),
    (
        HEAD + '[methods."a/b"]\nknd = "request"\n',
        HEAD + '[methods."a/b"]\nkind = "request"\n',
        "unknown key 'knd' in [methods.\"a/b\"]; did you mean 'kind'?",
        5,
        1,
    ),
    (
        HEAD + '[methods."a/b"]\nkind = "notifcation"\n',
        HEAD + '[methods."a/b"]\nkind = "notification"\n',
        (
            'methods."a/b".kind must be one of request, notification, not '
            "'notifcation'; did you mean 'notification'?"
        ),
        5,
        8,
    ),
    (
        HEAD + '[methods."a/b"]\nresult = ["A", 2]\n',
        HEAD + '[methods."a/b"]\nresult = ["A", "B"]\n',
        'methods."a/b".result[1] must be a string, not an integer',
        5,
        16,
    ),
    (
        HEAD + '[methods."a/b"]\nparams = 3\n',
        HEAD + '[methods."a/b"]\nparams = "A"\n',
        'methods."a/b".params must be a list or a string, not an integer',
        5,
        10,
    ),
    (
        HEAD + "[unions.U]\nopen = 1\n",
        HEAD + "[unions.U]\nopen = true\n",
        "unions.U.open must be true or false, not an integer",
        5,
        8,
    ),
    (
        HEAD + "[sepc]\n",
        HEAD + "[python]\n",
        (
            "unknown table 'sepc' in spec.toml (known: spec, transport, python, "
            "external, methods, errors, examples, unions, rust, go)"
        ),
        4,
        2,
    ),
    (
        HEAD + 'extra_keys = "forbidden"\n',
        HEAD + 'extra_keys = "forbid"\n',
        (
            "spec.extra_keys must be one of allow, forbid, not 'forbidden'; "
            "did you mean 'forbid'?"
        ),
        4,
        14,
    ),
    (
        '[spec]\nlanguage = "typescript"\nsources = ["protocl.ts"]\n',
        '[spec]\nlanguage = "typescript"\nsources = ["protocol.ts"]\n',
        "source file 'protocl.ts' does not exist in x/; did you mean 'protocol.ts'?",
        3,
        12,
    ),
    (
        '[spec]\nlanguage = "go"\nsources = ["protocol.ts"]\n',
        '[spec]\nlanguage = "typescript"\nsources = ["protocol.ts"]\n',
        (
            "spec.language is 'go', but the sources are typescript (protocol.ts); "
            "did you mean language = 'typescript'?"
        ),
        2,
        12,
    ),
    (
        '[spec]\nlanguage = "go"\nsources = ["protocol.ts"]\n[rust]\nfeatures = []\n',
        '[spec]\nlanguage = "rust"\nsources = ["protocol.rs"]\n[rust]\nfeatures = []\n',
        (
            "[rust] applies only to specs with language = 'rust'; this spec's "
            "language is 'go'"
        ),
        4,
        2,
    ),
    (
        HEAD + "roles = ['client']\n",
        HEAD + "roles = ['client', 'server']\n",
        "spec.roles must list exactly two roles, not 1",
        4,
        9,
    ),
    (
        HEAD + '[errors]\nabc = "X"\n',
        HEAD + '[errors]\n-32001 = "X"\n',
        "errors: 'abc' is not an integer error code",
        5,
        1,
    ),
]


@pytest.mark.parametrize(("wrong", "right", "message", "line", "col"), CASES)
def test_a_mistake_is_one_error_at_its_place_with_a_suggestion(
    tmp_path: Path, wrong: str, right: str, message: str, line: int, col: int
) -> None:
    files = ("protocol.ts", "protocol.rs")
    assert _one(tmp_path, wrong, files=files) == (message, line, col)
    config, diags = _load(tmp_path, right, files=files)
    assert config is not None and not diags.items, [d.message for d in diags.items]


def test_the_error_is_rendered_with_the_line_and_a_caret(tmp_path: Path) -> None:
    _config, diags = _load(tmp_path, HEAD + '[transport]\nkind = "jsonrpc"\n')
    text = render(diags.items[0], tmp_path)
    head, _gutter, echoed, caret = text.splitlines()
    assert head.startswith("specs/x/spec.toml:5:8: error[CFG002]: transport.kind")
    assert echoed == '5 | kind = "jsonrpc"'
    assert caret.index("^") == echoed.index('"jsonrpc"')


def test_a_kind_that_drops_the_jsonrpc_envelope_is_not_accepted(tmp_path: Path) -> None:
    """The issue's worst trap: `kind = "jsonrpc"` was exit 0 and changed the wire."""
    config, diags = _load(tmp_path, HEAD + '[transport]\nkind = "jsonrpc"\n')
    assert config is None and [d.code for d in diags.items] == ["CFG002"]


def test_every_mistake_is_reported_once_in_document_order(tmp_path: Path) -> None:
    toml = (
        '[spec]\nlanguage = "typescript"\nsorces = ["protocol.ts"]\n'
        '[transport]\nframing = ["websocket"]\n[python]\npakage = "x"\n'
    )
    _config, diags = _load(tmp_path, toml)
    assert [(d.span.line, d.message.split(";")[0]) for d in diags.items] == [
        (3, "unknown key 'sorces' in [spec]"),
        (5, "unknown key 'framing' in [transport]"),
        (7, "unknown key 'pakage' in [python]"),
    ]


def test_a_missing_required_key_without_a_typo_is_reported(tmp_path: Path) -> None:
    message, line, _col = _one(tmp_path, '[spec]\nlanguage = "typescript"\n')
    assert (message, line) == ("[spec] must set 'sources'", 1)


def test_the_built_in_specs_pass_the_schema() -> None:
    root = Path(__file__).resolve().parents[2]
    for folder in sorted((root / "specs").iterdir()):
        diags = Diagnostics()
        assert load_config(folder, diags, root) is not None, folder
        assert not diags.items, [d.message for d in diags.items]


def test_every_framing_the_runtime_serves_is_accepted(tmp_path: Path) -> None:
    from codegen.spec.schema import FRAMINGS

    assert "content-length-stdio" in FRAMINGS
    config, diags = _load(
        tmp_path, HEAD + '[transport]\nframings = ["content-length-stdio"]\n'
    )
    assert config is not None and config.framings == ("content-length-stdio",)
    assert not diags.items
