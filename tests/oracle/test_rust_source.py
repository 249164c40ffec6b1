"""The Rust oracle's source: the spec's serde declarations, ready for one crate."""

from __future__ import annotations

from pathlib import Path

import pytest

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
