"""The Go oracle's source: the spec's type declarations, as written, that compile alone."""

from __future__ import annotations

from pathlib import Path

from codegen.oracles.go import for_old_go, go_declarations, usable
from codegen.oracles.subject import load_subject

REPO = Path(__file__).resolve().parent.parent.parent


def test_the_listing_page_gives_every_type_block_verbatim() -> None:
    decls = {d.name: d for d in go_declarations(load_subject("piglet", REPO))}
    assert len(decls) > 120
    cancel = decls["CancelParams"]
    assert cancel.text.startswith("type CancelParams struct {")
    assert '`json:"id"`' in cancel.text  # struct tags are kept as written
    assert "json.RawMessage" in decls["ActionResult"].qualified


def test_declarations_that_use_unknown_types_are_left_out_with_a_reason() -> None:
    decls = go_declarations(load_subject("piglet", REPO))
    kept, skipped = usable(decls)
    names = {d.name for d in kept}
    assert "CancelParams" in names
    for name, reason in skipped.items():
        assert name not in names and reason


def test_omitzero_is_spelled_omitempty_where_they_mean_the_same() -> None:
    decls = {d.name: d for d in go_declarations(load_subject("piglet", REPO))}
    kept, skipped = for_old_go(list(decls.values()))
    by_name = {d.name: d for d in kept}
    # CallID string `json:"callId,omitzero"`: for a string both leave out "".
    assert '`json:"callId,omitempty"`' in by_name["HostExecuteToolParams"].text
    assert "omitzero" not in by_name["HostExecuteToolParams"].text
    assert not skipped  # piglet uses omitzero on scalars only


def _subject(tmp_path: Path, code: str) -> object:
    from types import SimpleNamespace

    source = tmp_path / "input.go"
    source.write_text(code, encoding="utf-8")
    config = SimpleNamespace(
        source_paths=lambda: [source], rel=lambda p: p.name, spec_dir=tmp_path
    )
    return SimpleNamespace(id="t", config=config, source_paths=lambda: [source])


def test_plain_go_files_and_omitzero_that_old_go_cannot_tell(tmp_path: Path) -> None:
    subject = _subject(
        tmp_path,
        """package t

import "sync"

type Name string

type Ok struct {
	A string `json:"a,omitzero"`
	N Name   `json:"n,omitzero"`
	P *int   `json:"p,omitzero"`
}

type Slice struct {
	S []string `json:"s,omitzero"`
}

type Box[T any] struct{ V T `json:"v"` }

type Locked struct{ mu sync.Mutex }
""",
    )
    decls = go_declarations(subject)  # type: ignore[arg-type]
    assert [d.name for d in decls] == ["Name", "Ok", "Slice", "Box", "Locked"]
    assert next(d for d in decls if d.name == "Box").generic
    kept, skipped = for_old_go(decls)
    # An empty non-nil slice is not zero but is empty: omitempty would differ.
    assert "Slice" in skipped and "omitzero" in skipped["Slice"]
    ok = next(d for d in kept if d.name == "Ok")
    assert ok.text.count("omitempty") == 3 and "omitzero" not in ok.text
    usable_decls, why = usable(kept)
    assert "Locked" in why and "sync.Mutex" in why["Locked"]
    assert {d.name for d in usable_decls} == {"Name", "Ok", "Box"}


def test_marshaler_methods_are_copied_with_the_imports_they_use(tmp_path: Path) -> None:
    subject = _subject(
        tmp_path,
        """package t

import (
	"encoding/json"
	"strings"
)

type Low string

func (l Low) MarshalText() ([]byte, error) { return []byte(strings.ToLower(string(l))), nil }

type Box struct{ Value any }

func (b Box) MarshalJSON() ([]byte, error) { return json.Marshal(b.Value) }

type Helped struct{ Value any }

func (h Helped) MarshalJSON() ([]byte, error) { return helper(h.Value) }

func helper(v any) ([]byte, error) { return json.Marshal(v) }
""",
    )
    decls = {d.name: d for d in go_declarations(subject)}  # type: ignore[arg-type]
    assert decls["Low"].methods and "strings" in decls["Low"].imports
    assert "string" not in decls["Low"].unusable  # a conversion, not a call
    assert decls["Box"].imports == {"encoding/json"}
    kept, why = usable(list(decls.values()))
    assert {d.name for d in kept} == {"Low", "Box"}
    assert "helper" in why["Helped"]


def test_marshalers_shown_only_as_signatures_leave_the_type_out(tmp_path: Path) -> None:
    from types import SimpleNamespace

    page = tmp_path / "page.txt"
    page.write_text(
        "type Box struct {\n\tValue any\n}\n\n"
        "func (b Box) MarshalJSON() ([]byte, error)\n\n"
        'type Plain struct {\n\tN int `json:"n"`\n}\n',
        encoding="utf-8",
    )
    config = SimpleNamespace(rel=lambda p: p.name)
    subject = SimpleNamespace(id="t", config=config, source_paths=lambda: [page])
    kept, why = usable(go_declarations(subject))  # type: ignore[arg-type]
    assert [d.name for d in kept] == ["Plain"]
    assert "signatures" in why["Box"]
