"""The Rust oracle's source: the spec's serde declarations, ready for one crate."""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from codegen.oracles.rust import spec_features
from codegen.oracles.rust_source import cfg_true, extract, shim_type

LIB = """\
mod v1;
#[cfg(feature = "unstable")]
mod nes;
"""

V1 = """\
use serde::{Deserialize, Serialize};
use schemars::JsonSchema;

/// A session.
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, derive_more::Display)]
#[serde(rename_all = "camelCase")]
#[schemars(example = "x")]
pub struct Session {
    pub session_id: crate::v1::SessionId,
    #[cfg(feature = "unstable")]
    pub beta: bool,
    #[cfg_attr(feature = "unstable", serde(rename = "renamed"))]
    pub title: String,
    #[serde(default, skip_serializing_if = "Kind::is_default")]
    pub kind: Kind,
}

#[derive(Serialize, Deserialize, Default)]
pub enum Kind { #[default] A, B }

impl Kind {
    fn is_default(&self) -> bool { matches!(self, Kind::A) }
    fn unrelated(&self) -> anyhow::Result<()> { todo!() }
}

#[serde_with::serde_as]
#[serde_with::skip_serializing_none]
#[derive(Serialize, Deserialize)]
pub struct Opts {
    pub a: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub b: Option<u32>,
    #[serde_as(deserialize_as = "DefaultOnError")]
    #[serde(default)]
    pub c: Vec<u32>,
}

#[derive(Serialize, Deserialize)]
#[serde(transparent)]
pub struct SessionId(pub String);

pub fn helper() -> u32 { 1 }
"""

NES = """\
#[derive(Serialize, Deserialize)]
pub struct Beta { pub x: u8 }
"""


@pytest.fixture()
def crate(tmp_path: Path) -> Path:
    (tmp_path / "lib.rs").write_text(LIB, encoding="utf-8")
    (tmp_path / "v1.rs").write_text(V1, encoding="utf-8")
    (tmp_path / "nes.rs").write_text(NES, encoding="utf-8")
    return tmp_path / "lib.rs"


@pytest.mark.parametrize(
    ("predicate", "features", "expected"),
    [
        ('feature = "a"', {"a"}, True),
        ('feature = "a"', set(), False),
        ('not(feature = "a")', set(), True),
        ('all(feature = "a", feature = "b")', {"a"}, False),
        ('any(feature = "a", feature = "b")', {"b"}, True),
        ("test", {"test"}, False),
        ("docsrs", set(), False),
        # the target the machine's cargo builds for, as the frontend reads it
        ('target_os = "linux"', set(), True),
        ('target_os = "windows"', set(), False),
        ('any(docsrs, target_os = "linux")', set(), True),
        ("unix", set(), True),
        ("windows", set(), False),
        ('target_pointer_width = "64"', set(), True),
        ('target_pointer_width = "32"', set(), False),
    ],
)
def test_cfg_predicates(predicate: str, features: set[str], expected: bool) -> None:
    assert cfg_true(predicate, features) is expected


def test_declarations_keep_serde_and_lose_the_rest(crate: Path) -> None:
    module = extract([crate], set())
    text = "\n".join(module.items)
    session = next(item for item in module.items if "struct Session" in item)
    assert "#[derive(Clone, Serialize, Deserialize, PartialEq)]" in session
    assert '#[serde(rename_all = "camelCase")]' in session
    assert (
        "schemars" not in text and "Display" not in session and "JsonSchema" not in text
    )
    assert "session_id: SessionId" in session  # crate::v1:: flattened
    assert "beta" not in session  # cfg(feature = "unstable") is off
    assert "renamed" not in session
    assert "Beta" not in text  # the module is behind the feature
    # The method serde names is carried over, and only that one.
    assert "fn is_default" in text and "unrelated" not in text and "helper" not in text
    assert {t.name for t in module.types} == {"Session", "Kind", "Opts", "SessionId"}


