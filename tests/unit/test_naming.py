"""Python naming: case conversion, reserved names, collision tables (codegen.naming)."""

from __future__ import annotations

import keyword
import random

import pytest

from codegen import naming


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("sessionAdded", "session_added"),
        ("SessionAdded", "session_added"),
        ("URLPath", "url_path"),
        ("getHTTPResponse", "get_http_response"),
        ("HTTP2Server", "http2_server"),
        ("base64Data", "base64_data"),
        ("already_snake", "already_snake"),
        ("kebab-case-name", "kebab_case_name"),
        ("$/cancel", "cancel"),
        ("notify/sessionAdded", "notify_session_added"),
        ("_meta", "meta"),
        ("__dunder__", "dunder"),
        ("2d", "n_2d"),
        ("", "unnamed"),
        ("$", "unnamed"),
        ("class", "class_"),
        ("from", "from_"),
        ("match", "match_"),
    ],
)
def test_snake_case(name: str, expected: str) -> None:
    assert naming.snake_case(name) == expected


def test_snake_case_is_never_a_keyword_and_always_an_identifier() -> None:
    for word in [*keyword.kwlist, *keyword.softkwlist, "9lives", "a b", "ümlaut"]:
        result = naming.snake_case(word)
        assert result.isidentifier(), word
        assert not keyword.iskeyword(result), word


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("session/added", "SessionAdded"),
        ("URLPath", "URLPath"),
        ("url_path", "UrlPath"),
        ("MAX_SIZE", "MaxSize"),
        ("fileEdit.before", "FileEditBefore"),
        ("3d-shape", "N3dShape"),
        ("", "Unnamed"),
    ],
)
def test_pascal_case(name: str, expected: str) -> None:
    assert naming.pascal_case(name) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("InProgress", "IN_PROGRESS"),
        ("text", "TEXT"),
        ("Text", "TEXT"),
        ("IS_READ", "IS_READ"),
        ("URLPath", "URL_PATH"),
        ("1", "N_1"),
        ("none", "NONE"),
    ],
)
def test_constant_case(name: str, expected: str) -> None:
    assert naming.constant_case(name) == expected


@pytest.mark.parametrize(
    ("wire", "expected"),
    [
        # Builtins are fine attribute names, except those annotations use.
        ("type", "type"),
        ("id", "id"),
        ("filter", "filter"),
        ("list", "list_"),
        ("str", "str_"),
        ("from", "from_"),
        ("class", "class_"),
        ("json", "json_"),  # a BaseModel method
        ("model_config", "model_config_"),
        ("model_dump_extra", "model_dump_extra_"),  # pydantic's protected namespace
        ("_meta", "meta"),
        ("protocolVersion", "protocol_version"),
        ("name", "name"),
    ],
)
def test_attribute_name_avoids_keywords_annotation_builtins_and_basemodel(
    wire: str, expected: str
) -> None:
    assert naming.attribute_name(wire) == expected


def test_attribute_name_is_never_private_nor_reserved() -> None:
    for wire in ["_meta", "__x", "_", "print", "dict", "copy", "schema", "9"]:
        result = naming.attribute_name(wire)
        assert not result.startswith("_"), wire
        assert result not in naming.RESERVED_ATTRIBUTES, wire
        assert result.isidentifier(), wire


def test_class_name_keeps_identifiers_and_repairs_the_rest() -> None:
    assert naming.class_name("URLPath") == "URLPath"
    assert naming.class_name("ToolCallId") == "ToolCallId"
    assert naming.class_name("tool-call") == "ToolCall"
    assert naming.class_name("lowercase") == "Lowercase"
    assert naming.class_name("None") == "None_"


def test_function_name_avoids_builtins() -> None:
    assert naming.function_name("print") == "print_"
    assert naming.function_name("session/new") == "session_new"
    # The twin: a function is not a model attribute, so pydantic's protected prefixes
    # are left alone (an attribute with the same name is suffixed).
    assert naming.function_name("model_dump_all") == "model_dump_all"
    assert naming.attribute_name("model_dump_all") == "model_dump_all_"


def test_assign_names_suffixes_collisions_deterministically() -> None:
    table = naming.assign_names(
        ["meta", "_meta", "fooBar", "foo_bar", "foo-bar"], naming.attribute_name
    )
    # The name that already is the identifier wins; the others follow in sorted order.
    assert table == {
        "meta": "meta",
        "_meta": "meta_2",
        "foo_bar": "foo_bar",
        "foo-bar": "foo_bar_2",
        "fooBar": "foo_bar_3",
    }
    assert len(set(table.values())) == len(table)


def test_assign_names_does_not_depend_on_input_order() -> None:
    names = ["a_b", "aB", "AB", "a-b", "a_b_2", "x", "type", "type_"]
    expected = naming.assign_names(names, naming.attribute_name)
    shuffled = list(names)
    for seed in range(5):
        random.Random(seed).shuffle(shuffled)
        assert naming.assign_names(shuffled, naming.attribute_name) == expected
    assert len(set(expected.values())) == len(expected)
    # A suffixed name never takes an identifier some other name wants outright.
    assert expected["a_b_2"] == "a_b_2"


def test_assign_names_respects_taken_names() -> None:
    table = naming.assign_names(["Field", "Thing"], naming.class_name, {"Field"})
    assert table == {"Field": "Field_2", "Thing": "Thing"}
    # A rejecting twin: without the taken set the name stays.
    assert naming.assign_names(["Field"], naming.class_name) == {"Field": "Field"}
