"""Prose method evidence in the common layouts, each with its rejecting twin (issue 29):
labelled bullet lists (``_Request_:`` / ``**Notification**:`` with ``* method:``,
``* params:``, ``* result:``, ``* direction:``), tables with a ``Method`` column, and
notifications (the old ``Request:`` one-liners had no notification kind)."""

from __future__ import annotations

from pathlib import Path

from tests.methods.support import codes, load, messages, table

SOURCE = (Path(__file__).parent / "fixtures" / "layouts.md").read_text()


def test_bullet_lists_and_tables_are_methods(tmp_path: Path) -> None:
    out = load(tmp_path, "prose", SOURCE)
    assert table(out) == {
        "doc/lookup": "request client → server LookupParams Entry | null",
        "doc/changed": "notification server → client ChangedParams -",
        "doc/list": "request client → server LookupParams Entry[]",
        "doc/ping": "request server → client none none",
    }
    assert [c for c in codes(out) if c not in ("MTH009",)] == []


def test_a_section_naming_no_sender_takes_the_first_role_with_a_note(
    tmp_path: Path,
) -> None:
    source = SOURCE.replace(
        "The lookup request is sent by the client to the server.", "Looks a word up."
    )
    out = load(tmp_path, "prose", source, roles=("server", "client"))
    assert table(out)["doc/lookup"].startswith("request server → client")
    assert any("doc/lookup" in m and "first" in m for m in messages(out, "MTH009"))


def test_an_undeclared_result_type_is_an_error_on_its_line(tmp_path: Path) -> None:
    source = SOURCE.replace("* result: `Entry` | `null`", "* result: `Entri` | `null`")
    out = load(tmp_path, "prose", source)
    errors = [d for d in out.diags.items if d.code == "MTH010"]
    assert errors and "Entri" in errors[0].message
    assert (
        errors[0].span.line
        == source.splitlines().index("* result: `Entri` | `null`") + 1
    )


def test_a_request_label_without_a_result_is_an_error(tmp_path: Path) -> None:
    source = SOURCE.replace(
        "_Response_:\n* result: `Entry` | `null`\n", "_Response_:\n"
    )
    out = load(tmp_path, "prose", source)
    assert any("doc/lookup" in m for m in messages(out, "MTH010"))


def test_a_method_value_that_is_not_quoted_is_not_read(tmp_path: Path) -> None:
    source = SOURCE.replace("* method: 'doc/lookup'", "* method: the lookup one")
    out = load(tmp_path, "prose", source)
    assert "doc/lookup" not in table(out)


def test_an_include_is_followed(tmp_path: Path) -> None:
    head, _, rest = SOURCE.partition("### Changed")
    (tmp_path / "_includes").mkdir()
    (tmp_path / "_includes" / "changed.md").write_text(
        "### Changed\n" + rest, encoding="utf-8"
    )
    out = load(tmp_path, "prose", head + "{% include changed.md %}\n")
    rows = table(out)
    assert rows["doc/changed"] == "notification server → client ChangedParams -"
    changed = next(m for m in out.protocol.methods if m.wire_name == "doc/changed")  # type: ignore[union-attr]
    assert changed.span.file == "_includes/changed.md"


def test_an_include_naming_no_file_is_reported(tmp_path: Path) -> None:
    head, _, _ = SOURCE.partition("### Changed")
    out = load(tmp_path, "prose", head + "{% include gone.md %}\n")
    assert "doc/changed" not in table(out)
    assert any("gone.md" in d.message for d in out.diags.items if d.code == "SYN002")