def test_features_switch_members_and_modules_on(crate: Path) -> None:
    module = extract([crate], {"unstable"})
    session = next(item for item in module.items if "struct Session" in item)
    assert "pub beta: bool" in session
    assert '#[serde(rename = "renamed")]' in session
    assert "Beta" in {t.name for t in module.types}


@pytest.mark.parametrize(
    ("written", "shim"),
    [
        ("DefaultOnError", "DefaultOnError"),
        ("VecSkipError<_>", "VecSkipError<Same>"),
        (
            "DefaultOnError<VecSkipError<_, SkipListener>>",
            "DefaultOnError<VecSkipError<Same>>",
        ),
        ("Option<DefaultOnError<_>>", "Option<DefaultOnError<Same>>"),
        ("DisplayFromStr", None),
        ("Vec<DisplayFromStr>", None),
    ],
)
def test_serde_as_types_in_shim_terms(written: str, shim: str | None) -> None:
    assert shim_type(written) == shim


def test_serde_with_becomes_shims(crate: Path) -> None:
    opts = next(item for item in extract([crate], set()).items if "struct Opts" in item)
    # skip_serializing_none adds skip_serializing_if to the Option without one.
    assert opts.count('skip_serializing_if = "Option::is_none"') == 2
    assert 'deserialize_with = "__shim::de_as::<__shim::DefaultOnError, _, _>"' in opts
    assert "serde_as" not in opts and "serde_with" not in opts


UNTAGGED_VARIANTS = """\
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Mode {
    /// A form.
    Form(FormMode),
    Url { url: String },
    /// Anything else, kept.
    #[serde(untagged)]
    Other(OtherMode),
    #[serde(untagged)]
    Text(String),
}
"""


def test_untagged_variants_become_a_tagged_part_inside_an_untagged_enum(
    tmp_path: Path,
) -> None:
    (tmp_path / "lib.rs").write_text(UNTAGGED_VARIANTS, encoding="utf-8")
    module = extract([tmp_path / "lib.rs"], set())
    assert [t.name for t in module.types] == ["Mode"]
    assert module.owners == ["Mode", "Mode"]
    tagged, outer = (" ".join(item.split()) for item in module.items)
    # The tagged variants keep the enum's own attributes, under another name.
    assert '#[serde(tag = "type", rename_all = "snake_case")]' in tagged
    assert "pub enum Mode__Tagged { Form(FormMode), Url { url: String }, }" in tagged
    assert "untagged" not in tagged and "Other" not in tagged
    # The enum itself: untagged, the tagged part first, then the untagged variants in order.
    assert outer.startswith(
        "#[derive(Clone, Serialize, Deserialize)] #[serde(untagged)]"
    )
    assert outer.endswith(
        "pub enum Mode { __Tagged(Mode__Tagged), Other(OtherMode), Text(String), }"
    )
    assert outer.count("untagged") == 1 and "tag =" not in outer


def test_an_enum_without_untagged_variants_stays_one_item(crate: Path) -> None:
    module = extract([crate], set())
    assert not any("__Tagged" in item for item in module.items)


NEWER_SERDE = """\
use std::num::ParseIntError;
use std::{fmt, str::FromStr};
use std::collections::HashMap;
use other_crate::Thing;

#[derive(Serialize, Deserialize)]
#[serde(tag = "t", rename_all_fields(serialize = "PascalCase"))]
pub enum Shape {
    Dot,
    Line { start_at: u8 },
    #[serde(rename_all = "camelCase")]
    Box { top_left: u8 },
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Plain {
    Line { start_at: u8 },
}

#[derive(Serialize, Deserialize)]
pub struct Holder {
    #[serde(with = "as_str")]
    pub x: i64,
}

mod as_str {
    pub(super) fn serialize<S: serde::Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
        helper(s, v)
    }
    fn helper<S: serde::Serializer>(s: S, v: &i64) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }
    pub(super) fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        todo!()
    }
}
"""


@pytest.fixture()
def newer(tmp_path: Path) -> str:
    (tmp_path / "lib.rs").write_text(NEWER_SERDE, encoding="utf-8")
    module = extract([tmp_path / "lib.rs"], set())
    return "\n".join(module.items) + "\n" + repr(module.imports)


def test_rename_all_fields_becomes_each_struct_variants_rename_all(newer: str) -> None:
    flat = " ".join(newer.split())
    shape = flat[flat.index("#[serde(tag") : flat.index("pub enum Plain")]
    assert "rename_all_fields" not in newer  # Debian's serde predates it
    assert '#[serde(tag = "t")]' in shape
    assert '#[serde(rename_all(serialize = "PascalCase"))] Line' in shape
    # a unit variant has no fields; a variant's own rule wins (serde's order)
    assert (
        "] Dot" not in shape and 'PascalCase"))] #[serde(rename_all = "c' not in shape
    )
    assert shape.count("PascalCase") == 1


def test_an_enum_without_rename_all_fields_is_left_alone(newer: str) -> None:
    plain = newer[newer.index("pub enum Plain") :]
    assert '#[serde(rename_all = "camelCase")]' in newer
    assert "#[serde(" not in plain.split("}", 1)[0]


def test_a_with_module_loses_only_its_schemars_functions(newer: str) -> None:
    assert "fn serialize" in newer and "fn helper" in newer
    assert "json_schema" not in newer and "schemars" not in newer


def test_std_imports_are_kept_other_crates_are_not(newer: str) -> None:
    assert "'ParseIntError': 'std::num::ParseIntError'" in newer
    assert "'HashMap'" in newer  # kept here; rust.py drops the names its prelude has
    # another crate's item, and a nested group (read as nothing rather than misread)
    assert "Thing" not in newer and "FromStr" not in newer


def test_a_type_generic_in_lifetimes_only_is_judged_borrowing(tmp_path: Path) -> None:
    (tmp_path / "lib.rs").write_text(
        "#[derive(Serialize, Deserialize)]\npub struct Str<'a>(pub &'a str);\n"
        "#[derive(Serialize, Deserialize)]\npub struct Wrap<'a, T> { pub s: &'a str, "
        "pub t: T }\n",
        encoding="utf-8",
    )
    types = {t.name: t for t in extract([tmp_path / "lib.rs"], set()).types}
    # one wire form: in the oracle's table, read from the text it borrows
    assert not types["Str"].generic and types["Str"].borrowed
    # a type parameter: no single wire form
    assert types["Wrap"].generic and not types["Wrap"].borrowed


SAME_NAME = """\
#[derive(Serialize, Deserialize)]
pub struct Both { pub a: a::Config, pub b: crate::b::Config }

mod a {
    #[derive(Serialize, Deserialize)]
    pub struct Config { test: String }
}

mod b {
    #[derive(Serialize, Deserialize)]
    pub struct Config { test2: String }
    #[derive(Serialize, Deserialize)]
    pub struct Holder { pub inner: Config }
}
"""


def test_the_same_name_in_two_modules_is_two_types(tmp_path: Path) -> None:
    (tmp_path / "lib.rs").write_text(SAME_NAME, encoding="utf-8")
    module = extract([tmp_path / "lib.rs"], set())
    text = " ".join("\n".join(module.items).split())
    assert {t.name for t in module.types} == {"Both", "Config", "b__Config", "Holder"}
    assert "pub a: Config, pub b: b__Config" in text
    assert "pub struct b__Config { test2: String }" in text
    # a bare name inside module b is b's own type
    assert "pub inner: b__Config" in text


def test_one_declaration_keeps_its_name(tmp_path: Path) -> None:
    (tmp_path / "lib.rs").write_text(
        SAME_NAME.replace("pub struct Config { test2", "pub struct Other { test2"),
        encoding="utf-8",
    )
    module = extract([tmp_path / "lib.rs"], set())
    assert "b__Config" not in "\n".join(module.items) and not module.renames


def _subject(tmp_path: Path, rust: str) -> Any:
    """What ``spec_features`` reads of a subject: its raw config, the default-features
    switch and the source paths (a Cargo.toml among them)."""
    cargo = tmp_path / "Cargo.toml"
    cargo.write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\n'
        '[features]\ndefault = ["std"]\nstd = ["alloc"]\nalloc = []\nextra = []\n',
        encoding="utf-8",
    )
    raw = tomllib.loads(rust)
    config = SimpleNamespace(
        raw=raw,
        rust_default_features=raw.get("rust", {}).get("default_features", True),
        source_paths=lambda: [cargo, tmp_path / "lib.rs"],
    )
    return SimpleNamespace(config=config, source_paths=config.source_paths)


def test_oracle_features_are_the_builds_default_and_implied(tmp_path: Path) -> None:
    subject = _subject(tmp_path, '[rust]\nfeatures = ["extra"]\n')
    assert spec_features(subject) == {"default", "std", "alloc", "extra"}


def test_oracle_features_without_defaults_when_the_spec_turns_them_off(
    tmp_path: Path,
) -> None:
    subject = _subject(
        tmp_path, '[rust]\nfeatures = ["extra"]\ndefault_features = false\n'
    )
    assert spec_features(subject) == {"extra"}


def test_a_crate_is_read_from_its_roots_under_its_cfg(tmp_path: Path) -> None:
    """Every file of a crate given: the files a ``mod`` names are read through it (a
    module behind a false ``cfg`` is not compiled), the roots on their own."""
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "lib.rs").write_text(
        '#[cfg(target_os = "windows")]\nmod windows;\nmod unix;\nmod sub;\n',
        encoding="utf-8",
    )
    (src / "windows.rs").write_text(
        "use std::os::windows::ffi::OsStrExt;\n"
        "#[derive(Serialize, Deserialize)]\npub struct OnWindows { pub a: u8 }\n",
        encoding="utf-8",
    )
    (src / "unix.rs").write_text(
        "use std::result::Result as StdResult;\nuse std::fmt::{Display as Show, Debug};\n"
        "#[derive(Serialize, Deserialize)]\npub struct OnUnix { pub a: u8 }\n",
        encoding="utf-8",
    )
    (src / "sub" / "mod.rs").write_text("mod inner;\n", encoding="utf-8")
    (src / "sub" / "inner.rs").write_text(
        "#[derive(Serialize, Deserialize)]\npub struct Inner { pub a: u8 }\n",
        encoding="utf-8",
    )
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "x"\n', encoding="utf-8")
    paths = [tmp_path / "Cargo.toml", *sorted(src.rglob("*.rs"))]
    module = extract(paths, set())
    names = {t.name for t in module.types}
    assert names == {"OnUnix", "Inner"}  # windows.rs is not compiled on this target
    assert "OsStrExt" not in module.imports
    # renamed std imports are kept under the name the code uses
    assert module.imports["StdResult"] == "std::result::Result as StdResult"
    assert module.imports["Show"] == "std::fmt::Display as Show"
    assert module.imports["Debug"] == "std::fmt::Debug"


def test_a_module_named_by_no_mod_is_a_root(tmp_path: Path) -> None:
    (tmp_path / "schema.rs").write_text(
        "#[derive(Serialize, Deserialize)]\npub struct Alone { pub a: u8 }\n",
        encoding="utf-8",
    )
    assert [t.name for t in extract([tmp_path / "schema.rs"], set()).types] == ["Alone"]


def test_attributes_of_tuple_fields_are_filtered(tmp_path: Path) -> None:
    """``Io(#[from] IoError)`` (thiserror's) is no serde attribute: dropped; a serde one on
    a tuple field is kept, and a tuple field under a false cfg is removed."""
    (tmp_path / "lib.rs").write_text(
        "#[derive(Serialize, Deserialize)]\npub enum E {\n"
        "    Io(#[from] IoError),\n"
        '    Pair(#[serde(default)] pub u8, #[cfg(feature = "x")] u16, u32),\n'
        "}\n",
        encoding="utf-8",
    )
    (item,) = [i for i in extract([tmp_path / "lib.rs"], set()).items if "enum E" in i]
    assert "#[from]" not in item and "Io( IoError)" in " ".join(item.split("\n"))
    assert "#[serde(default)] pub u8" in item
    assert "u16" not in item and "u32" in item
